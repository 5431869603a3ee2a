"""The core: the protocol's model, canonical JSON and digests, the compiled IR, the evaluator and router.

Rules: no I/O, no clock, no environment, no processes, no code generated at run
time; imports only the standard library's pure modules, msgspec and ``_core``.
What evaluation remembers belongs to the Provider (``provider.cache``).
Checked by ``tests/package/test_architecture.py`` and import-linter (docs/architecture.md).
"""
