"""docs/errors.md, generated from the one registry of error codes (``ErrorCode`` in ``_core/errors.py``).

``python -m agent_graph._toolchain.errordoc`` writes the table; ``--check``
exits 1 when docs/errors.md differs (CI and a test run it), so the document
cannot drift from the code. Each row is a code of
:data:`agent_graph._core.errors.ErrorCode` and the layers whose modules raise it,
found by reading the package's own source (a call of ``AgentGraphError``, or a
parameter, table or variable holding a code). :func:`raised_codes` is also what
the test uses to check that every code raised is in the registry.
"""

from __future__ import annotations

import argparse
import ast
import re
import typing
from collections.abc import Sequence
from pathlib import Path

from .._core.errors import FAMILIES, ErrorCode, family_of
from .generated import write_or_check

__all__ = ["document", "raised_codes", "registered_codes"]

_PACKAGE = Path(__file__).resolve().parents[1]
#: The layers, as docs/architecture.md names them (a module's layer changes less often than the module).
_LAYERS = {
    "_core": "core",
    "_syntax": "syntax",
    "_load": "load",
    "_runtime": "runtime",
    "_toolchain": "toolchain",
    "_mcp": "MCP server",
    "_cli": "command line",
    "pytest_plugin": "pytest plugin",
    "__init__": "public API",
    "types": "public API",
}
_CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_HEADER = """# Error codes

Every failure of agent-graph is an `AgentGraphError` with one of the codes
below; the command line prints it in the `agent-graph.error.v1` envelope, exit
status 1. Hosts branch on the code, never on the message. The codes are one
`Literal` type, `agent_graph._core.errors.ErrorCode`, which `AgentGraphError`'s
`code` is typed with, so a type checker refuses a misspelt code. Each is listed
with its family and the layers that raise it (see [architecture.md](architecture.md)).

This page is generated from that type, the table of families and the package's
source by `python -m agent_graph._toolchain.errordoc`; a test fails when it is
stale. Adding a code is adding its line to `ErrorCode` (and to its family in
`FAMILIES`, the same module) and running the command.

## Families

Each code belongs to at most one family, a subclass of `AgentGraphError` that a
host catches instead of comparing codes; the code stays the contract (`.code`,
the envelope on the wire). An error of a family is still an `AgentGraphError`.
Every family is importable from `agent_graph` and `agent_graph.errors`:

```python
import tempfile

import agent_graph as ag

provider = ag.load_provider("examples/weekly-report/provider.yaml")
store = ag.open_store(f"sqlite:///{tempfile.mkdtemp()}/runs.db")
run = store.start(None, provider, "report", workspace=".")
step = store.next_step(run.id, provider)
assert step.route is not None
node = step.route.after_action.record_node
store.record(run.id, node, "completed", provider=provider, revision=step.revision)
try:  # the same revision again: the Run moved on since this step was read
    store.record(run.id, node, "completed", provider=provider, revision=step.revision)
except ag.RevisionStale as error:
    print(f"{type(error).__name__}: {error.code}")  # read the next step again and decide again
store.close()
```

"""


def registered_codes() -> tuple[str, ...]:
    """The codes of ``ErrorCode``, in their registry order."""
    return tuple(typing.get_args(ErrorCode))


def _module_name(path: Path) -> str:
    return ".".join(("agent_graph", *path.relative_to(_PACKAGE).with_suffix("").parts))


def _codes_in(node: ast.AST) -> set[str]:
    """The strings in ``node`` that look like codes: words joined by hyphens (or one word the registry has)."""
    registered = set(registered_codes())
    return {
        item.value
        for item in ast.walk(node)
        if isinstance(item, ast.Constant)
        and isinstance(item.value, str)
        and _CODE.match(item.value)
        and ("-" in item.value or item.value in registered)
    }


def raised_codes() -> dict[str, set[str]]:
    """Code → the modules whose source raises it: in ``AgentGraphError(…)``, handed to a helper, or held by a
    parameter, table or variable named ``*code*``."""
    found: dict[str, set[str]] = {}
    for path in sorted(_PACKAGE.rglob("*.py")):
        if path.name == "validators.py":  # generated schema validators: no AgentGraphError of their own
            continue
        module = _module_name(path)
        codes: set[str] = set()
        registered = set(registered_codes())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call):
                function = node.func
                name = getattr(function, "id", None) or getattr(function, "attr", None)
                if name == "AgentGraphError" and node.args:
                    codes |= _codes_in(node.args[0])
                else:  # a registered code handed to a helper that raises it (``ensure_absent(…, "x-exists")``)
                    for value in node.args:
                        if isinstance(value, ast.Constant) and value.value in registered:
                            codes.add(value.value)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                arguments = node.args
                positional = arguments.args[len(arguments.args) - len(arguments.defaults) :]
                pairs = [
                    *zip(positional, arguments.defaults, strict=True),
                    *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
                ]
                for parameter, default in pairs:
                    if default is not None and ("code" in parameter.arg or parameter.arg == "too_deep"):
                        codes |= _codes_in(default)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(
                    isinstance(target, ast.Name)
                    and "code" in target.id.lower()
                    and not target.id.endswith("Code")
                    for target in targets
                ):
                    codes |= _codes_in(node.value) & set(registered_codes())
        for code in codes:
            found.setdefault(code, set()).add(module)
    return found


def _families() -> str:
    """The section on families: each with what it means and how many codes it holds."""
    lines = ["| Family | Codes | What it means |\n", "| --- | --- | --- |\n"]
    for family, members in FAMILIES.items():
        meaning = " ".join((family.__doc__ or "").split()).replace("``", "`")
        lines.append(f"| `{family.__name__}` | {len(members)} | {meaning} |\n")
    return "".join(lines)


def document() -> str:
    """The text of docs/errors.md."""
    raised = raised_codes()
    rows = []
    for code in sorted(registered_codes()):
        layers = sorted(
            {_LAYERS.get(module.split(".")[1], module.split(".")[1]) for module in raised.get(code, ())}
        )
        family = family_of(code).__name__
        shown = f"`{family}`" if family != "AgentGraphError" else "—"
        rows.append(f"| `{code}` | {shown} | {', '.join(layers)} |\n")
    table = "\n## Codes\n\n| Code | Family | Raised by the layers |\n| --- | --- | --- |\n"
    return _HEADER + _families() + table + "".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Write docs/errors.md, or with ``--check`` report whether it is stale."""
    parser = argparse.ArgumentParser(prog="python -m agent_graph._toolchain.errordoc")
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/errors.md is stale")
    parser.add_argument("--path", default=str(_PACKAGE.parent / "docs" / "errors.md"))
    args = parser.parse_args(argv)
    written = f"{len(registered_codes())} codes"
    return write_or_check(Path(args.path), document(), check=args.check, command=parser.prog, written=written)


if __name__ == "__main__":
    raise SystemExit(main())
