"""Tests of syntax."""
