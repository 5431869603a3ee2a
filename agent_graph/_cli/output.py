"""What the command line writes: the answer on stdout, the ``agent-graph.error.v1`` envelope on stderr.

An answer is one line of JSON with ``--format json``, short readable lines
otherwise, flushed at once so that a full disk or a closed pipe is noticed
while the exit status can still say so. A failure is the envelope (``ERROR
<code>: <message>`` and its diagnostics in human format) and exit status 1.
Human output escapes what a terminal would act on or show out of order
(:func:`visible`); text the stream cannot encode (lone surrogates from
undecodable arguments or file names) is written as ``\\uXXXX`` escapes.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import msgspec

from .._core.errors import AgentGraphError

__all__ = ["OUTPUT_FORMATS", "answer", "fail", "json_line", "silence_stdout", "visible"]

OUTPUT_FORMATS = ("human", "json")


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: What human output never writes as it is: control characters but tab and newline (a terminal runs
#: escape sequences, a carriage return hides what came before), the bidirectional overrides and
#: isolates (text shown in another order than it is) and lone surrogates (not Unicode). Each is
#: written as its escape (``\x1b``, ``\u202e``, ``\udcff``), whoever wrote it: a Provider's text,
#: a Run's Facts and comments, a file name.
_UNSHOWN = {
    code: _escape(code)
    for code in (
        *(c for c in range(0x20) if c not in (0x09, 0x0A)),
        *range(0x7F, 0xA0),
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        *range(0xD800, 0xE000),
    )
}


def visible(text: str) -> str:
    """``text`` as human output writes it: what a terminal would act on, or show out of order, escaped."""
    return text.translate(_UNSHOWN)


def _write(stream: Any, text: str) -> None:
    """Write ``text``; characters the stream cannot encode (lone surrogates from undecodable
    arguments or file names) are written as ``\\uXXXX`` escapes, which JSON strings read back."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def json_line(value: Any) -> str:
    """One line of JSON that is valid UTF-8 whatever the stream: a lone surrogate (from an
    undecodable argument or file name) is written as a ``\\uXXXX`` escape, as JSON.stringify does,
    and a value nested deeper than the C encoders go, or an integer longer than they print, is
    written by the iterative writer."""
    from .._core.plain import json_text

    if isinstance(value, msgspec.Struct):
        try:
            return msgspec.json.encode(value).decode("utf-8") + "\n"
        except (UnicodeEncodeError, RecursionError, ValueError):  # lone surrogates, huge integers: see below
            value = msgspec.to_builtins(value)
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        text.encode("utf-8")
    except (UnicodeEncodeError, RecursionError, ValueError):
        text = json_text(value)
    return text + "\n"


def fail(error: AgentGraphError, output_format: str) -> int:
    """Write the envelope of ``error`` on stderr, as ``output_format`` asks; answers the exit status, 1."""
    try:
        if output_format == "json":
            _write(sys.stderr, json_line(error.to_envelope()))
        else:
            _write(sys.stderr, visible(f"ERROR {error.code}: {error.message}") + "\n")
            for diagnostic in error.diagnostics:
                if diagnostic.code == error.code and diagnostic.message == error.message:
                    continue  # the machine-readable copy of the line above (its detail says where)
                located = (
                    isinstance(diagnostic.detail, dict) and "line" in diagnostic.detail
                )  # the message says where
                where = f" ({diagnostic.path})" if diagnostic.path and not located else ""
                _write(sys.stderr, visible(f"  {diagnostic.code}: {diagnostic.message}{where}") + "\n")
        sys.stderr.flush()
    except OSError:  # nowhere left to report to; the exit status still says it
        pass
    return 1


def silence_stdout() -> None:
    """After standard output failed, send what is still buffered for it nowhere (the process's own stdout only).

    Otherwise the interpreter would try to flush it again at exit and print a
    message of its own on stderr.
    """
    stream = sys.stdout
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    if stream is not sys.__stdout__:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, descriptor)
    except OSError:
        pass
    finally:
        os.close(null)


def answer(value: Any, lines: list[str], output_format: str) -> None:
    """Write the answer on stdout and flush it, so that a full disk or a closed pipe is noticed here."""
    if output_format == "json":
        _write(sys.stdout, json_line(value))
    else:
        _write(sys.stdout, visible("\n".join(lines)) + "\n")
    sys.stdout.flush()
