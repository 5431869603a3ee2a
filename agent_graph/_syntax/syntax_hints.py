"""What most likely went wrong in YAML or JSON text that does not parse, in words and with a place.

A reader's error names the token it stumbled on; the mistake is often
elsewhere. Given the text, the error's problem and position (1-based) and,
when the reader knows it, where the construct it was reading began,
:func:`syntax_hint` names the common causes:

* a tab in the indentation (YAML indents with spaces only);
* a line indented to no level of the block it continues;
* a ``{``, ``[`` or quote that is never closed: the hint points at the line
  that opened it, found by one pass over the text before the error that
  tracks flow brackets and quotes (outside comments and block scalars);
* a key without its ``:``, and a second ``: `` inside one plain value;
* a repeated key; a JSON key that is not double-quoted, or a trailing comma.

:func:`placed_syntax_error` writes a parse error the way the loader writes
every error about a file: ``file:line:column: message``, the file named as the
caller shows it (relative to the Provider root). Pure functions of text: the
scan is linear in the text before the error and recurses on nothing.
"""

from __future__ import annotations

from typing import Any

from .._core.errors import AgentGraphError, Diagnostic

__all__ = ["DUPLICATE_KEY_HINT", "placed_syntax_error", "syntax_hint"]

#: The hint of a repeated key (the YAML reader raises that error itself).
DUPLICATE_KEY_HINT = "a key appears once in a mapping: remove or rename one of the two"

_CLOSER = {"[": "]", "{": "}"}
_BLOCK_SCALAR = frozenset("|>")
_QUOTE_NAME = {"'": "single", '"': "double"}
# Problems an unclosed bracket or quote causes when the text goes on after it (YAML's and the JSON decoder's words).
_UNCLOSED_MIDWAY = ("must be indented", "expected ','", "Expecting ',' delimiter")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _token_start(line: str, index: int, in_flow: bool) -> bool:
    """Whether a value may begin at ``line[index]`` (after indentation, ``: ``, ``- ``, ``? ``, or inside ``[{,``)."""
    before = line[:index].rstrip(" \t")
    if not before:
        return True
    last = before[-1]
    if in_flow and last in "[{,:":
        return True
    return last in ":-?" and len(before) < index  # the indicator is followed by a space


