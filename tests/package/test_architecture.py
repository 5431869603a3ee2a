"""The architecture, checked: layers, a core without I/O, no import cycles, one table of public names.

The same rules run as import-linter contracts (``lint-imports``, configured in
pyproject.toml); these tests keep them in the plain test suite too and add what
import-linter does not check: calls such as ``open()`` in the core, imports
inside functions, and the agreement of ``__all__`` with the type checkers' view.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import agent_graph

PACKAGE = Path(agent_graph.__file__).resolve().parent
#: Lowest first; a layer may import itself and the layers before it.
LAYERS = ("_core", "_syntax", "_load", "_runtime", "_toolchain", "_mcp", "_cli")
#: Standard-library modules the core may not import: no I/O, no clock, no environment, no processes.
CORE_BANNED_MODULES = frozenset(
    {
        "os",
        "io",
        "sys",
        "subprocess",
        "time",
        "datetime",
        "threading",
        "socket",
        "tempfile",
        "shutil",
        "pathlib",
        "glob",
        "signal",
        "multiprocessing",
        "asyncio",
        "gc",
        "random",
        "uuid",
        "importlib",
        "ruamel",
        "fastjsonschema",
        "builtins",
    }
)
#: Built-in calls the core may not make: file and console I/O, and code made at run time.
CORE_BANNED_CALLS = frozenset(
    {"open", "print", "input", "exec", "eval", "compile", "__import__", "breakpoint"}
)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(relative.parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(module: str, path: Path) -> list[tuple[str, int]]:
    """Every module ``module`` imports (at any depth in the file), resolved to absolute names, with lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            for alias in node.names:  # ``from . import x`` may name a submodule
                candidate = f"{target}.{alias.name}"
                if candidate in MODULES:
                    found.append((candidate, node.lineno))
    return found


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "agent_graph" and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def test_the_folder_tree_is_the_layers() -> None:
    flat = sorted(
        m
        for m in MODULES
        if m.count(".") == 1 and m.split(".")[1].startswith("_") and m.split(".")[1] not in LAYERS
    )
    assert flat == ["agent_graph.__main__"], "private modules belong in a layer folder"
    for layer in LAYERS:
        assert f"agent_graph.{layer}" in MODULES


def test_the_tests_mirror_the_layers() -> None:
    """Every test module sits in the folder of a layer (or ``package`` for what spans them all)."""
    tests = PACKAGE.parent / "tests"
    folders = {p.name for p in tests.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == {layer.lstrip("_") for layer in LAYERS} | {"package"}
    assert not sorted(p.name for p in tests.glob("test_*.py")), "a test module belongs in its layer's folder"


def test_the_tests_share_one_fake_clock_and_id_factory() -> None:
    """Fake wall clocks, monotonic clocks and Run ID factories are the ones of ``tests/fakes.py``."""
    tests = PACKAGE.parent / "tests"
    own = []
    for path in sorted(tests.rglob("*.py")):
        if path.name == "fakes.py" or "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Clock", "Monotonic", "Ids")):
                own.append(f"{path.relative_to(tests)}:{node.lineno} {node.name}")
    assert own == [], f"use tests/fakes.py (FakeClock, FakeMonotonic, Ids) instead of: {own}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) is not None))
def test_a_layer_imports_only_the_layers_below_it(module: str) -> None:
    own = _layer(module)
    assert own is not None
    for target, line in _imports(module, MODULES[module]):
        if target == "agent_graph" or target.startswith("agent_graph."):
            other = _layer(target)
            assert other is not None and other <= own, (
                f"{module} (line {line}) imports {target}: a layer imports only itself and the layers below it"
            )


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("agent_graph._core")))
def test_the_core_does_no_io(module: str) -> None:
    path = MODULES[module]
    for target, line in _imports(module, path):
        top = target.split(".")[0]
        assert top not in CORE_BANNED_MODULES, (
            f"{module} (line {line}) imports {target}: the core does no I/O"
        )
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in CORE_BANNED_CALLS, (
                f"{module} (line {node.lineno}) calls {node.func.id}()"
            )
        if isinstance(node, ast.Global):
            pytest.fail(
                f"{module} (line {node.lineno}) rebinds a module global: caches belong to their owner"
            )


