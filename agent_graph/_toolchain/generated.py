"""Files the toolchain generates from the package's source, written or checked alike.

``errordoc`` (docs/errors.md) and ``publicnames`` (the type checkers' view of
``agent_graph``) each compute a file's text; :func:`write_or_check` writes it,
or with ``check`` only compares it with what is there and says how to bring it
up to date, so that CI fails on a file left stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["write_or_check"]


def write_or_check(target: Path, text: str, *, check: bool, command: str, written: str) -> int:
    """Write ``text`` to ``target`` (printing ``wrote <target> (<written>)``), or compare with ``check``.

    Answers an exit status: 0, or 1 when ``check`` finds the file stale (with a
    message on stderr naming ``command``, which rewrites it).
    """
    if check:
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != text:
            print(f"{target} is stale; run {command}", file=sys.stderr)
            return 1
        print(f"{target} is up to date")
        return 0
    from .._load.atomic import write_bytes_atomic

    write_bytes_atomic(str(target), text.encode("utf-8"))
    print(f"wrote {target} ({written})")
    return 0
