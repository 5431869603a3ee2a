"""The one iterative JSON writer: any depth, no recursion, the caller's rules for strings, numbers and keys.

Three texts are written with it: the protocol's canonical JSON
(:mod:`agent_graph._core.canonical`, for trees too deep for msgspec or with lone
surrogates), plain JSON text (:func:`agent_graph._core.plain.json_text`,
key order kept, optionally indented) and the schema validator's equality key
(sorted keys, ``1`` equal to ``1.0``). Each passes how it writes a string and
a number, the order of an object's entries and what to do with any other
value; the walk itself — an explicit stack of values and :class:`Text`
tokens — is written once, here. This module knows nothing of the protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Text", "write_json"]


class Text(str):
    """Literal output on the writer's stack, as opposed to a value still to write.

    A ``convert`` function returns one to have its text written as it is.
    """

    __slots__ = ()


def _in_order(entries: dict[Any, Any]) -> list[tuple[Any, Any]]:
    return list(dict.items(entries))


def _refuse(value: Any) -> Any:
    raise TypeError(f"JSON data only, not {type(value).__name__}")


def write_json(
    value: Any,
    *,
    string: Callable[[str], str],
    number: Callable[[Any], str],
    entries: Callable[[dict[Any, Any]], list[tuple[Any, Any]]] = _in_order,
    convert: Callable[[Any], Any] = _refuse,
    indent: int | None = None,
) -> str:
    """The JSON text of ``value``, written without recursion.

    ``string`` writes a string literal (keys too, after ``str()``); ``number``
    an ``int`` or ``float`` (never a ``bool``); ``entries`` gives an object's
    ``(key, value)`` pairs in the order to write them (default: as they are);
    ``convert`` turns any other value into a :class:`Text` to write as it is
    or a JSON value to write instead (default: ``TypeError``). ``indent``
    gives pretty output (``": "`` after keys); ``None`` is compact.
    """
    out: list[str] = []
    append = out.append
    colon = ":" if indent is None else ": "
    stack: list[tuple[Any, int]] = [(value, 0)]
    push = stack.append
    pop = stack.pop
    while stack:
        item, level = pop()
        if type(item) is Text:
            append(item)
        elif isinstance(item, str):
            append(string(item))
        elif item is None:
            append("null")
        elif item is True:
            append("true")
        elif item is False:
            append("false")
        elif isinstance(item, (int, float)):
            append(number(item))
        elif isinstance(item, (dict, list, tuple)):
            is_object = isinstance(item, dict)
            children: Sequence[Any] = entries(item) if isinstance(item, dict) else item
            brackets = "{}" if is_object else "[]"
            if not children:
                append(brackets)
                continue
            append(brackets[0])
            pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
            push((Text(("" if indent is None else "\n" + " " * (indent * level)) + brackets[1]), 0))
            for index in range(len(children) - 1, -1, -1):
                if is_object:
                    key, child = children[index]
                    push((child, level + 1))
                    push((Text(("," if index else "") + pad + string(str(key)) + colon), 0))
                else:
                    push((children[index], level + 1))
                    push((Text(("," if index else "") + pad), 0))
        else:
            push((convert(item), level))
    return "".join(out)