def test_the_core_check_catches_a_banned_import(tmp_path: Path) -> None:
    """The checks above would fail on a core module that reads a file or the clock."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import time\n\ndef f():\n    from os import path\n    return open(path.sep)\n", encoding="utf-8"
    )
    imported = {target for target, _ in _imports("agent_graph._core.bad", bad)}
    assert {"time", "os"} <= imported
    calls = {
        n.func.id
        for n in ast.walk(ast.parse(bad.read_text()))
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert "open" in calls & CORE_BANNED_CALLS


def test_there_are_no_import_cycles() -> None:
    graph = {
        module: sorted(
            {t for t, _ in _imports(module, path) if t in MODULES and t != module and t != "agent_graph"}
        )
        for module, path in MODULES.items()
    }
    # Tarjan's strongly connected components, iteratively.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = graph[node]
            if position < len(children):
                work.append((node, position + 1))
                child = children[position]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    assert cycles == [], f"import cycles: {cycles}"


def test_public_names_are_listed_once_and_agree_with_the_type_checkers_view() -> None:
    from agent_graph._toolchain import publicnames

    source = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                for alias in statement.names:
                    assert alias.asname == alias.name, f"{alias.name} must be re-exported as itself"
                    assert alias.name not in typed, f"{alias.name} is re-exported twice"
                    typed[alias.name] = statement.module or ""
    exports = agent_graph._EXPORTS
    deprecated = {name: module for name, (module, _) in agent_graph._DEPRECATED.items()}
    submodules = {name: "" for name in agent_graph._SUBMODULES}
    assert typed == {**exports, **deprecated, **submodules}
    assert not set(exports) & set(deprecated) and not set(submodules) & (set(exports) | set(deprecated))
    assert publicnames.tables(source) == (exports, agent_graph._DEPRECATED, agent_graph._SUBMODULES)
    assert publicnames.rewritten(source) == source, "run python -m agent_graph._toolchain.publicnames"
    current = sorted(
        name for name, module in exports.items() if not module.startswith(("types", "toolchain", "testing"))
    )
    assert sorted(agent_graph.__all__) == sorted(["PROTOCOL_VERSION", "__version__", *submodules, *current])
    assert len(agent_graph.__all__) <= 70  # the everyday API and its public modules
    for name in agent_graph.__all__:
        assert getattr(agent_graph, name) is not None
    for name, module in exports.items():  # a moved name is where its table entry says
        if not module.startswith("_"):
            assert module in submodules and name in importlib.import_module(f"agent_graph.{module}").__all__


def test_the_public_names_check_finds_a_stale_block_and_rewrites_it(tmp_path: Path) -> None:
    from agent_graph._toolchain import publicnames

    source = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    target = tmp_path / "__init__.py"
    target.write_text(source.replace("        evaluate as evaluate,\n", ""), encoding="utf-8")
    assert publicnames.main(["--check", "--path", str(target)]) == 1
    assert publicnames.main(["--path", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == source
    assert publicnames.main(["--check"]) == 0
    added = source.replace(
        '    "evaluate": "_runtime.observed",\n',
        '    "evaluate": "_runtime.observed",\n    "Edge": "types",\n',
    )
    target.write_text(added, encoding="utf-8")
    assert publicnames.main(["--check", "--path", str(target)]) == 1
    assert publicnames.main(["--path", str(target)]) == 0
    assert "        Edge as Edge,\n" in target.read_text(encoding="utf-8")


def test_one_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``__version__``, the installed metadata and ``--version`` come from one place; ranges check the protocol's."""
    import importlib.metadata
    import re

    from agent_graph._cli.main import main
    from agent_graph._core.semver import TOOLCHAIN_VERSION
    from agent_graph._core.version import PROTOCOL_VERSION, __version__

    pyproject = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic = \["version"\]$', pyproject, re.M)
    assert 'path = "agent_graph/_core/version.py"' in pyproject
    assert not re.search(r"^version = ", pyproject, re.M)
    assert agent_graph.__version__ == __version__
    assert TOOLCHAIN_VERSION == PROTOCOL_VERSION == agent_graph.PROTOCOL_VERSION
    assert importlib.metadata.version("agent-graph") == __version__
    try:
        status = main(["--version"])
    except SystemExit as stop:
        status = stop.code  # type: ignore[assignment]
    assert status in (0, None)
    assert __version__ in capsys.readouterr().out


def test_the_protocol_version_is_written_once() -> None:
    """Only ``_core/version.py`` holds the version as a literal; the help text takes it from there."""
    from agent_graph._cli.parser import build_parser
    from agent_graph._core.version import PROTOCOL_VERSION

    holders = sorted(
        {
            module
            for module, path in MODULES.items()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and node.value == PROTOCOL_VERSION
        }
    )
    assert holders == ["agent_graph._core.version"]
    assert f"(protocol {PROTOCOL_VERSION})" in (build_parser().description or "")


def test_the_command_modules_are_imported_plainly() -> None:
    """No command is loaded through importlib: a broken command module fails loudly instead of vanishing."""
    from agent_graph._cli import lint, mcp, parser, provider, replay, runtime, toolchain, verify

    for module, path in MODULES.items():
        if not module.startswith("agent_graph._cli"):
            continue
        text = path.read_text(encoding="utf-8")
        assert "import_module" not in text and "__import__(" not in text, module
    assert (provider, runtime, toolchain, mcp, lint, replay, verify) == parser.COMMAND_MODULES
    for module in parser.COMMAND_MODULES:
        imported = {target for target, _ in _imports(module.__name__, MODULES[module.__name__])}
        assert not imported & {"agent_graph._cli.main", "agent_graph._cli.parser"}, module.__name__


def test_the_docs_name_the_layers_the_contracts_check() -> None:
    """docs/architecture.md, CONTRIBUTING.md and README.md count and name the layers import-linter checks."""
    import re

    pyproject = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")  # (tomllib: 3.11 and later)
    listed = re.search(r'type = "layers"\nlayers = \[(.*?)\]', pyproject, re.S)
    assert listed is not None
    layers = [
        layer.removeprefix("agent_graph.") for layer in reversed(re.findall(r'"([^"]+)"', listed.group(1)))
    ]
    private = [layer for layer in layers if layer.startswith("_")]
    assert tuple(private) == LAYERS
    words = {6: "six", 7: "seven", 8: "eight"}
    for name in ("docs/architecture.md", "CONTRIBUTING.md", "README.md"):
        text = (PACKAGE.parent / name).read_text(encoding="utf-8")
        assert f"{words[len(LAYERS)]} layers" in text, name
        assert not re.search(r"\b(six|eight) layers\b", text), name
        for layer in LAYERS:
            assert f"`{layer}`" in text, (name, layer)
