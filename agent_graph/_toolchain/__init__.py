"""Toolchain: building bundles, scaffolding, importing, migrating, diagrams, the validator generator.

Rules: author-facing tools; may import every layer below it, never the command
line. ``schemagen`` is a build-time tool that nothing imports at run time.
"""
