"""The adversarial corpus: every hostile input ends in its own error code, without hanging, and changes nothing.

Each case runs through the library API and through the command line
(``agent_graph._cli.main`` in process, a few as real ``python -m agent_graph``
processes). A refusal must be one ``agent-graph.error.v1`` envelope on stderr
with exit status 1, nothing on stdout, no traceback, an answer (a generous
SIGALRM guard turns a hang into a failure; speed is measured in benchmarks/,
never here), and the same directory
tree before and after (sizes, times, contents and link targets).

Inputs: the small files of ``tests/adversarial/`` (alias bombs, duplicate
keys, NUL bytes, invalid UTF-8, …), and, generated in ``tmp_path``: 20,000-deep
nesting, 64 MiB sparse files, FIFOs and devices where files are expected,
symbolic links out of the root for every kind of reference, ``..`` and absolute
paths in every reference field, 10,000-character IDs, huge numbers, corrupt
Runs, tampered bundles, receipts of another Provider and bad arguments. Every
limit of :class:`agent_graph.Limits` is tested at its edge and raised.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._cli.main import main
from agent_graph._core.canonical import digest_value
from agent_graph._runtime.runs import FileRunStore
from tests import load_fixtures, providers
from tests.in_process import chdir, run_cli, within
from tests.load_fixtures import base_documents, render, write_tree
from tests.paths import REPO
from tests.strategies import deep_value

CORPUS = Path(__file__).resolve().parents[1] / "adversarial"
CORPUS_CASES: dict[str, str] = json.loads((CORPUS / "cases.json").read_text())["cases"]
SECONDS = 60.0  # a hang guard: an answer later than this is a hang, whatever the machine's load
DEEP = 20_000
BIG = 64 * 1024 * 1024
POSIX = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not hasattr(signal, "setitimer"), reason="needs POSIX"
)


# ---------------------------------------------------------------- harness


def snapshot(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry below ``root``: kind, size, modification time and content digest or link target."""
    entries: dict[str, tuple[Any, ...]] = {}
    for directory, directories, files in os.walk(root):
        for name in directories + files:
            path = os.path.join(directory, name)
            info = os.lstat(path)
            detail: Any = None
            if stat.S_ISLNK(info.st_mode):
                detail = os.readlink(path)
            elif stat.S_ISREG(info.st_mode) and info.st_size <= 1 << 20:
                detail = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            entries[os.path.relpath(path, root)] = (
                stat.S_IFMT(info.st_mode),
                info.st_size,
                info.st_mtime_ns,
                detail,
            )
    return entries


@dataclass
class Answer:
    status: int
    out: str
    err: str
    seconds: float

    def envelope(self) -> dict[str, Any]:
        assert self.err.endswith("\n")
        lines = self.err.split("\n")[:-1]  # not splitlines(): JSON may hold U+0085 or U+2028 raw
        assert len(lines) == 1, self.err
        envelope: dict[str, Any] = json.loads(lines[0])
        assert envelope["schema"] == "agent-graph.error.v1" and envelope["state"] == "error"
        return envelope

    @property
    def code(self) -> str:
        code: str = self.envelope()["error"]["code"]
        return code


def cli(arguments: list[str], cwd: Path) -> Answer:
    """Run the command line in process, in ``cwd``, with ``--format json``."""
    started = time.monotonic()
    with within(SECONDS * 2):
        status, out, err = run_cli(arguments, cwd)
    return Answer(status, out, err, time.monotonic() - started)


def refused(arguments: list[str], cwd: Path, code: str, watch: Path | None = None) -> Answer:
    """The command line refuses with ``code``: one envelope, exit 1, quickly, nothing changed."""
    watched = watch or cwd
    before = snapshot(watched)
    answer = cli(arguments, cwd)
    assert answer.status == 1, (answer.out, answer.err)
    assert answer.out == ""
    assert "Traceback" not in answer.err
    assert answer.code == code, answer.err
    assert answer.seconds < SECONDS
    assert snapshot(watched) == before
    return answer


def raises(code: str, action: Callable[[], Any]) -> ag.AgentGraphError:
    """The API raises AgentGraphError ``code`` quickly."""
    started = time.monotonic()
    with within(SECONDS * 2), pytest.raises(ag.AgentGraphError) as caught:
        action()
    assert caught.value.code == code, caught.value
    assert time.monotonic() - started < SECONDS
    return caught.value


