"""Ahead-of-time generation of the schema validators (``agent_graph/_syntax/validators.py``).

``python -m agent_graph._toolchain.schemagen`` compiles every ``schemas/<name>.schema.json`` of the
repository's top-level folder (the one source of the shipped schemas) with ``fastjsonschema.compile_to_code`` into one checked-in module, so that no
schema is compiled when the library is imported or run; ``--check`` exits with
status 1 when that module no longer matches the schemas.

The pieces come from :mod:`agent_graph._syntax.compile`; assembling them, this module:

* renames each schema's entry point to ``validate_<name>`` (``-`` → ``_``) and its
  helpers to private names unique to that schema, and lists them in ``VALIDATORS``;
* rebuilds the compiled ``pattern`` / ``patternProperties`` regular expressions
  with :func:`agent_graph._syntax.schema.ecma_regex`, because JSON Schema patterns are
  ECMAScript (``$`` matches only at the very end) and Python's ``$`` also matches
  before a final newline;
* turns off ``default`` injection, so validating never changes the value;
* writes the names of array items and object members that it passes down for
  messages (``"...[{i}]".format(**locals())``) as f-strings, which cost a
  fraction of building a dictionary of every local variable per item.

It is a build-time tool: nothing imports it at run time.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from .._syntax.compile import (
    HEADER_SHIPPED,
    GenerationError,
    fastjsonschema_code,
    load_generated,
    patterns_block,
    python_source,
    rename,
    split,
)
from .._syntax.schema import SCHEMA_NAMES

__all__ = ["check", "generate_module", "main"]

# Bump when the shape of the generated module changes without any schema changing.
GENERATOR_FORMAT = "3"


#: The one source of the shipped schemas: the checkout's top-level folder (a wheel maps it into the package).
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def _schema_file(name: str) -> Path:
    return SCHEMAS / f"{name}.schema.json"


def _identifier(name: str) -> str:
    return name.replace("-", "_")


def schemas_digest() -> str:
    """Digest of every shipped schema file and of the generator format."""
    digest = hashlib.sha256(f"agent-graph schemagen {GENERATOR_FORMAT}\0".encode())
    for name in SCHEMA_NAMES:
        digest.update(name.encode() + b"\0" + _schema_file(name).read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()


def _fastjsonschema_version() -> str:
    import fastjsonschema

    return str(fastjsonschema.VERSION)


def _require_exact_constants() -> None:
    """Refuse a fastjsonschema release whose ``const``/``enum`` checks take ``1`` for ``true``.

    (Older releases compare with ``==``; the route schema's ``const: true`` would then
    accept ``1``.)
    """
    check = load_generated(python_source({"const": True}), "<probe>")
    try:
        check(1)
    except Exception:
        return
    raise GenerationError(
        f"fastjsonschema {_fastjsonschema_version()} treats 1 as equal to true in const checks; "
        "generate with fastjsonschema 2.22 or later"
    )


def generate_module() -> str:
    """The text of ``agent_graph/_syntax/validators.py`` for the current schema files."""
    import json

    _require_exact_constants()

    patterns: dict[str, str] = {}
    sections: list[str] = []
    for name in SCHEMA_NAMES:
        schema = json.loads(_schema_file(name).read_text(encoding="utf-8"))
        piece = split(fastjsonschema_code(schema, {}), schema)
        for key, source in piece.patterns.items():
            if patterns.setdefault(key, source) != source:
                raise GenerationError(f"pattern {key!r} compiled two different ways")
        ident = _identifier(name)
        entry = piece.functions[0]
        renames = {entry: f"validate_{ident}"}
        for index, helper in enumerate(piece.functions[1:]):
            suffix = helper[len(entry) :] if helper.startswith(entry) else f"__ref{index}"
            renames[helper] = f"_{ident}{suffix}"
        sections.append(f"# {'-' * 70} {name}.schema.json\n\n" + rename(piece.body, renames))
    table = "".join(f"    {name!r}: validate_{_identifier(name)},\n" for name in SCHEMA_NAMES)
    return (
        '"""Schema validators generated from ``schemas/*.schema.json`` by ``python -m agent_graph._toolchain.schemagen``.\n'
        "\n"
        "Do not edit: change a schema, then regenerate (``--check`` reports a stale module).\n"
        '"""\n'
        "\n"
        f"GENERATED_WITH = {'fastjsonschema ' + _fastjsonschema_version()!r}\n"
        f"SCHEMAS_DIGEST = {schemas_digest()!r}\n"
        "\n" + HEADER_SHIPPED + "\n" + patterns_block(patterns) + "\n\n" + "\n\n".join(sections) + "\n\n"
        "VALIDATORS = {\n" + table + "}\n"
    )


def _target() -> Path:
    return Path(__file__).resolve().parents[1] / "_syntax" / "validators.py"


def _recorded(text: str, name: str) -> str | None:
    match = re.search(rf"^{name} = '([^']*)'$", text, re.MULTILINE)
    return match.group(1) if match else None


def check() -> tuple[bool, str]:
    """Whether the checked-in module matches the schemas, with a one-line explanation.

    With the fastjsonschema release that generated the module installed, the
    whole text is compared; with another release only the recorded schema digest
    can be (the generated code differs between releases).
    """
    target = _target()
    if not target.is_file():
        return False, f"{target} is missing; run python -m agent_graph._toolchain.schemagen"
    current = target.read_text(encoding="utf-8")
    installed = "fastjsonschema " + _fastjsonschema_version()
    recorded = _recorded(current, "GENERATED_WITH")
    if recorded != installed:
        if _recorded(current, "SCHEMAS_DIGEST") == schemas_digest():
            return True, (
                f"{target.name} matches the schemas (generated with {recorded}, installed {installed}: "
                "code not compared)"
            )
        return False, f"{target.name} is stale; run python -m agent_graph._toolchain.schemagen"
    if current == generate_module():
        return True, f"{target.name} is up to date"
    return False, f"{target.name} is stale; run python -m agent_graph._toolchain.schemagen"


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the module, or with ``--check`` report whether it is stale."""
    parser = argparse.ArgumentParser(
        prog="python -m agent_graph._toolchain.schemagen", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if agent_graph/_syntax/validators.py is stale"
    )
    args = parser.parse_args(argv)
    if args.check:
        ok, message = check()
        print(message, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    target = _target()
    text = generate_module()
    from .._load.atomic import write_bytes_atomic

    write_bytes_atomic(str(target), text.encode("utf-8"))
    print(f"wrote {target} ({len(text)} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
