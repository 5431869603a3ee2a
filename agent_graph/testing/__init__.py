"""Test suites agent-graph publishes for hosts: :mod:`agent_graph.testing.store_contract`."""
