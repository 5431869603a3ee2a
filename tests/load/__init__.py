"""Tests of load."""
