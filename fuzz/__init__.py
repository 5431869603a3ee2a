"""Long-running, randomized checks that no input crashes, hangs or corrupts (``python -m fuzz``).

The targets are the property tests of ``tests/core/test_properties.py`` (run here
with random seeds and many more examples) and the grammar-driven YAML and
Provider targets of :mod:`fuzz.targets`. Everything is Hypothesis-driven, so a
finding is shrunk to a small example and printed with the blob that replays it.
"""
