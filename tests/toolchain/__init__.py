"""Tests of toolchain."""