def sparse(path: Path, size: int = BIG) -> None:
    """A file of ``size`` bytes that takes no space (zeros)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.truncate(size)


def replace_with_fifo(path: Path) -> None:
    if path.exists():
        path.unlink()
    os.mkfifo(path)


def replace_with_link(path: Path, target: str | Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A valid Provider on disk (every kind of file) at ``tmp_path/p``."""
    directory = tmp_path / "p"
    write_tree(directory, base_documents())
    return directory


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A copy of the same files outside the Provider root, for links to point at."""
    directory = tmp_path / "outside"
    write_tree(directory, base_documents())
    return directory


def refused_everywhere(root: Path, code: str) -> None:
    """Loading the Provider at ``root`` fails with ``code`` from the API and from validate, evaluate and route."""
    raises(code, lambda: ag.load_provider(str(root / "provider.yaml")))
    watch = root.parent
    for command in (["validate"], ["evaluate", "main"], ["route", "main"], ["inspect", "provider"]):
        refused(command, root, code, watch)


def test_the_untouched_provider_loads_everywhere(root: Path) -> None:
    ag.load_provider(str(root / "provider.yaml"))
    for command in (["validate"], ["evaluate", "main"], ["route", "main"], ["inspect", "provider"]):
        answer = cli(command, root)
        assert answer.status == 0 and answer.err == "", answer.err


# ---------------------------------------------------------------- the corpus files


@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_file_as_a_manifest(name: str, tmp_path: Path) -> None:
    path = CORPUS / name
    code = CORPUS_CASES[name]
    raises(code, lambda: ag.load_provider(str(path)))
    refused(["validate", "--manifest", str(path)], tmp_path, code)


@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_file_inside_a_provider(name: str, root: Path) -> None:
    target = "schemas/report-in.schema.json" if name.endswith(".json") else "graphs/main.yaml"
    (root / target).write_bytes((CORPUS / name).read_bytes())
    refused_everywhere(root, CORPUS_CASES[name])


@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_file_as_facts(name: str, root: Path) -> None:
    from agent_graph._syntax.parse import parse_structured

    code = CORPUS_CASES[name]
    if code == "schema-invalid":  # it parses: facts need an object, anything else is refused
        if isinstance(parse_structured((CORPUS / name).read_bytes(), name), dict):
            assert cli(["evaluate", "main", "--facts", f"@{CORPUS / name}"], root).status == 0
            return
        code = "json-object-required"
    refused(["evaluate", "main", "--facts", f"@{CORPUS / name}"], root, code, root.parent)


def test_the_corpus_lists_every_file() -> None:
    on_disk = {p.name for p in CORPUS.iterdir()} - {"cases.json", "README.md"}
    assert on_disk == set(CORPUS_CASES)
    assert all(p.stat().st_size < 8192 for p in CORPUS.iterdir())


# ---------------------------------------------------------------- deep nesting


DEEP_TEXTS = {
    "flow-sequences": "[" * DEEP + "]" * DEEP,
    "flow-mappings": "{a: " * DEEP + "1" + "}" * DEEP,
    "block-sequences": "- " * DEEP + "x\n",
    "json-text-in-yaml": '{"a":' * DEEP + "1" + "}" * DEEP,
    "unclosed": "[" * DEEP,
    "anchored": "a: &x " + "[" * DEEP + "]" * DEEP + "\nb: *x\n",
}


@pytest.mark.parametrize("kind", sorted(DEEP_TEXTS))
def test_twenty_thousand_levels_in_a_graph(kind: str, root: Path) -> None:
    (root / "graphs/main.yaml").write_text(DEEP_TEXTS[kind])
    refused_everywhere(root, "parse-failed")


def test_twenty_thousand_levels_in_a_json_file(root: Path) -> None:
    (root / "schemas/report-in.schema.json").write_text('{"a":' * DEEP + "1" + "}" * DEEP)
    refused_everywhere(root, "parse-failed")
    (root / "schemas/report-in.schema.json").write_text("[" * DEEP + "]" * DEEP)
    refused_everywhere(root, "parse-failed")


def test_twenty_thousand_levels_in_front_matter(root: Path) -> None:
    (root / "resources/policy.md").write_text("---\nid: " + "[" * DEEP + "]" * DEEP + "\n---\nBody.\n")
    refused_everywhere(root, "frontmatter-invalid")


def test_twenty_thousand_levels_in_facts(root: Path) -> None:
    deep = '{"a":' * DEEP + "1" + "}" * DEEP
    refused(["evaluate", "main", "--facts", deep], root, "json-invalid", root.parent)
    refused(["evaluate", "main", "--facts", "[" * DEEP + "]" * DEEP], root, "json-invalid", root.parent)
    refused(["route", "main", "--facts", deep], root, "json-invalid", root.parent)
    (root.parent / "deep.json").write_text(deep)
    refused(
        ["evaluate", "main", "--facts", f"@{root.parent / 'deep.json'}"], root, "parse-failed", root.parent
    )
    (root.parent / "deep.yaml").write_text(DEEP_TEXTS["block-sequences"])
    refused(
        ["evaluate", "main", "--facts", f"@{root.parent / 'deep.yaml'}"], root, "parse-failed", root.parent
    )


@pytest.mark.slow
def test_twenty_thousand_levels_of_facts_from_the_api() -> None:
    provider = load_fixtures.load(base_documents())
    for kind in ("dict", "list"):
        facts = {"build": deep_value(DEEP, kind)}
        with within(SECONDS * 2):
            first = ag.evaluate(provider, "main", facts=facts)
            again = ag.evaluate(provider, "main", facts={"build": deep_value(DEEP, kind)})
        assert first.revision == again.revision
        route = ag.route(provider, "main", facts=facts, revision=first.revision, workspace="/w")
        assert route.revision == first.revision
    deeper = {"a": deep_value(200_000)}
    with within(SECONDS * 2):
        ag.evaluate(provider, "main", facts=deeper)


def test_a_cyclic_fact_value_is_json_invalid() -> None:
    provider = load_fixtures.load(base_documents())
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    raises("json-invalid", lambda: ag.evaluate(provider, "main", facts={"a": cyclic}))


def test_a_chain_of_seven_hundred_subgraphs_evaluates_and_routes() -> None:
    depth = 700
    graphs = [
        providers.graph_doc(
            f"g{i}",
            [providers.subgraph_node("s", f"g{i + 1}"), providers.terminal_node("t")],
            [providers.edge("s", "t")],
        )
        for i in range(depth - 1)
    ]
    graphs.append(providers.chain(f"g{depth - 1}", 2))
    provider = providers.build(*graphs)
    with within(SECONDS * 2):
        evaluation = ag.evaluate(provider, "g0")
    assert evaluation.primary_route is not None and evaluation.primary_route.graph == f"g{depth - 1}"
    route = ag.route(provider, "g0", revision=evaluation.revision, workspace="/w")
    assert len(route.call_path) == depth - 1
    done = ag.evaluate(provider, "g0", outcomes={route.after_action.record_node: "completed"})
    assert (done.status_code, done.outcome) == ("complete", "completed")


# ---------------------------------------------------------------- sizes


SIZED = [
    "provider.yaml",
    "graphs/main.yaml",
    "actions/build.yaml",
    "scripts/run.sh",
    "scripts/lib.sh",
    "schemas/in.schema.json",
    "schemas/report-in.schema.json",
    "skills/writer/SKILL.md",
    "skills/writer/style.md",
    "resources/procedure.md",
    "resources/data.yaml",
    "resources/data.schema.json",
    "resources/view.yaml",
    "codes.yaml",
]


@pytest.mark.parametrize("relative", SIZED)
def test_a_64_mib_file_is_file_too_large(relative: str, root: Path) -> None:
    sparse(root / relative)
    refused_everywhere(root, "file-too-large")


def test_a_64_mib_file_anywhere_else(root: Path) -> None:
    sparse(root.parent / "big.json")
    refused(["validate", "--manifest", str(root.parent / "big.json")], root, "file-too-large", root.parent)
    refused(
        ["evaluate", "main", "--facts", f"@{root.parent / 'big.json'}"], root, "file-too-large", root.parent
    )
    refused(
        ["evaluate", "main", "--outcomes", f"@{root.parent / 'big.json'}"],
        root,
        "file-too-large",
        root.parent,
    )
    tested = cli(["test", str(root.parent / "big.json")], root)  # a test file's problem stays with that file
    assert tested.status == 1 and tested.err == ""
    (result,) = json.loads(tested.out)["results"]
    assert result["error"]["code"] == "file-too-large" and not result["passed"]
    (root / "SKILL.md").write_text(
        "---\nname: s\nmetadata:\n  agent-graph: provider:acme/base\n  agent-graph.graph: main\n"
        "  agent-graph.entry: default\n---\n"
    )
    refused(
        ["inspect", "skill", "SKILL.md", "--registry", str(root.parent / "big.json")],
        root,
        "file-too-large",
        root.parent,
    )


def test_a_huge_file_is_refused_before_it_is_read(root: Path) -> None:
    """A 64 GiB sparse file would take minutes and all memory to read; the refusal is immediate."""
    huge = root.parent / "huge.json"
    try:
        sparse(huge, 64 * 1024**3)
    except OSError:
        pytest.skip("the file system cannot hold a 64 GiB sparse file")
    refused(["evaluate", "main", "--facts", f"@{huge}"], root, "file-too-large", root.parent)
    refused(["validate", "--manifest", str(huge)], root, "file-too-large", root.parent)
    sparse(root / "graphs/main.yaml", 64 * 1024**3)
    refused_everywhere(root, "file-too-large")


# ---------------------------------------------------------------- encodings


def test_invalid_utf8_nul_bytes_and_duplicate_keys_in_each_structured_file(root: Path) -> None:
    for relative in (
        "provider.yaml",
        "graphs/main.yaml",
        "actions/build.yaml",
        "codes.yaml",
        "resources/data.yaml",
    ):
        original = (root / relative).read_bytes()
        for data, code in (
            (b"schema: \xff\n" + original, "file-encoding-invalid"),
            (original[:10] + b"\x00" + original[10:], "parse-failed"),
            (b"schema: a\nschema: b\n", "parse-failed"),
        ):
            (root / relative).write_bytes(data)
            refused_everywhere(root, code)
        (root / relative).write_bytes(original)


def test_front_matter_with_nul_bytes_or_invalid_utf8(root: Path) -> None:
    (root / "resources/policy.md").write_bytes(b"---\nid: a\x00b\nkind: procedure\n---\nBody.\n")
    refused_everywhere(root, "frontmatter-invalid")
    (root / "resources/policy.md").write_bytes(b"no front matter \xff\xfe\n")
    refused_everywhere(root, "frontmatter-missing")


# ---------------------------------------------------------------- special files where a file is expected


KINDS_OF_FILES = [
    "provider.yaml",
    "graphs/main.yaml",
    "graphs/child.yaml",
    "actions/build.yaml",
    "actions/inspect.yaml",
    "actions/accept.yaml",
    "actions/view-materializer.yaml",
    "scripts/run.sh",
    "scripts/lib.sh",
    "schemas/in.schema.json",
    "schemas/report-in.schema.json",
    "skills/writer/SKILL.md",
    "resources/procedure.md",
    "resources/policy.md",
    "resources/data.yaml",
    "resources/data.schema.json",
    "resources/report.yaml",
    "codes.yaml",
]


@POSIX
@pytest.mark.parametrize("relative", KINDS_OF_FILES)
def test_a_fifo_where_a_file_is_expected(relative: str, root: Path) -> None:
    replace_with_fifo(root / relative)
    refused_everywhere(root, "file-missing")


@POSIX
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
@pytest.mark.parametrize(
    "relative", ["provider.yaml", "graphs/main.yaml", "actions/build.yaml", "scripts/run.sh"]
)
def test_a_device_where_a_file_is_expected(relative: str, device: str, root: Path) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} is missing")
    replace_with_link(root / relative, device)
    refused_everywhere(root, "file-missing")
    refused(["validate", "--manifest", device], root, "file-missing", root.parent)


@POSIX
def test_special_files_inside_a_skill_directory_are_not_part_of_the_provider(
    root: Path, tmp_path: Path
) -> None:
    """Only regular files belong to a Skill directory: FIFOs, devices and links are skipped, never opened."""
    os.mkfifo(root / "skills/writer/pipe.md")
    (root / "skills/writer/zero.md").symlink_to("/dev/zero")
    (root / "skills/writer/passwd.md").symlink_to("/etc/passwd")
    (root / "skills/writer/elsewhere").symlink_to(tmp_path / "outside", target_is_directory=True)
    with within(SECONDS * 2):
        provider = ag.load_provider(str(root / "provider.yaml"))
    relative = {provider.relative(f) for f in provider.files}
    assert {"skills/writer/SKILL.md", "skills/writer/style.md"} <= relative
    assert not any(
        name.startswith(
            ("skills/writer/pipe", "skills/writer/zero", "skills/writer/passwd", "skills/writer/elsewhere")
        )
        for name in relative
    )


@POSIX
def test_fifos_and_directories_given_on_the_command_line(root: Path) -> None:
    fifo = root.parent / "fifo"
    os.mkfifo(fifo)
    directory = root.parent / "directory"
    directory.mkdir()
    for path in (fifo, directory):
        refused(["validate", "--manifest", str(path)], root, "file-missing", root.parent)
        refused(["evaluate", "main", "--facts", f"@{path}"], root, "file-read-failed", root.parent)
        refused(["evaluate", "main", "--outcomes", f"@{path}"], root, "file-read-failed", root.parent)
        refused(["evaluate", "--state", str(path)], root, "file-read-failed", root.parent)
        refused(["route", "--state", str(path)], root, "file-read-failed", root.parent)
        refused(["run", "status", "--state", str(path)], root, "file-read-failed", root.parent)
        refused(
            ["run", "record", "main/build", "completed", "--state", str(path)],
            root,
            "file-read-failed",
            root.parent,
        )
        refused(["run", "start", "main", "--state", str(path)], root, "run-target-exists", root.parent)
        refused(["route", "main", "--resource-receipts", f"@{path}"], root, "file-read-failed", root.parent)
        refused(["evaluate", "--skill", str(path)], root, "file-read-failed", root.parent)
        refused(["inspect", "skill", str(path)], root, "file-read-failed", root.parent)
        refused(
            ["run", "record", "main/build", "completed", "--state", "r.json", "--detail", f"@{path}"],
            root,
            "file-read-failed",
            root.parent,
        )


# ---------------------------------------------------------------- symbolic links out of the root


LINKED = [
    "graphs/main.yaml",  # graph
    "graphs/child.yaml",  # graph called as a Subgraph
    "actions/build.yaml",  # action
    "actions/inspect.yaml",  # gate inspection action
    "actions/apply.yaml",  # gate resolution action
    "actions/accept.yaml",  # delegated resolution action
    "actions/view-materializer.yaml",  # materializer action
    "actions/report-materializer.yaml",  # host materializer action
    "scripts/run.sh",  # script entry
    "scripts/lib.sh",  # action files
    "schemas/in.schema.json",  # input schema
    "schemas/report-in.schema.json",  # host input schema
    "schemas/report-out.schema.json",  # host output schema
    "skills/writer/SKILL.md",  # Skill
    "resources/procedure.md",  # front-matter resource and code document
    "resources/policy.md",  # delegated resource
    "resources/data.yaml",  # file descriptor
    "resources/data.schema.json",  # resource content
    "resources/view.yaml",  # graph-action resource
    "resources/report.yaml",  # host-action resource
    "codes.yaml",  # code catalog
]


@pytest.mark.parametrize("relative", LINKED)
def test_a_link_out_of_the_root_for_every_kind_of_reference(relative: str, root: Path, outside: Path) -> None:
    replace_with_link(root / relative, outside / relative)
    refused_everywhere(root, "path-symlink-outside-provider")


@pytest.mark.parametrize("relative", LINKED[:4])
def test_a_relative_link_out_of_the_root(relative: str, root: Path, outside: Path) -> None:
    replace_with_link(root / relative, os.path.relpath(outside / relative, (root / relative).parent))
    refused_everywhere(root, "path-symlink-outside-provider")


@pytest.mark.parametrize(
    "directory", ["actions", "skills/writer", "resources", "schemas", "graphs", "scripts"]
)
def test_a_linked_directory_out_of_the_root(directory: str, root: Path, outside: Path) -> None:
    replace_with_link(root / directory, outside / directory)
    refused_everywhere(root, "path-symlink-outside-provider")


def test_links_that_loop_or_dangle_are_missing_files(root: Path) -> None:
    replace_with_link(root / "graphs/main.yaml", "main.yaml")
    refused_everywhere(root, "file-missing")
    replace_with_link(root / "graphs/main.yaml", "nowhere.yaml")
    refused_everywhere(root, "file-missing")


def test_a_link_inside_the_root_is_fine(root: Path) -> None:
    (root / "graphs/real.yaml").write_bytes((root / "graphs/main.yaml").read_bytes())
    replace_with_link(root / "graphs/main.yaml", "real.yaml")
    ag.load_provider(str(root / "provider.yaml"))


# ---------------------------------------------------------------- `..` and absolute paths in every reference field


def _node(documents: dict[str, Any], node_id: str) -> dict[str, Any]:
    return load_fixtures.node(documents, node_id)


REFERENCE_FIELDS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "manifest graphs": lambda d, v: d["provider.yaml"].__setitem__("graphs", [v, "graphs/child.yaml"]),
    "manifest code catalog": lambda d, v: d["provider.yaml"]["catalogs"].__setitem__("codes", v),
    "catalog document": lambda d, v: d["codes.yaml"]["codes"][0].__setitem__("document", v),
    "node action": lambda d, v: _node(d, "build").__setitem__("action", v),
    "node inspectionAction": lambda d, v: _node(d, "approve").__setitem__("inspectionAction", v),
    "node resolutionAction": lambda d, v: _node(d, "approve").__setitem__("resolutionAction", v),
    "delegated resolutionAction": lambda d, v: _node(d, "approve")["delegated"].__setitem__(
        "resolutionAction", v
    ),
    "node required resource": lambda d, v: _node(d, "build")["resources"].__setitem__("required", [v]),
    "node recommended resource": lambda d, v: _node(d, "build")["resources"].__setitem__("recommended", [v]),
    "delegated resource": lambda d, v: _node(d, "approve")["delegated"]["resources"].__setitem__(
        "required", [v]
    ),
    "action entry": lambda d, v: d["actions/run.yaml"].__setitem__("entry", v),
    "action inputSchema": lambda d, v: d["actions/run.yaml"].__setitem__("inputSchema", v),
    "action outputSchema": lambda d, v: d["actions/run.yaml"].__setitem__("outputSchema", v),
    "action files": lambda d, v: d["actions/run.yaml"].__setitem__("files", [v]),
    "action skill": lambda d, v: d["actions/write.yaml"].__setitem__("skill", v),
    "file resource path": lambda d, v: d["resources/data.yaml"].__setitem__("path", v),
    "graph-action materializer": lambda d, v: d["resources/view.yaml"].__setitem__("materializer", v),
    "host-action materializer": lambda d, v: d["resources/report.yaml"].__setitem__("materializer", v),
    "host materializer inputSchema": lambda d, v: d["actions/report-materializer.yaml"].__setitem__(
        "inputSchema", v
    ),
}
ESCAPES = [
    "../outside/graphs/main.yaml",
    "/etc/passwd",
    "graphs/../../x.yaml",
    "C:/Windows/x.yaml",
    "C:\\x.yaml",
    "./../x",
    "",
]


@pytest.mark.parametrize("field", sorted(REFERENCE_FIELDS))
def test_dotdot_and_absolute_paths_in_every_reference_field(field: str, tmp_path: Path) -> None:
    for escape in ESCAPES:
        documents = base_documents()
        REFERENCE_FIELDS[field](documents, escape)
        raises("schema-invalid", lambda documents=documents: load_fixtures.load(documents))
    documents = base_documents()
    REFERENCE_FIELDS[field](documents, ESCAPES[0])
    root = tmp_path / "p"
    write_tree(root, documents)
    write_tree(tmp_path / "outside", base_documents())
    refused(["validate"], root, "schema-invalid", tmp_path)


def test_paths_outside_the_schema_are_checked_by_containment() -> None:
    from agent_graph._load.loader import contained_path

    for reference in ("/etc/passwd", "C:\\x", "D:/x"):
        raises(
            "absolute-path-forbidden",
            lambda reference=reference: contained_path("/p", reference, "reference"),
        )
    for reference in ("..", "../x", "a/../../x", "a/b/../../../x"):
        raises(
            "path-outside-provider", lambda reference=reference: contained_path("/p", reference, "reference")
        )
    assert contained_path("/p", "a/../b", "reference") == "/p/b"


def test_resource_and_skill_locators_with_escapes(root: Path) -> None:
    for reference in ("../outside/resources/procedure.md", "/etc/passwd", "resources/../../x.md"):
        refused(["resource", "locate", reference], root, "resource-missing", root.parent)
    (root / "SKILL.md").write_text(
        "---\nname: s\nmetadata:\n  agent-graph: path:/etc/provider.yaml\n  agent-graph.graph: main\n"
        "  agent-graph.entry: default\n---\n"
    )
    refused(["evaluate", "--skill", "SKILL.md"], root, "skill-locator-absolute", root.parent)


# ---------------------------------------------------------------- long IDs and huge numbers


LONG = "x" * 10_000
LONG_IDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "provider id": lambda d: d["provider.yaml"].__setitem__("id", LONG),
    "graph id": lambda d: d["graphs/child.yaml"].__setitem__("id", LONG),
    "node id": lambda d: _node(d, "run").__setitem__("id", LONG),
    "entry name": lambda d: d["graphs/main.yaml"]["entrypoints"].__setitem__(LONG, "build"),
    "action id": lambda d: d["actions/build.yaml"].__setitem__("id", LONG),
    "catalog code": lambda d: d["codes.yaml"]["codes"][0].__setitem__("code", LONG),
    "reason code": lambda d: _node(d, "run").__setitem__("reasonCode", "route." + LONG),
    "gate id": lambda d: _node(d, "approve")["gate"].__setitem__("id", LONG),
    "gate authority": lambda d: _node(d, "approve")["gate"].__setitem__("authority", LONG),
    "resource id": lambda d: d["resources/data.yaml"].__setitem__("id", LONG),
    "host handler": lambda d: d["actions/check.yaml"].__setitem__("handler", LONG),
}


@pytest.mark.parametrize("field", sorted(LONG_IDS))
def test_ids_of_ten_thousand_characters_are_schema_invalid(field: str, tmp_path: Path) -> None:
    documents = base_documents()
    LONG_IDS[field](documents)
    raises("schema-invalid", lambda: load_fixtures.load(documents))
    write_tree(tmp_path / "p", documents)
    refused(["validate"], tmp_path / "p", "schema-invalid", tmp_path)


def test_ten_thousand_character_names_on_the_command_line(root: Path) -> None:
    refused(["evaluate", LONG], root, "graph-missing", root.parent)
    refused(["route", "main", "route:" + LONG], root, "route-stale", root.parent)
    refused(["code", "locate", LONG], root, "code-missing", root.parent)
    refused(["resource", "locate", LONG], root, "resource-missing", root.parent)
    refused(["run", "start", LONG, "--state", "r.json"], root, "graph-missing", root.parent)
    refused(
        ["evaluate", "main", "--outcomes", json.dumps({"main/build": LONG})],
        root,
        "outcome-invalid",
        root.parent,
    )
    refused(["evaluate", "main", "--entry", LONG], root, "entry-missing", root.parent)


HUGE_FACTS = {
    "integer 10**400": ('{"a": 1' + "0" * 400 + "}", {"a": 10**400}),
    "integer 10**5000": ('{"a": 1' + "0" * 5000 + "}", {"a": 10**5000}),
    "float 1e400": ('{"a": 1e400}', {"a": float("inf")}),
    "float -1e-400": ('{"a": -1e-400}', {"a": -0.0}),
    "beyond 2**53": ('{"a": 9007199254740993}', {"a": 2**53 + 1}),
}


@pytest.mark.parametrize("name", sorted(HUGE_FACTS))
def test_facts_with_huge_numbers(name: str, root: Path) -> None:
    text, value = HUGE_FACTS[name]
    provider = ag.load_provider(str(root / "provider.yaml"))
    expected = ag.evaluate(provider, "main", facts=value).revision
    answer = cli(["evaluate", "main", "--facts", text], root)
    assert answer.status == 0, answer.err
    assert json.loads(answer.out)["revision"] == expected


def test_huge_numbers_become_the_double_a_host_in_javascript_would_see() -> None:
    provider = load_fixtures.load(base_documents())

    def revision(value: Any) -> str:
        return ag.evaluate(provider, "main", facts={"a": value}).revision

    assert revision(10**400) == revision(float("inf")) == revision(None) == revision(float("nan"))
    assert revision(2**53 + 1) == revision(2**53) == revision(float(2**53))
    assert revision(10**5000) == revision(None)
    assert revision(-0.0) == revision(0)  # canonical JSON prints both as 0


# ---------------------------------------------------------------- bad input to evaluate() and route()


def test_values_that_are_not_json_are_json_invalid() -> None:
    provider = load_fixtures.load(base_documents())
    for facts in ({"a": {1, 2}}, {"a": b"bytes"}, {"a": object()}, {1: "x"}, {"a": {2: "x"}}):
        raises("json-invalid", lambda facts=facts: ag.evaluate(provider, "main", facts=facts))
    raises("json-invalid", lambda: ag.evaluate(provider, "main", outcomes={1: "completed"}))
    raises("json-object-required", lambda: ag.evaluate(provider, "main", facts=[1]))  # type: ignore[arg-type]
    raises("json-object-required", lambda: ag.evaluate(provider, "main", outcomes="x"))  # type: ignore[arg-type]


def test_bad_outcomes_authorities_graphs_and_workspaces() -> None:
    provider = load_fixtures.load(base_documents())
    for outcome in ({"outcome": [1]}, {"outcome": 5}, {"outcome": 10**5000}, None, 3):
        raises(
            "outcome-invalid",
            lambda outcome=outcome: ag.evaluate(provider, "main", outcomes={"main/build": outcome}),
        )
    for authorities in ("release", [1], [None], [10**5000]):
        raises("authorities-invalid", lambda a=authorities: ag.evaluate(provider, "main", authorities=a))
    for graph in (["main"], {}, 10**5000, None):
        raises("graph-missing", lambda graph=graph: ag.evaluate(provider, graph))  # type: ignore[arg-type]
    raises("argument-invalid", lambda: ag.route(provider, "main", workspace=5))  # type: ignore[arg-type]
    evaluation = ag.evaluate(provider, "main", ["default"])  # type: ignore[arg-type]
    assert [d.code for d in evaluation.diagnostics] == ["entry-missing"]


def test_non_ascii_authorities_sort_with_ascii_ones() -> None:
    provider = load_fixtures.load(base_documents())
    mixed = ag.evaluate(provider, "main", authorities=["é", "release", "\ud800", "😀", "release"])
    again = ag.evaluate(provider, "main", authorities=["😀", "\ud800", "release", "é"])
    assert mixed.revision == again.revision


def test_non_ascii_file_names_sort_with_ascii_ones() -> None:
    documents = base_documents()
    documents["resources/é-notes.md"] = "---\nid: notes.accent\nkind: procedure\n---\nBody.\n"
    documents["resources/z-notes.md"] = "---\nid: notes.z\nkind: procedure\n---\nBody.\n"
    _node(documents, "run")["resources"] = {"required": ["resources/é-notes.md", "resources/z-notes.md"]}
    provider = load_fixtures.load(documents)
    assert ag.evaluate(provider, "main").revision


# ---------------------------------------------------------------- read receipts of another Provider


def test_receipts_for_another_provider(root: Path) -> None:
    provider = ag.load_provider(str(root / "provider.yaml"))
    receipts = {"schema": "agent-graph.resource-read-receipts.v1", "provider": "acme/other", "receipts": []}
    raises(
        "resource-receipts-provider-mismatch",
        lambda: ag.route(provider, "main", receipts=receipts, workspace="/w"),
    )
    refused(
        ["route", "main", "--resource-receipts", json.dumps(receipts)],
        root,
        "resource-receipts-provider-mismatch",
        root.parent,
    )
    (root.parent / "receipts.json").write_text(json.dumps(receipts))
    refused(
        ["route", "main", "--resource-receipts", f"@{root.parent / 'receipts.json'}"],
        root,
        "resource-receipts-provider-mismatch",
        root.parent,
    )
    bad = {"schema": "agent-graph.resource-read-receipts.v1", "provider": 10**5000, "receipts": []}
    raises(
        "resource-receipts-provider-mismatch",
        lambda: ag.route(provider, "main", receipts=bad, workspace="/w"),
    )
    refused(
        ["route", "main", "--resource-receipts", '{"provider": "acme/base"}'],
        root,
        "schema-invalid",
        root.parent,
    )
    raises("resource-receipts-invalid", lambda: ag.route(provider, "main", receipts=[1], workspace="/w"))  # type: ignore[arg-type]


# ---------------------------------------------------------------- Runs


@pytest.fixture
def run_file(root: Path) -> Path:
    answer = cli(
        ["run", "start", "main", "--state", "run.json", "--facts", '{"a": 1}', "--authority", "release"], root
    )
    assert answer.status == 0, answer.err
    answer = cli(["run", "record", "main/build", "completed", "--state", "run.json"], root)
    assert answer.status == 0, answer.err
    return root / "run.json"


RUN_COMMANDS = [
    ["run", "status", "--state", "run.json"],
    ["run", "record", "main/build", "completed", "--state", "run.json"],
    ["run", "facts", "--state", "run.json", "--set", '{"b": 2}'],
    ["run", "authority", "--state", "run.json", "--add", "ops"],
    ["run", "checkpoint", "--state", "run.json", "--out", "checkpoint.json"],
    ["run", "events", "--state", "run.json"],
    ["run", "resume", "--checkpoint", "run.json", "--state", "resumed.json"],
    ["evaluate", "--state", "run.json"],
    ["route", "--state", "run.json"],
]


def _corruptions(good: bytes) -> dict[str, tuple[bytes, str, str]]:
    """Broken Run files: the store's code, and the command line's (the reference toolchain's) code."""
    flipped = bytearray(good)
    flipped[good.index(b'"schema"') + 1] ^= 0x20
    return {
        "truncated in half": (good[: len(good) // 2], "run-invalid", "parse-failed"),
        "truncated by one byte": (good.rstrip()[:-1], "run-invalid", "parse-failed"),
        "one flipped byte": (bytes(flipped), "run-invalid", "schema-invalid"),
        "empty": (b"", "run-invalid", "parse-failed"),
        "not an object": (b"[]", "run-invalid", "schema-invalid"),
        "invalid utf-8": (good.replace(b'"main"', b'"\xff"', 1), "run-invalid", "file-encoding-invalid"),
        "nul byte": (good.replace(b'"main"', b'"ma\x00in"', 1), "run-invalid", "parse-failed"),
        "wrong schema": (
            good.replace(b"agent-graph.run.v1", b"agent-graph.run.v2"),
            "run-invalid",
            "schema-invalid",
        ),
        "unknown outcome": (
            good.replace(b'"outcome": "completed"', b'"outcome": "done"'),
            "run-invalid",
            "schema-invalid",
        ),
        "deep facts": (
            good.replace(b'"facts": {', b'"facts": {"deep": ' + b"[" * DEEP + b"]" * DEEP + b",", 1),
            "run-invalid",
            "parse-failed",
        ),
        "alias bomb": ((CORPUS / "alias-billion-laughs.yaml").read_bytes(), "run-invalid", "parse-failed"),
        "another provider": (
            good.replace(b'"acme/base"', b'"acme/other"'),
            "run-provider-mismatch",
            "run-provider-mismatch",
        ),
    }


def test_corrupt_and_truncated_runs_for_every_run_command(run_file: Path) -> None:
    root = run_file.parent
    good = run_file.read_bytes()
    for name, (data, code, cli_code) in _corruptions(good).items():
        run_file.write_bytes(data)
        for command in RUN_COMMANDS:
            answer = refused(command, root, cli_code, root.parent)
            if cli_code != code:  # the store's finer code leads the diagnostics
                assert json.loads(answer.err)["error"]["diagnostics"][0]["code"] == code, name
            assert not (root / "checkpoint.json").exists() and not (root / "resumed.json").exists(), name
        with pytest.raises(ag.AgentGraphError) as caught:
            FileRunStore().load(str(run_file), "acme/base")
        assert caught.value.code == code, name


def test_a_refused_run_write_leaves_no_lock_file(run_file: Path) -> None:
    run_file.write_bytes(b"{")
    lock = run_file.with_name("run.json.lock")
    if lock.exists():
        lock.unlink()
    refused(
        ["run", "record", "main/build", "completed", "--state", "run.json"], run_file.parent, "parse-failed"
    )
    assert not lock.exists()


def test_a_64_mib_run_is_refused(run_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_graph._runtime import run_codec as _runs

    sparse(run_file)
    refused(["run", "status", "--state", "run.json"], run_file.parent, "parse-failed", run_file.parent.parent)
    monkeypatch.setattr(_runs, "MAX_RUN_BYTES", 1024)
    run_file.write_bytes(b" " * 2048 + b"{}")
    with pytest.raises(ag.AgentGraphError) as caught:
        FileRunStore().load(str(run_file))
    assert caught.value.code == "run-invalid" and "file-too-large" in caught.value.message


def test_runs_that_are_directories_fifos_or_missing(root: Path) -> None:
    (root / "dir.json").mkdir()
    cases = [
        (["run", "status", "--state", "dir.json"], "file-read-failed"),
        (["run", "status", "--state", "missing.json"], "file-read-failed"),
        (["run", "start", "main", "--state", "dir.json"], "run-target-exists"),
    ]
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "fifo.json")
        cases += [
            (["run", "record", "main/build", "completed", "--state", "fifo.json"], "file-read-failed"),
            (["run", "resume", "--checkpoint", "fifo.json", "--state", "new.json"], "file-read-failed"),
        ]
    for arguments, code in cases:
        refused(arguments, root, code, root.parent)


def test_existing_targets_are_never_replaced(run_file: Path) -> None:
    root = run_file.parent
    (root / "taken.json").write_text("precious")
    for arguments in (
        ["run", "start", "main", "--state", "taken.json"],
        ["run", "checkpoint", "--state", "run.json", "--out", "taken.json"],
        ["run", "resume", "--checkpoint", "run.json", "--state", "taken.json"],
    ):
        refused(arguments, root, "run-target-exists", root.parent)
    assert (root / "taken.json").read_text() == "precious"


# ---------------------------------------------------------------- bundles


@pytest.fixture(scope="module")
def built_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("bundle-source")
    write_tree(source / "p", base_documents())
    out = source / "bundle"
    answer = cli(["build", str(out), "--manifest", str(source / "p" / "provider.yaml")], source)
    assert answer.status == 0, answer.err
    return out


@pytest.fixture
def bundle(built_bundle: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "bundle"
    shutil.copytree(built_bundle, copy, symlinks=True)
    return copy


def resign(bundle: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Change ``manifest.json`` and write a matching digest, as a careful forger would."""
    manifest = json.loads((bundle / "manifest.json").read_text())
    change(manifest)
    manifest.pop("digest", None)
    manifest["digest"] = digest_value(manifest)
    (bundle / "manifest.json").write_text(json.dumps(manifest, indent=2))


def refused_bundle(bundle: Path, code: str) -> None:
    raises(code, lambda: ag.load_provider(str(bundle / "manifest.json")))
    for command in (["validate"], ["evaluate", "main"], ["inspect", "provider"]):
        refused([*command, "--manifest", "manifest.json"], bundle, code, bundle.parent)


def test_the_untouched_bundle_loads(bundle: Path) -> None:
    ag.load_provider(str(bundle / "manifest.json"))


def _bundle_files(bundle: Path) -> list[str]:
    return [item["path"] for item in json.loads((bundle / "manifest.json").read_text())["files"]]


def test_one_flipped_byte_in_any_bundle_file(bundle: Path) -> None:
    for relative in _bundle_files(bundle):
        path = bundle / relative
        original = path.read_bytes()
        for offset in (0, len(original) // 2, len(original) - 1):
            data = bytearray(original)
            data[offset] ^= 0x01
            path.write_bytes(bytes(data))
            refused_bundle(bundle, "bundle-file-digest-mismatch")
        path.write_bytes(original)


def test_one_flipped_byte_in_the_bundle_manifest(bundle: Path) -> None:
    text = (bundle / "manifest.json").read_text()
    manifest = json.loads(text)
    digest = manifest["digest"]
    forged = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    (bundle / "manifest.json").write_text(text.replace(digest, forged))
    refused_bundle(bundle, "bundle-digest-mismatch")
    first_file_digest = manifest["files"][0]["digest"]
    (bundle / "manifest.json").write_text(text.replace(first_file_digest, first_file_digest[:-1] + "0", 1))
    refused_bundle(bundle, "bundle-digest-mismatch")
    (bundle / "manifest.json").write_text(text.replace('"schema"', '"schemb"', 1))
    refused_bundle(bundle, "schema-invalid")
    (bundle / "manifest.json").write_text(text[: len(text) // 2])
    refused_bundle(bundle, "parse-failed")


def test_a_missing_bundle_file(bundle: Path) -> None:
    for relative in ("graphs/main.yaml", "scripts/lib.sh", "provider.yaml", "skills/writer/style.md"):
        original = (bundle / relative).read_bytes()
        (bundle / relative).unlink()
        refused_bundle(bundle, "file-missing")
        (bundle / relative).write_bytes(original)


def test_an_extra_or_missing_entry_in_the_bundle_file_list(bundle: Path) -> None:
    manifest_text = (bundle / "manifest.json").read_text()
    (bundle / "extra.txt").write_text("extra\n")
    resign(
        bundle,
        lambda m: m["files"].append({"path": "extra.txt", "digest": digest_value_of(bundle / "extra.txt")}),
    )
    refused_bundle(bundle, "bundle-files-mismatch")
    (bundle / "manifest.json").write_text(manifest_text)
    resign(bundle, lambda m: m.__setitem__("files", [f for f in m["files"] if f["path"] != "scripts/lib.sh"]))
    refused_bundle(bundle, "bundle-files-mismatch")
    (bundle / "manifest.json").write_text(manifest_text)
    resign(bundle, lambda m: m["files"].append(dict(m["files"][0])))
    refused_bundle(bundle, "bundle-file-duplicate")


def digest_value_of(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_extra_file_in_a_bundled_skill_directory(bundle: Path) -> None:
    (bundle / "skills/writer/extra.md").write_text("not in the bundle\n")
    refused_bundle(bundle, "bundle-files-mismatch")


def test_an_unlisted_file_outside_the_provider_file_set_is_ignored(bundle: Path) -> None:
    """Files no reference reaches are never read; the bundle's listed files decide what loads."""
    (bundle / "unrelated.txt").write_text("ignored\n")
    ag.load_provider(str(bundle / "manifest.json"))


def test_forged_bundle_manifests(bundle: Path) -> None:
    text = (bundle / "manifest.json").read_text()
    cases: list[tuple[Callable[[dict[str, Any]], None], str]] = [
        (
            lambda m: m["files"].append({"path": "../outside.yaml", "digest": m["files"][0]["digest"]}),
            "schema-invalid",
        ),
        (
            lambda m: m["files"].append({"path": "/etc/passwd", "digest": m["files"][0]["digest"]}),
            "schema-invalid",
        ),
        (lambda m: m.__setitem__("providerManifest", "../provider.yaml"), "schema-invalid"),
        (lambda m: m.__setitem__("providerManifest", "other.yaml"), "bundle-provider-unlisted"),
        (lambda m: m["provider"].__setitem__("id", "acme/other"), "bundle-provider-mismatch"),
        (lambda m: m["graphs"].pop(), "bundle-catalog-mismatch"),
        (lambda m: m["graphDependencies"].__setitem__("main", []), "bundle-dependencies-mismatch"),
        (lambda m: m.__setitem__("extra", 1), "schema-invalid"),
    ]
    for change, code in cases:
        (bundle / "manifest.json").write_text(text)
        resign(bundle, change)
        refused_bundle(bundle, code)


def test_a_bundle_file_linked_out_of_the_bundle(bundle: Path, tmp_path: Path) -> None:
    (tmp_path / "lib.sh").write_bytes((bundle / "scripts/lib.sh").read_bytes())
    replace_with_link(bundle / "scripts/lib.sh", tmp_path / "lib.sh")
    refused_bundle(bundle, "path-symlink-outside-provider")


@POSIX
def test_special_files_in_a_bundle(bundle: Path) -> None:
    original = (bundle / "graphs/main.yaml").read_bytes()
    replace_with_fifo(bundle / "graphs/main.yaml")
    refused_bundle(bundle, "file-missing")
    (bundle / "graphs/main.yaml").unlink()
    (bundle / "graphs/main.yaml").symlink_to("/dev/zero")
    refused_bundle(bundle, "file-missing")
    (bundle / "graphs/main.yaml").unlink()
    (bundle / "graphs/main.yaml").write_bytes(original)
    manifest = (bundle / "manifest.json").read_bytes()
    replace_with_fifo(bundle / "manifest.json")
    refused(["validate", "--manifest", "manifest.json"], bundle, "file-missing", bundle.parent)
    (bundle / "manifest.json").unlink()
    (bundle / "manifest.json").write_bytes(manifest)


# ---------------------------------------------------------------- bad command lines


BAD_ARGUMENTS: list[tuple[list[str], str]] = [
    (["frobnicate"], "argument-invalid"),
    (["validate", "--frobnicate"], "argument-invalid"),
    (["evaluate", "--facts"], "argument-invalid"),
    (["evaluate", "--entry"], "argument-invalid"),
    (["evaluate", "--authority"], "argument-invalid"),
    (["route", "--revision"], "argument-invalid"),
    (["run"], "argument-invalid"),
    (["run", "start"], "argument-invalid"),
    (["run", "record", "main/build"], "argument-invalid"),
    (["run", "facts", "--state", "r.json"], "argument-invalid"),
    (["run", "checkpoint", "--state", "r.json"], "argument-invalid"),
    (["inspect"], "argument-invalid"),
    (["inspect", "everything"], "argument-invalid"),
    (["schema", "path", "nothing"], "schema-type-unknown"),
    (["evaluate", "main", "--facts", "[1]"], "json-object-required"),
    (["evaluate", "main", "--facts", '"text"'], "json-object-required"),
    (["evaluate", "main", "--facts", "null"], "json-object-required"),
    (["evaluate", "main", "--facts", "3"], "json-object-required"),
    (["evaluate", "main", "--facts", "{"], "json-invalid"),
    (["evaluate", "main", "--facts", '{"a": NaN}'], "json-invalid"),
    (["evaluate", "main", "--facts", '{"a": 1} trailing'], "json-invalid"),
    (["evaluate", "main", "--facts", "\ufeff{}"], "json-invalid"),
    (["evaluate", "main", "--facts", "@missing.json"], "file-read-failed"),
    (["evaluate", "main", "--outcomes", "[]"], "json-object-required"),
    (["evaluate", "main", "--outcomes", '{"main/build": "done"}'], "outcome-invalid"),
    (["evaluate", "main", "--outcomes", '{"main/build": {"outcome": "completed"}}'], "outcome-invalid"),
    (["evaluate", "main", "--outcomes", '{"main/build": null}'], "outcome-invalid"),
    (["evaluate", "nothing"], "graph-missing"),
    (["evaluate", "--state", "missing.json"], "file-read-failed"),
    (["route", "main", "route:00000000000000000000"], "route-stale"),
    (["route", "main", "--revision", "sha256:" + "0" * 64], "route-revision-stale"),
    (["route", "main", "--revision", "garbage"], "revision-invalid"),
    (["route", "main", "route:00000000000000000000", "extra"], "route-arguments-invalid"),
    (["evaluate"], "graph-selection-missing"),
    (["run", "start", "--state", "r.json"], "graph-selection-missing"),
    (["evaluate", "main", "--entry", "nowhere"], "entry-missing"),
    (["route", "main", "--entry", "nowhere"], "entry-missing"),
    (["route", "main", "--resource-receipts", "{"], "json-invalid"),
    (["run", "record", "main/build", "done", "--state", "r.json"], "outcome-invalid"),
    (["run", "record", "", "completed", "--state", "r.json"], "run-node-invalid"),
    (["run", "record", "main/build", "completed", "--state", "r.json", "--detail", "{"], "json-invalid"),
    (["run", "start", "main", "--state", "r.json", "--facts", "[]"], "json-object-required"),
    (["run", "start", "main", "--state", "r.json", "--entry", "nowhere"], "entry-missing"),
    (["resource", "materialize", "view.status", "--cache", "c", "--revision", "x"], "revision-invalid"),
    (
        [
            "resource",
            "materialize",
            "view.status",
            "--cache",
            "c",
            "--revision",
            "sha256:" + "0" * 64,
            "--timeout-ms",
            "0",
        ],
        "argument-invalid",
    ),
    (
        [
            "resource",
            "materialize",
            "view.status",
            "--cache",
            "c",
            "--revision",
            "sha256:" + "0" * 64,
            "--env",
            "1BAD=x",
        ],
        "materializer-env-invalid",
    ),
    (
        ["resource", "materialize", "policy.delegation", "--cache", "c", "--revision", "sha256:" + "0" * 64],
        "resource-static",
    ),
    (
        ["resource", "materialize", "report.weekly", "--cache", "c", "--revision", "sha256:" + "0" * 64],
        "materializer-runner-invalid",
    ),
    (["test", "missing-tests"], "test-path-missing"),
    (["build", "."], "build-output-overlaps-source"),
    (["validate", "--manifest", "missing.yaml"], "file-missing"),
    (["validate", "--skill", "missing.md"], "file-read-failed"),
]


@pytest.mark.parametrize(
    ("arguments", "code"), BAD_ARGUMENTS, ids=[" ".join(a)[:60] for a, _ in BAD_ARGUMENTS]
)
def test_bad_command_lines(arguments: list[str], code: str, root: Path) -> None:
    refused(arguments, root, code, root.parent)


def test_a_bad_format_is_refused_in_human_form(root: Path) -> None:
    for arguments in (
        ["validate", "--format", "xml"],
        ["--format=yaml", "validate"],
        ["validate", "--format", ""],
    ):
        out, err = io.StringIO(), io.StringIO()
        with (
            chdir(root),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            within(SECONDS * 2),
        ):
            status = main(arguments)
        assert status == 1 and out.getvalue() == ""
        assert err.getvalue().startswith("ERROR format-invalid: ")
        assert err.getvalue().count("\n") == 1 and err.getvalue().endswith("\n")


def test_a_missing_value_at_the_end(root: Path) -> None:
    for option in ("--manifest", "--skill", "--registry", "--format"):
        out, err = io.StringIO(), io.StringIO()
        with (
            chdir(root),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            within(SECONDS * 2),
        ):
            status = main(["validate", option])
        assert status == 1
        assert err.getvalue().startswith("ERROR argument-invalid: ")


# ---------------------------------------------------------------- limits: each at its edge, and raised


def _aliases(count: int) -> str:
    return "schema: agent-graph.provider.v1\nanchor: &a x\nlist: [" + ", ".join(["*a"] * count) + "]\n"


def test_alias_budget_default_and_raised() -> None:
    from agent_graph._syntax.parse import parse_yaml

    assert len(parse_yaml(_aliases(99), "x.yaml")["list"]) == 99
    raises("parse-failed", lambda: parse_yaml(_aliases(100), "x.yaml"))
    assert len(parse_yaml(_aliases(150), "x.yaml", max_alias_count=200)["list"]) == 150
    fs = ag.MemoryFileSystem({"/m/provider.yaml": _aliases(150)})
    raises("parse-failed", lambda: ag.load_provider("/m/provider.yaml", fs=fs))
    raised = ag.Limits(max_alias_count=200)
    raises(
        "schema-invalid", lambda: ag.load_provider("/m/provider.yaml", fs=fs, limits=raised)
    )  # parsed, then checked


def _nested(depth: int) -> str:
    return "schema: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"


def test_depth_limit_default_and_raised() -> None:
    from agent_graph._syntax.parse import parse_json, parse_yaml

    assert ag.Limits().max_depth == 512
    parse_yaml(_nested(512), "x.yaml")
    raises("parse-failed", lambda: parse_yaml(_nested(513), "x.yaml"))
    parse_json("[" * 512 + "]" * 512, "x.json")
    raises("parse-failed", lambda: parse_json("[" * 513 + "]" * 513, "x.json"))
    fs = ag.MemoryFileSystem({"/m/provider.yaml": _nested(600)})
    raises("parse-failed", lambda: ag.load_provider("/m/provider.yaml", fs=fs))
    raises(
        "schema-invalid", lambda: ag.load_provider("/m/provider.yaml", fs=fs, limits=ag.Limits(max_depth=700))
    )
    raises(
        "parse-failed", lambda: ag.load_provider("/m/provider.yaml", fs=fs, limits=ag.Limits(max_depth=100))
    )


def test_file_size_limit_default_lowered_and_raised() -> None:
    assert ag.Limits().max_file_bytes == 32 * 1024 * 1024
    documents = base_documents()
    size = len(render(documents["graphs/main.yaml"]))
    load_fixtures.load(documents, max_file_bytes=size + 10)
    with pytest.raises(ag.AgentGraphError) as caught:
        load_fixtures.load(documents, limits=ag.Limits(max_file_bytes=size - 1))
    assert caught.value.code == "file-too-large"
    documents["graphs/main.yaml"] = render(documents["graphs/main.yaml"]) + b" " * (33 * 1024 * 1024)
    with pytest.raises(ag.AgentGraphError) as caught:
        load_fixtures.load(documents)
    assert caught.value.code == "file-too-large"
    load_fixtures.load(documents, limits=ag.Limits(max_file_bytes=64 * 1024 * 1024))


def test_node_limit_default_lowered_and_raised() -> None:
    assert ag.Limits().max_nodes >= 100_000
    files = providers.files_for([providers.chain("main", 12)])
    fs = ag.MemoryFileSystem(files)
    ag.load_provider(providers.MANIFEST, fs=fs, limits=ag.Limits(max_nodes=12))
    raises(
        "graph-too-large", lambda: ag.load_provider(providers.MANIFEST, fs=fs, limits=ag.Limits(max_nodes=11))
    )


def test_file_count_limit_lowered_and_raised() -> None:
    assert ag.Limits().max_files == 100_000
    provider = load_fixtures.load(base_documents())
    count = len(provider.files)
    load_fixtures.load(base_documents(), limits=ag.Limits(max_files=count))
    with pytest.raises(ag.AgentGraphError) as caught:
        load_fixtures.load(base_documents(), limits=ag.Limits(max_files=count - 1))
    assert caught.value.code == "provider-too-large"


# ---------------------------------------------------------------- the load cache


@POSIX
def test_a_hostile_load_cache_is_ignored(root: Path, tmp_path: Path) -> None:
    """Entries replaced by FIFOs, devices, huge, empty, truncated or flipped files: skipped, never trusted."""
    cache = tmp_path / "cache"
    plain = ag.load_provider(str(root / "provider.yaml"), cache=False)
    ag.load_provider(str(root / "provider.yaml"), cache=str(cache))
    entries = sorted(p for p in cache.rglob("*") if p.is_file())
    assert entries
    for index, entry in enumerate(entries):
        data = bytearray(entry.read_bytes())
        entry.unlink()
        kind = index % 6
        if kind == 0:
            os.mkfifo(entry)
        elif kind == 1:
            entry.symlink_to("/dev/zero")
        elif kind == 2:
            sparse(entry, 1 << 30)
        elif kind == 3:
            entry.write_bytes(b"")
        elif kind == 4:
            entry.write_bytes(bytes(data[: len(data) // 2]))
        else:
            data[len(data) // 2] ^= 1
            entry.write_bytes(bytes(data))
    with within(SECONDS * 2):
        again = ag.load_provider(str(root / "provider.yaml"), cache=str(cache))
    assert again.digest == plain.digest
    assert ag.evaluate(again, "main").revision == ag.evaluate(plain, "main").revision
    for unusable in (root / "provider.yaml", Path("/dev/null")):
        with within(SECONDS * 2):
            assert ag.load_provider(str(root / "provider.yaml"), cache=str(unusable)).digest == plain.digest


# ---------------------------------------------------------------- real processes


def _process(arguments: list[str | bytes], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "agent_graph", *arguments],
        cwd=cwd,
        capture_output=True,
        timeout=60,
        env=environment,
        check=False,
    )


@POSIX
@pytest.mark.slow
def test_real_processes_refuse_without_hanging_or_tracebacks(root: Path) -> None:
    os.mkfifo(root.parent / "fifo.yaml")
    sparse(root.parent / "big.yaml")
    before = snapshot(root.parent)
    cases: list[tuple[list[str | bytes], str]] = [
        (["validate", "--manifest", str(root.parent / "fifo.yaml")], "file-missing"),
        (["validate", "--manifest", str(root.parent / "big.yaml")], "file-too-large"),
        (["validate", "--manifest", str(CORPUS / "alias-billion-laughs.yaml")], "parse-failed"),
        (["evaluate", "main", "--facts", "[" * DEEP + "]" * DEEP], "json-invalid"),
        (["evaluate", "main", "--facts", f"@{root.parent / 'fifo.yaml'}"], "file-read-failed"),
        (["frobnicate"], "argument-invalid"),
        ([b"evaluate", b"g\xff"], "graph-missing"),
    ]
    for arguments, code in cases:
        started = time.monotonic()
        done = _process([*arguments, "--format", "json"], root)
        assert time.monotonic() - started < SECONDS * 2
        assert done.returncode == 1, done.stderr
        assert done.stdout == b""
        assert b"Traceback" not in done.stderr
        lines = done.stderr.split(b"\n")[:-1]
        assert len(lines) == 1
        assert json.loads(lines[0])["error"]["code"] == code
    assert snapshot(root.parent) == before


def test_an_undecodable_argument_still_gives_json_output(root: Path) -> None:
    done = _process([b"evaluate", b"main", b"--entry", b"\xff", b"--format", b"json"], root)
    assert done.returncode == 1 and done.stdout == b""
    error = json.loads(done.stderr)["error"]
    assert error["code"] == "entry-missing" and "\udcff" in error["message"]
