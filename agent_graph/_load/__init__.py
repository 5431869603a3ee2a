"""Loading: the file-system interface, the loader, bundle verification, Skill bindings, the load cache.

Rules: imports ``_core`` and ``_syntax``; reads through a ``FileSystem`` (the OS
by default, memory in tests and hosts); writes only what a caller asks for (the
load cache with ``cache=``; files through ``atomic``). No processes, locks or clock.
"""
