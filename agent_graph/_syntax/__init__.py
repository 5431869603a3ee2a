"""Syntax: YAML and JSON text into plain values, and JSON Schema validation.

Rules: imports only ``_core`` and the parsing libraries; reads no file but its
own package data (the shipped schemas, through ``importlib.resources``); callers
pass bytes or text and a path used only in messages.
"""