def open_construct(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The innermost ``[``, ``{`` or quote still open at ``line``/``column`` (1-based): ``(char, line, column)``."""
    stack: list[tuple[str, int, int]] = []
    quote: tuple[str, int, int] | None = None
    block_indent = -1  # the indentation of the key whose block scalar (| or >) the lines are in
    lines = text.split("\n")
    for number, raw in enumerate(lines[:line], start=1):
        current = raw[:-1] if raw.endswith("\r") else raw
        if number == line:
            current = current[: max(column - 1, 0)]
        if block_indent >= 0 and quote is None and not stack:
            if not current.strip() or _indent(current) > block_indent:
                continue
            block_indent = -1
        index = 0
        length = len(current)
        while index < length:
            char = current[index]
            if quote is not None:
                if quote[0] == "'" and char == "'":
                    if index + 1 < length and current[index + 1] == "'":
                        index += 1
                    else:
                        quote = None
                elif quote[0] == '"' and char == "\\":
                    index += 1
                elif quote[0] == '"' and char == '"':
                    quote = None
                index += 1
                continue
            if char == "#" and (index == 0 or current[index - 1] in " \t"):
                break
            if char in "[{" and (stack or _token_start(current, index, False)):
                stack.append((char, number, index + 1))
            elif char in "]}" and stack:
                stack.pop()
            elif char in "'\"" and _token_start(current, index, bool(stack)):
                quote = (char, number, index + 1)
            elif (
                char in _BLOCK_SCALAR
                and not stack
                and _token_start(current, index, False)
                and not current[index + 1 :].split("#", 1)[0].strip(" +-0123456789")
            ):
                block_indent = _indent(current)
                break
            index += 1
    if quote is not None:
        return quote
    return stack[-1] if stack else None


def _line_text(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""


def _previous_line(text: str, line: int) -> tuple[int, str] | None:
    """The nearest line before ``line`` holding more than blanks and a comment."""
    lines = text.split("\n")
    for number in range(min(line - 1, len(lines)), 0, -1):
        content = lines[number - 1].rstrip("\r")
        stripped = content.strip()
        if stripped and not stripped.startswith("#"):
            return number, content
    return None


def _has_key(content: str) -> bool:
    """Whether a line holds ``key:`` (a colon ending the line or followed by a space) outside quotes."""
    body = content.strip()
    if body.startswith("- "):
        body = body[2:].lstrip()
    quote = ""
    for index, char in enumerate(body):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"" and index == 0:
            quote = char
        elif char == "#" and index > 0 and body[index - 1] == " ":
            return False
        elif char == ":" and (index + 1 == len(body) or body[index + 1] in " \t"):
            return True
    return False


def _spaces(count: int) -> str:
    return f"{count} space{'' if count == 1 else 's'}"


def _unclosed(text: str, line: int, column: int, problem: str) -> str | None:
    """The bracket or quote left open where the text ends, or where a problem it causes was found."""
    lines = text.split("\n")
    rest = "\n".join(lines[line - 1 :])[max(column - 1, 0) :] if line <= len(lines) else ""
    at_end = not rest.strip()
    if not at_end and not any(sign in problem for sign in _UNCLOSED_MIDWAY):
        return None
    opened = open_construct(text, line, column)
    if opened is None:
        return None
    char, opened_line, opened_column = opened
    if char in _QUOTE_NAME:
        what = f"the {_QUOTE_NAME[char]} quote opened on line {opened_line}, column {opened_column}"
        fix = f"end the value with a {_QUOTE_NAME[char]} quote"
        indent = ", or indent the lines a quoted value continues on"
    else:
        what = f"the '{char}' opened on line {opened_line}, column {opened_column}"
        fix = f"close it with '{_CLOSER[char]}'"
        indent = ", or indent the lines it continues on"
    if at_end:
        return f"{what} is never closed: {fix}"
    return f"{what} is not closed before line {line}, column {column}: {fix}" + (
        indent if "must be indented" in problem else ""
    )


def _block_levels(text: str, first: int, last: int, floor: int) -> list[int]:
    """The indentations at or past ``floor`` of the lines ``first``..``last`` holding more than blanks and comments."""
    levels: set[int] = set()
    for content in text.split("\n")[first - 1 : last]:
        stripped = content.strip()
        if stripped and not stripped.startswith("#"):
            own = _indent(content)
            if own >= floor:
                levels.add(own)
                if stripped.startswith("- "):  # a list item's mapping: its keys sit after the dash
                    levels.add(own + 2 + _indent(stripped[2:]))
    return sorted(levels)


def syntax_hint(
    text: str,
    problem: str,
    line: int,
    column: int,
    context: str | None = None,
    context_line: int | None = None,
    context_column: int | None = None,
) -> str | None:
    """The likely cause of a syntax error at ``line``/``column`` (1-based), in words, or None.

    ``context`` and its position are where the construct being read began,
    when the reader says (ruamel.yaml's ``while parsing a block mapping``).
    """
    if "tab" in problem.lower() or "'\\t'" in problem:
        return f"YAML indents with spaces only: replace the tab on line {line} with spaces"
    unclosed = _unclosed(text, line, column, problem)
    if unclosed is not None:
        return unclosed
    if problem.startswith("duplicate mapping key") or "appears twice" in problem:
        return DUPLICATE_KEY_HINT
    if problem.startswith("expected <block end>") and context_line is not None and context_column is not None:
        own = _indent(_line_text(text, line))
        floor = context_column - 1
        levels = _block_levels(text, context_line, line - 1, floor)
        opener = _line_text(text, context_line)[floor:context_column]
        if opener == "-" and own == floor:
            return (
                f"line {line} holds a key where the list that starts on line {context_line} expects "
                "'- ' items: indent it like the keys of the mapping that holds the list, or make it an item"
            )
        shown = " or ".join(str(level) for level in levels)
        return (
            f"line {line} is indented {_spaces(own)}, which lines up with nothing in the block that "
            f"starts on line {context_line} (indented {shown}): indent it like the lines it belongs with"
        )
    if problem.startswith("could not find expected ':'"):
        where = context_line if context_line is not None else line
        return f"line {where} has no ':' after its key: write 'key: value' (or start a list item with '- ')"
    if problem.startswith("mapping values are not allowed"):
        content = _line_text(text, line)
        if _has_key(content[: max(column - 1, 0)]):
            return (
                f"line {line} has a second ': ' inside one value: quote the value if the colon belongs to it, "
                "or put the nested mapping on lines of its own"
            )
        previous = _previous_line(text, line)
        if previous is not None:
            number, before = previous
            if not _has_key(before) and not before.strip().startswith("- "):
                return (
                    f"line {number} has no ':' after its key, so it runs into line {line}: write 'key: value'"
                )
            if _indent(content) > _indent(before):
                return (
                    f"line {line} is indented deeper than line {number}, whose value is already given: "
                    f"indent it like line {number}, or move that value under its key"
                )
        return None
    if problem.startswith(("Invalid control character", "Unterminated string")):
        return "a JSON string ends on the line it starts: close its quote, and write a line break as \\n"
    if problem.startswith("Expecting property name"):
        return "JSON keys are double-quoted strings, and a ',' may not follow the last item"
    if problem.startswith("Extra data"):
        return "the text goes on after the JSON value ends: one value per file"
    return None


def placed_syntax_error(error: AgentGraphError, display: str) -> AgentGraphError:
    """``error`` (a parse error carrying its position) as ``file:line:column: …``, the file named ``display``.

    Errors without a position, and other errors, come back unchanged.
    """
    for diagnostic in error.diagnostics:
        detail: Any = diagnostic.detail
        if (
            isinstance(detail, dict)
            and isinstance(detail.get("line"), int)
            and isinstance(detail.get("column"), int)
            and isinstance(detail.get("problem"), str)
        ):
            language = detail.get("language", "YAML")
            hint = detail.get("hint")
            message = (
                f"{display}:{detail['line']}:{detail['column']}: invalid {language}: {detail['problem']}"
            )
            if isinstance(hint, str):
                message += f"; {hint}"
            placed = Diagnostic(error.code, "error", message, path=diagnostic.path, detail=detail)
            return AgentGraphError(error.code, message, (placed,))
    return error
