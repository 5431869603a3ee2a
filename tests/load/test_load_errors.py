"""Every load error code, produced by one bad input, and the order in which the loader checks.

Each test starts from the valid Provider of ``load_fixtures`` and changes one
thing (behaviour.md §2, §7, §11). Order tests put two problems in one Provider
and expect the check that §7 lists first to win.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._load.loader import contained_path
from tests.load_fixtures import (
    MANIFEST,
    ROOT,
    Documents,
    base_documents,
    load,
    memory_fs,
    node,
    render,
    write_tree,
)
from tests.providers import graph_doc

#: The schema keyword that refuses an absolute or escaping relative path.
PATH_RULES = {"schema.not", "schema.pattern"}


def fails(documents: Documents, code: str, **options: Any) -> ag.AgentGraphError:
    """Load and expect an AgentGraphError with ``code``."""
    with pytest.raises(ag.AgentGraphError) as raised:
        load(documents, **options)
    assert raised.value.code == code, f"{raised.value.code}: {raised.value.message}"
    return raised.value


def move_outside(documents: Documents, relative: str) -> tuple[dict[str, str], Documents]:
    """Replace ``relative`` by a symbolic link to the same content outside the Provider root."""
    target = f"/outside/{relative}"
    return {relative: target}, {target: documents.pop(relative)}


def main_graph(documents: Documents) -> dict[str, Any]:
    graph: dict[str, Any] = documents["graphs/main.yaml"]
    return graph


def terminal_only_graph(graph_id: str) -> dict[str, Any]:
    return {
        "schema": "agent-graph.graph.v1",
        "id": graph_id,
        "entrypoints": {"default": "end"},
        "nodes": [{"id": "end", "kind": "terminal", "terminalOutcome": "completed"}],
        "edges": [],
    }


#: One edit of the base Provider's documents.
Change = Callable[[Documents], None]


def _place(documents: Documents, relative: str, pointer: str) -> tuple[Any, Any]:
    """The container and key that ``pointer`` (``/nodes/quality/graph``) names in document ``relative``.

    A step into a list is an index, or the ID of the item (a node, say) to take.
    """
    *steps, last = pointer.strip("/").split("/")
    target: Any = documents[relative]
    for step in steps:
        if isinstance(target, list):
            target = target[int(step)] if step.isdigit() else next(i for i in target if i.get("id") == step)
        else:
            target = target[step]
    return target, int(last) if isinstance(target, list) else last


def setting(relative: str, pointer: str, value: Any) -> Change:
    """Set the field ``pointer`` of document ``relative`` to ``value``."""

    def change(documents: Documents) -> None:
        target, key = _place(documents, relative, pointer)
        target[key] = copy.deepcopy(value)

    return change


def deleting(relative: str, pointer: str = "") -> Change:
    """Remove the field ``pointer`` of document ``relative``, or the whole file without one."""

    def change(documents: Documents) -> None:
        if not pointer:
            del documents[relative]
            return
        target, key = _place(documents, relative, pointer)
        del target[key]

    return change


def appending(relative: str, pointer: str, value: Any) -> Change:
    """Append ``value`` to the list at ``pointer`` of document ``relative``."""

    def change(documents: Documents) -> None:
        target, key = _place(documents, relative, pointer)
        target[key].append(copy.deepcopy(value))

    return change


def writing(relative: str, content: Any) -> Change:
    """Put ``content`` (text, or a document) at ``relative``, in place of what was there."""

    def change(documents: Documents) -> None:
        documents[relative] = copy.deepcopy(content)

    return change


def case(code: str, *changes: Change, named: str | None = None, name: str = "") -> Any:
    """A row of a table of changes: ``changes`` made to the base Provider fail its load with ``code``.

    ``named`` is a word the error's message must hold; ``name`` tells the
    rows of one code apart in the test's ID.
    """
    return pytest.param(list(changes), code, named, id=f"{code}-{name}" if name else code)


def changed(changes: Sequence[Change]) -> Documents:
    """The documents of the base Provider with ``changes`` made, in order."""
    documents = base_documents()
    for change in changes:
        change(documents)
    return documents


def fails_after(changes: Sequence[Change], code: str, named: str | None) -> None:
    """The base Provider, changed by ``changes``, fails to load with ``code``, its message naming ``named``."""
    error = fails(changed(changes), code)
    if named is not None:
        assert named in error.message


# ---------------------------------------------------------------- the base itself


def test_base_provider_loads() -> None:
    provider = load(base_documents())
    assert provider.manifest.id == "acme/base"
    assert list(provider.graphs) == ["main", "child"]
    assert len(provider.actions) == 9
    assert len(provider.resources) == 5


# ---------------------------------------------------------------- one change, one code

MAIN = "graphs/main.yaml"
TERMINAL = {"id": "build", "kind": "terminal", "terminalOutcome": "failed"}
VIEW_AS_HOST_ACTION = {
    "schema": "agent-graph.action.v1",
    "id": "view-materializer",
    "runner": "host",
    "effect": "read",
    "handler": "acme.view",
}

#: A change to the base Provider and the code its load then fails with (and a word its message names).
ONE_CHANGE = [
    # file-missing
    case(
        "file-missing",
        writing("actions/build.yaml/x", "x"),
        deleting("actions/build.yaml"),
        name="action-is-a-folder",
    ),
    case(
        "file-missing",
        setting(MAIN, "/nodes/build/resources/required", ["resources"]),
        name="resource-is-a-folder",
    ),
    case(
        "file-missing",
        setting("resources/view.yaml", "/materializer", "actions/absent.yaml"),
        name="materializer",
    ),
    # parse-failed
    case(
        "parse-failed",
        writing(MAIN, "schema: agent-graph.graph.v1\nnodes: [\n"),
        named="main.yaml",
        name="yaml",
    ),
    case(
        "parse-failed",
        writing("actions/build.yaml", "schema: agent-graph.action.v1\nid: a\nid: b\n"),
        name="key-twice",
    ),
    case("parse-failed", writing("codes.yaml", "codes: []\n---\nmore: 1\n"), name="several-yaml-documents"),
    case(
        "parse-failed",
        writing("schemas/report-in.schema.json", '{"$id": "acme.report-request/v1",}'),
        name="json",
    ),
    # schema-invalid
    case(
        "schema-invalid",
        setting("codes.yaml", "/codes/1/severity", "info"),
        named="codes.yaml",
        name="catalog",
    ),
    # (a command Action cannot name a runtime)
    case(
        "schema-invalid",
        setting("actions/build.yaml", "/runtime", "shell"),
        named="build.yaml",
        name="action",
    ),
    case("schema-invalid", setting("resources/data.yaml", "/kind", "context-view"), name="file-descriptor"),
    # the Code Catalog
    case("code-document-dynamic", setting("codes.yaml", "/codes/0/document", "resources/view.yaml")),
    case("frontmatter-missing", writing("resources/procedure.md", "no front matter\n"), name="code-document"),
    # graph semantics
    case("graph-node-duplicate", appending(MAIN, "/nodes", TERMINAL), named="build"),
    case("graph-entry-missing", setting(MAIN, "/entrypoints/other", "nowhere"), named="nowhere"),
    case(
        "graph-terminal-edge-invalid",
        appending(MAIN, "/edges", {"from": "done", "to": "build", "outcomes": ["failed"]}),
    ),
    case(
        "graph-gated-by-source-invalid",
        appending(MAIN, "/edges", {"from": "build", "to": "write", "kind": "gatedBy"}),
    ),
    case(
        "graph-flow-cycle",
        appending(MAIN, "/edges", {"from": "run", "to": "run", "outcomes": ["partial"]}),
        name="self",
    ),
    case(
        "graph-id-duplicate",
        writing("graphs/again.yaml", terminal_only_graph("child")),
        appending("provider.yaml", "/graphs", "graphs/again.yaml"),
        named="child",
    ),
    # per node
    case("subgraph-missing", setting(MAIN, "/nodes/quality/graph", "nothing"), named="nothing"),
    case("subgraph-entry-missing", setting(MAIN, "/nodes/quality/entry", "side")),
    case("action-id-duplicate", setting("actions/apply.yaml", "/id", "inspect")),
    case("gate-inspection-effect-invalid", setting("actions/inspect.yaml", "/effect", "write")),
    case("gate-delegated-inspection-missing", deleting(MAIN, "/nodes/approve/inspectionAction")),
    case("gate-resolution-effect-invalid", setting("actions/apply.yaml", "/effect", "read")),
    case(
        "gate-resolution-effect-invalid", setting("actions/accept.yaml", "/effect", "read"), name="delegated"
    ),
    case(
        "resource-id-duplicate",
        writing("resources/policy.md", "---\nid: procedure.build\nkind: procedure\n---\nx\n"),
    ),
    case(
        "resource-id-duplicate",
        writing("resources/other.md", "---\nid: procedure.build\nkind: template\n---\nx\n"),
        setting(MAIN, "/nodes/write/resources", {"required": ["resources/other.md"]}),
        name="code-document",
    ),
    # resources (a YAML file of another schema is read for front matter)
    case(
        "frontmatter-missing",
        writing("resources/data.yaml", {"schema": "something.else/v1", "id": "x"}),
        name="yaml",
    ),
    # catalog closure, materializers
    case(
        "route-reason-code-missing",
        setting(MAIN, "/nodes/write/reasonCode", "route.main.x"),
        named="route.main.x",
    ),
    case(
        "route-reason-code-missing", setting(MAIN, "/nodes/approve/reasonCode", "route.main.x"), name="gate"
    ),
    case(
        "route-reason-code-kind-invalid",
        appending(
            "codes.yaml", "/codes", {"code": "route.main.odd", "kind": "diagnostic", "summary": "Odd."}
        ),
        setting(MAIN, "/nodes/run/reasonCode", "route.main.odd"),
    ),
    case("materializer-effect-invalid", setting("actions/view-materializer.yaml", "/effect", "write")),
    case(
        "materializer-effect-invalid",
        setting("actions/report-materializer.yaml", "/effect", "external"),
        name="host",
    ),
    case("materializer-runner-invalid", writing("actions/view-materializer.yaml", VIEW_AS_HOST_ACTION)),
    case(
        "materializer-runner-invalid",
        setting("resources/report.yaml", "/materializer", "actions/view-materializer.yaml"),
        name="host-action-resource",
    ),
    case(
        "materializer-runner-invalid",
        deleting("actions/report-materializer.yaml", "/outputSchema"),
        name="no-schema",
    ),
]


@pytest.mark.parametrize(("changes", "code", "named"), ONE_CHANGE)
def test_a_change_fails_with_its_code(changes: list[Change], code: str, named: str | None) -> None:
    fails_after(changes, code, named)


#: Changes the loader takes: the Provider still loads, with the resource or Graph it names.
STILL_LOADS = [
    pytest.param(
        [writing("resources/procedure.md", "---\nid: /abs/id\nkind: procedure\n---\nbody\n")],
        "/abs/id",
        id="front-matter-fields-are-not-paths",
    ),
    pytest.param(
        [
            writing(
                "resources/policy.md", "---\r\nid: policy.delegation\r\nkind: procedure\r\n---\r\nbody\r\n"
            )
        ],
        "policy.delegation",
        id="front-matter-with-crlf-line-ends",
    ),
    pytest.param(
        [
            writing(
                "resources/policy.md",
                "---\nid: policy.delegation\nkind: skill\ntitle: Policy\nversion: 2\n---\n",
            )
        ],
        "policy.delegation",
        id="other-front-matter-keys-are-ignored",
    ),
    pytest.param(
        [
            appending(MAIN, "/edges", {"from": "build", "to": "done", "outcomes": ["failed", "unverified"]}),
            appending(MAIN, "/edges", {"from": "build", "to": "done", "outcomes": ["unverified", "failed"]}),
        ],
        "main",
        id="edges-differing-only-in-outcome-order-are-not-duplicates",
    ),
    pytest.param(
        [appending(MAIN, "/edges", {"from": "build", "to": "approve", "kind": "requires"})],
        "main",
        id="edges-differing-in-kind-are-not-duplicates",
    ),
    pytest.param(
        [
            appending(
                MAIN, "/edges", {"from": "run", "to": "approve", "kind": "repeat", "outcomes": ["failed"]}
            )
        ],
        "main",
        id="repeat-to-a-gate",
    ),
    pytest.param(
        [setting(MAIN, "/nodes/run/action", "actions/build.yaml")], "main", id="same-action-file-used-twice"
    ),
    pytest.param(
        [setting(MAIN, "/nodes/approve/delegated", {})],
        "main",
        id="empty-delegated-policy-on-a-delegatable-gate",
    ),
]


@pytest.mark.parametrize(("changes", "holding"), STILL_LOADS)
def test_a_change_the_loader_takes(changes: list[Change], holding: str) -> None:
    provider = load(changed(changes))
    assert holding in provider.graphs or holding in provider.resources_by_id


# ---------------------------------------------------------------- file-missing


def test_manifest_missing() -> None:
    fs = memory_fs(base_documents())
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(f"{ROOT}/nope.yaml", fs=fs)
    assert raised.value.code == "file-missing"


@pytest.mark.parametrize(
    "relative",
    [
        "graphs/child.yaml",
        "codes.yaml",
        "actions/build.yaml",
        "actions/inspect.yaml",
        "actions/accept.yaml",
        "actions/view-materializer.yaml",
        "resources/procedure.md",
        "resources/policy.md",
        "resources/data.yaml",
        "resources/data.schema.json",
        "scripts/run.sh",
        "scripts/lib.sh",
        "schemas/in.schema.json",
        "skills/writer/SKILL.md",
    ],
)
def test_referenced_file_missing(relative: str) -> None:
    documents = base_documents()
    del documents[relative]
    error = fails(documents, "file-missing")
    assert relative in error.message


def test_directory_where_a_graph_is_expected() -> None:
    documents = base_documents()
    documents["graphs/child.yaml/inner.yaml"] = documents.pop("graphs/child.yaml")
    fails(documents, "file-missing")


def test_directory_as_manifest() -> None:
    fs = memory_fs(base_documents())
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(ROOT, fs=fs)
    assert raised.value.code == "file-missing"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_fifo_where_a_graph_is_expected_does_not_hang(tmp_path: Path) -> None:
    documents = base_documents()
    del documents["graphs/child.yaml"]
    manifest = write_tree(tmp_path, documents)
    os.mkfifo(tmp_path / "graphs" / "child.yaml")
    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            ag.load_provider(str(manifest))
        except ag.AgentGraphError as error:
            outcome["code"] = error.code

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():  # unblock the reader so the test process can exit
        with open(tmp_path / "graphs" / "child.yaml", "wb"):
            pass
        pytest.fail("loading a FIFO blocked")
    assert outcome.get("code") == "file-missing"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_fifo_as_manifest(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "provider.yaml")
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(tmp_path / "provider.yaml"))
    assert raised.value.code == "file-missing"


# ---------------------------------------------------------------- parse-failed


def test_bad_json() -> None:
    documents = base_documents()
    documents["graphs/child.json"] = json.dumps(documents.pop("graphs/child.yaml"))[:-1] + ",}"
    documents["provider.yaml"]["graphs"][1] = "graphs/child.json"
    fails(documents, "parse-failed")


def test_yaml_file_with_json_content_loads() -> None:
    documents = base_documents()
    documents["graphs/child.yaml"] = json.dumps(documents["graphs/child.yaml"])
    assert "child" in load(documents).graphs


# ---------------------------------------------------------------- schema-invalid


def test_schema_invalid_one_diagnostic_per_violation() -> None:
    documents = base_documents()
    graph = main_graph(documents)
    graph["id"] = "Main"  # pattern
    graph["colour"] = "blue"  # additionalProperties
    del graph["edges"]  # required
    error = fails(documents, "schema-invalid")
    codes = sorted(d.code for d in error.diagnostics)
    assert codes == ["schema.additionalProperties", "schema.pattern", "schema.required"]
    assert all(d.severity == "error" for d in error.diagnostics)
    assert all(d.path == f"{ROOT}/graphs/main.yaml" for d in error.diagnostics)


@pytest.mark.parametrize(
    ("relative", "where"),
    [
        ("provider.yaml", ()),
        ("graphs/main.yaml", ()),
        ("graphs/main.yaml", ("nodes", 0)),
        ("graphs/main.yaml", ("edges", 0)),
        ("graphs/main.yaml", ("nodes", 1, "gate")),
        ("graphs/main.yaml", ("nodes", 1, "delegated")),
        ("graphs/main.yaml", ("nodes", 0, "satisfiedBy", 0)),
        ("actions/build.yaml", ()),
        ("codes.yaml", ()),
        ("codes.yaml", ("codes", 0)),
        ("resources/data.yaml", ()),
        ("resources/view.yaml", ()),
        ("resources/report.yaml", ()),
    ],
)
def test_unknown_field_is_rejected(relative: str, where: tuple[Any, ...]) -> None:
    documents = base_documents()
    target = documents[relative]
    for step in where:
        target = target[step]
    target["unexpected"] = True
    error = fails(documents, "schema-invalid")
    assert [d.code for d in error.diagnostics] == ["schema.additionalProperties"]
    assert relative in error.message


@pytest.mark.parametrize(
    "bad", ["/p/graphs/child.yaml", "../p/graphs/child.yaml", "graphs/../graphs/child.yaml", "C:/x.yaml"]
)
def test_absolute_or_escaping_graph_reference_is_schema_invalid(bad: str) -> None:
    documents = base_documents()
    documents["provider.yaml"]["graphs"][1] = bad
    error = fails(documents, "schema-invalid")
    assert len(error.diagnostics) == 1
    assert error.diagnostics[0].code in PATH_RULES
    assert error.diagnostics[0].detail["pointer"] == "/graphs/1"
    assert (
        "provider.yaml:" in error.diagnostics[0].message
        and "relative to the Provider root" in error.diagnostics[0].message
    )


@pytest.mark.parametrize(
    ("relative", "field", "bad"),
    [
        ("provider.yaml", ("catalogs", "codes"), "/p/codes.yaml"),
        ("codes.yaml", ("codes", 0, "document"), "../resources/procedure.md"),
        ("graphs/main.yaml", ("nodes", 0, "action"), "/p/actions/build.yaml"),
        ("graphs/main.yaml", ("nodes", 1, "inspectionAction"), "../x.yaml"),
        ("graphs/main.yaml", ("nodes", 1, "resolutionAction"), "/x.yaml"),
        ("graphs/main.yaml", ("nodes", 1, "delegated", "resolutionAction"), "a/../../x.yaml"),
        ("graphs/main.yaml", ("nodes", 0, "resources", "required", 0), "/p/resources/procedure.md"),
        ("actions/run.yaml", ("entry",), "/p/scripts/run.sh"),
        ("actions/run.yaml", ("inputSchema",), "../schemas/in.schema.json"),
        ("actions/run.yaml", ("files", 0), "/etc/passwd"),
        ("actions/write.yaml", ("skill",), "../skills/writer/SKILL.md"),
        ("resources/data.yaml", ("path",), "/p/resources/data.schema.json"),
        ("resources/view.yaml", ("materializer",), "../actions/view-materializer.yaml"),
        ("resources/report.yaml", ("materializer",), "/p/actions/report-materializer.yaml"),
    ],
)
def test_schema_covered_path_fields_reject_absolute_and_dotdot(
    relative: str, field: tuple[Any, ...], bad: str
) -> None:
    documents = base_documents()
    target = documents[relative]
    for step in field[:-1]:
        target = target[step]
    target[field[-1]] = bad
    error = fails(documents, "schema-invalid")
    assert PATH_RULES & {d.code for d in error.diagnostics}


# Every path field of every v1 object is covered by the schemas' relativePath, so
# the loader's own containment codes are only reachable through the shared check.


def test_contained_path_absolute_is_forbidden() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        contained_path(ROOT, "/etc/passwd", "graph reference")
    assert raised.value.code == "absolute-path-forbidden"
    with pytest.raises(ag.AgentGraphError) as raised:
        contained_path(ROOT, "C:\\x.yaml", "graph reference")
    assert raised.value.code == "absolute-path-forbidden"


def test_contained_path_escape_is_outside_provider() -> None:
    for reference in ("../x.yaml", "a/../../x.yaml", ".."):
        with pytest.raises(ag.AgentGraphError) as raised:
            contained_path(ROOT, reference, "graph reference")
        assert raised.value.code == "path-outside-provider"
    assert contained_path(ROOT, "a/../b.yaml", "graph reference") == f"{ROOT}/b.yaml"
    assert contained_path(ROOT, "..b/x.yaml", "graph reference") == f"{ROOT}/..b/x.yaml"


# ---------------------------------------------------------------- path-symlink-outside-provider


@pytest.mark.parametrize(
    "relative",
    [
        "graphs/main.yaml",
        "codes.yaml",
        "actions/build.yaml",
        "actions/inspect.yaml",
        "scripts/run.sh",
        "scripts/lib.sh",
        "schemas/in.schema.json",
        "skills/writer/SKILL.md",
        "resources/policy.md",
        "resources/data.yaml",
        "resources/data.schema.json",
        "resources/procedure.md",  # also the Code Catalog's document
        "actions/view-materializer.yaml",
        "actions/report-materializer.yaml",
        "schemas/report-in.schema.json",
    ],
)
def test_symlink_leaving_the_root(relative: str) -> None:
    documents = base_documents()
    links, outside = move_outside(documents, relative)
    error = fails(documents, "path-symlink-outside-provider", links=links, outside=outside)
    assert relative in error.message


def test_code_document_symlink_leaving_the_root() -> None:
    documents = base_documents()
    documents["resources/code-doc.md"] = "---\nid: code.doc\nkind: diagnostic\n---\nx\n"
    documents["codes.yaml"]["codes"][5]["document"] = "resources/code-doc.md"
    links, outside = move_outside(documents, "resources/code-doc.md")
    fails(documents, "path-symlink-outside-provider", links=links, outside=outside)


def test_symlinked_directory_leaving_the_root() -> None:
    documents = base_documents()
    outside = {
        f"/outside/actions/{name[len('actions/') :]}": documents.pop(name)
        for name in list(documents)
        if name.startswith("actions/")
    }
    fails(documents, "path-symlink-outside-provider", links={"actions": "/outside/actions"}, outside=outside)


def test_provider_reached_through_a_symlinked_root_is_fine() -> None:
    fs = memory_fs(base_documents())
    fs.link("/alias", ROOT)
    provider = ag.load_provider("/alias/provider.yaml", fs=fs)
    assert provider.root == "/alias"


def test_symlink_inside_the_root_is_fine() -> None:
    documents = base_documents()
    documents["shared/main.yaml"] = documents.pop("graphs/main.yaml")
    provider = load(documents, links={"graphs/main.yaml": "../shared/main.yaml"})
    assert "main" in provider.graphs


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX symbolic links")
def test_symlink_leaving_the_root_on_disk(tmp_path: Path) -> None:
    root = tmp_path / "provider"
    elsewhere = tmp_path / "elsewhere"
    documents = base_documents()
    manifest = write_tree(root, documents)
    elsewhere.mkdir()
    (root / "actions" / "build.yaml").rename(elsewhere / "build.yaml")
    (root / "actions" / "build.yaml").symlink_to(elsewhere / "build.yaml")
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(manifest))
    assert raised.value.code == "path-symlink-outside-provider"


# ---------------------------------------------------------------- Code Catalog


def test_code_catalog_code_duplicate() -> None:
    documents = base_documents()
    documents["codes.yaml"]["codes"].append(dict(documents["codes.yaml"]["codes"][1]))
    assert "route.main.approve" in fails(documents, "code-catalog-code-duplicate").message


# ---------------------------------------------------------------- graph semantics


def test_graph_terminal_missing() -> None:
    documents = base_documents()
    graph = documents["graphs/child.yaml"]
    graph["nodes"].pop()
    graph["edges"] = []
    fails(documents, "graph-terminal-missing")


@pytest.mark.parametrize("end", ["from", "to"])
def test_graph_edge_node_missing(end: str) -> None:
    documents = base_documents()
    edge = {"from": "build", "to": "approve", "outcomes": ["failed"]}
    edge[end] = "ghost"
    main_graph(documents)["edges"].append(edge)
    fails(documents, "graph-edge-node-missing")


@pytest.mark.parametrize(
    "edge",
    [
        {"from": "build", "to": "approve"},
        {"from": "build", "to": "approve", "kind": "flow"},
        {"from": "build", "to": "approve", "outcomes": ["completed"]},
        {"from": "build", "to": "approve", "kind": "flow", "outcomes": ["completed"]},
    ],
)
def test_graph_edge_duplicate_with_defaults(edge: dict[str, Any]) -> None:
    documents = base_documents()
    main_graph(documents)["edges"].append(edge)
    fails(documents, "graph-edge-duplicate")


def test_graph_edge_duplicate_same_outcome_list() -> None:
    documents = base_documents()
    edges = main_graph(documents)["edges"]
    edges.append({"from": "build", "to": "done", "outcomes": ["failed", "unverified"]})
    edges.append({"from": "build", "to": "done", "outcomes": ["failed", "unverified"]})
    fails(documents, "graph-edge-duplicate")


@pytest.mark.parametrize("target", ["quality", "done"])
def test_graph_repeat_target_invalid(target: str) -> None:
    documents = base_documents()
    main_graph(documents)["edges"].append(
        {"from": "run", "to": target, "kind": "repeat", "outcomes": ["failed"]}
    )
    fails(documents, "graph-repeat-target-invalid")


def test_graph_flow_cycle_names_the_cycle() -> None:
    documents = base_documents()
    main_graph(documents)["edges"].append({"from": "run", "to": "build", "outcomes": ["failed"]})
    message = fails(documents, "graph-flow-cycle").message
    assert "use a repeat edge" in message
    for name in ("build", "approve", "quality", "write", "run"):
        assert name in message
    assert "done" not in message.split("edge", 1)[-1]


@pytest.mark.parametrize("kind", ["consumes", "requires", "gatedBy"])
def test_every_non_repeat_kind_counts_for_cycles(kind: str) -> None:
    documents = base_documents()
    graph = documents["graphs/child.yaml"]
    graph["nodes"].insert(
        0,
        {"id": "hold", "kind": "gate", "reasonCode": "route.child.check", "gate": {"id": "h", "prompt": "?"}},
    )
    graph["edges"] += [
        {"from": "hold", "to": "check"},
        {"from": "check", "to": "hold", "kind": kind, "outcomes": ["failed"]},
    ]
    if kind == "gatedBy":  # a gatedBy edge must start at a gate: reverse the pair
        graph["edges"][-2:] = [
            {"from": "check", "to": "hold", "outcomes": ["failed"]},
            {"from": "hold", "to": "check", "kind": "gatedBy"},
        ]
    fails(documents, "graph-flow-cycle")


def test_same_graph_file_listed_twice_is_schema_invalid() -> None:
    documents = base_documents()
    documents["provider.yaml"]["graphs"].append("graphs/child.yaml")
    error = fails(documents, "schema-invalid")
    assert [d.code for d in error.diagnostics] == ["schema.uniqueItems"]


# ---------------------------------------------------------------- per node


@pytest.mark.parametrize(
    "gate",
    [
        {"id": "release-approval", "prompt": "Release?", "authority": "release"},
        {"id": "release-approval", "prompt": "Release?", "authority": "release", "delegatable": False},
        {"id": "release-approval", "prompt": "Release?", "delegatable": True},
    ],
)
@pytest.mark.parametrize("delegated", [{}, {"inspection": "required"}])
def test_gate_delegated_policy_invalid(gate: dict[str, Any], delegated: dict[str, Any]) -> None:
    documents = base_documents()
    approve = node(documents, "approve")
    approve["gate"] = gate
    approve["delegated"] = delegated
    fails(documents, "gate-delegated-policy-invalid")


# ---------------------------------------------------------------- resources


#: Texts of a Markdown resource the loader refuses, and the code of each.
BAD_MARKDOWN = [
    *(
        (text, "frontmatter-missing")
        for text in ["no header\n", "\n---\nid: a\nkind: procedure\n---\n", " ---\nid: a\n---\n", "---"]
    ),
    *(
        (text, "frontmatter-invalid")
        for text in [
            "---\nid: policy.delegation\nkind: procedure\n",  # never closed
            "---\n---\nbody\n",  # the closing line must start at offset 4 or later
            "---\nid: policy.delegation\nkind: procedure\n---",  # no newline after the closing line
            "---\nid: [unclosed\n---\nbody\n",  # bad YAML
            "---\nid: a\nid: b\n---\nbody\n",  # duplicate key
            "---\n- id\n- kind\n---\nbody\n",  # a list
            "---\njust text\n---\nbody\n",  # a string
            "---\n\n---\nbody\n",  # null
        ]
    ),
    *(
        (f"---\n{header}---\nbody\n", "resource-metadata-invalid")
        for header in [
            "kind: procedure\n",  # no id
            "id: policy.delegation\n",  # no kind
            "id: 7\nkind: procedure\n",
            "id: policy.delegation\nkind: [procedure]\n",
            "id: policy.delegation\nkind: procedure\nmedia-type: 3\n",
            "id: policy.delegation\nkind: procedure\nmedia-type: true\n",
        ]
    ),
    *(
        (f"---\nid: policy.delegation\nkind: '{kind}'\n---\nbody\n", "resource-kind-invalid")
        for kind in ["context-view", "Procedure", "guide", ""]
    ),
]


@pytest.mark.parametrize(("text", "code"), BAD_MARKDOWN)
def test_a_markdown_resource_the_loader_refuses(text: str, code: str) -> None:
    fails(changed([writing("resources/policy.md", text)]), code)


def test_media_type_spellings_and_default() -> None:
    documents = base_documents()
    documents["resources/policy.md"] = (
        "---\nid: policy.delegation\nkind: template\nmediaType: text/plain\n---\n"
    )
    provider = load(documents)
    located = ag.locate_resource(provider, "policy.delegation")
    assert located.media_type == "text/plain"
    assert ag.locate_resource(provider, "procedure.build").media_type == "text/markdown"


def test_resource_schema_legacy_names_the_migration_command() -> None:
    documents = base_documents()
    documents["resources/data.yaml"] = {
        "schema": "agent-graph.resource.v1",
        "id": "schema.data",
        "kind": "schema",
        "path": "resources/data.schema.json",
    }
    message = fails(documents, "resource-schema-legacy").message
    assert "agent-graph migrate" in message


# ---------------------------------------------------------------- catalog closure, recursion, materializers


def test_graph_recursion_across_subgraphs() -> None:
    documents = base_documents()
    child = documents["graphs/child.yaml"]
    child["nodes"].insert(1, {"id": "back", "kind": "subgraph", "graph": "main", "entry": "default"})
    child["edges"].append({"from": "check", "to": "back", "outcomes": ["failed"]})
    message = fails(documents, "graph-recursion").message
    assert "main" in message and "child" in message


def test_graph_recursion_into_itself() -> None:
    documents = base_documents()
    child = documents["graphs/child.yaml"]
    child["nodes"].insert(1, {"id": "again", "kind": "subgraph", "graph": "child", "entry": "default"})
    fails(documents, "graph-recursion")


def test_shared_subgraph_is_not_recursion() -> None:
    documents = base_documents()
    main_graph(documents)["nodes"].insert(
        3, {"id": "quality-again", "kind": "subgraph", "graph": "child", "entry": "default"}
    )
    main_graph(documents)["edges"].append({"from": "quality", "to": "quality-again"})
    assert load(documents).graph_dependencies["main"] == ("child",)


def test_without_a_catalog_reason_codes_are_only_shape_checked() -> None:
    documents = base_documents()
    del documents["provider.yaml"]["catalogs"]
    node(documents, "write")["reasonCode"] = "route.main.unknown"
    assert "main" in load(documents).graphs
    node(documents, "write")["reasonCode"] = "main.unknown"
    fails(documents, "schema-invalid")


# ---------------------------------------------------------------- file-too-large


def test_file_too_large_manifest() -> None:
    error = fails(base_documents(), "file-too-large", max_file_bytes=50)
    assert "provider.yaml" in error.message


def test_file_too_large_graph() -> None:
    documents = base_documents()
    documents["codes.yaml"] = {"schema": "agent-graph.code-catalog.v1", "codes": []}
    del documents["provider.yaml"]["catalogs"]
    error = fails(documents, "file-too-large", max_file_bytes=1000)
    assert "main.yaml" in error.message


def test_file_too_large_resource() -> None:
    documents = base_documents()
    documents["resources/policy.md"] = "---\nid: policy.delegation\nkind: procedure\n---\n" + "x" * 5000
    assert "policy.md" in fails(documents, "file-too-large", max_file_bytes=4000).message


def test_file_at_the_limit_loads() -> None:
    documents = base_documents()
    largest = max(
        len(json.dumps(d, indent=1)) + 1 if not isinstance(d, str) else len(d.encode())
        for d in documents.values()
    )
    load(documents, max_file_bytes=largest)


# ---------------------------------------------------------------- order of checks (§7)

#: Two problems in one Provider: the check §7 lists first wins, with its code (and a word of its message).
ORDERED = [
    case(
        "schema-invalid",
        setting("provider.yaml", "/extra", 1),
        deleting(MAIN),
        name="manifest-before-graph-files",
    ),
    case(
        "schema-invalid",
        setting("codes.yaml", "/codes/0/kind", "reason"),
        appending(MAIN, "/nodes", TERMINAL),
        named="codes.yaml",
        name="catalog-before-graph-error",
    ),
    case(
        "code-document-dynamic",
        setting("codes.yaml", "/codes/0/document", "resources/view.yaml"),
        deleting(MAIN),
        name="before-graph-file-missing",
    ),
    case(
        "graph-entry-missing",
        setting(MAIN, "/entrypoints/x", "ghost"),
        deleting("graphs/child.yaml"),
        name="first-graph-before-second-graph-missing",
    ),
    case(
        "schema-invalid",
        appending(MAIN, "/nodes", {**TERMINAL, "colour": "red"}),
        name="graph-before-semantics",
    ),
    case(
        "graph-entry-missing",
        deleting("actions/build.yaml"),
        setting("graphs/child.yaml", "/entrypoints/x", "ghost"),
        name="all-graphs-before-actions",
    ),
    case(
        "gate-resolution-effect-invalid",
        setting("actions/apply.yaml", "/effect", "read"),
        writing("resources/policy.md", "no header"),
        name="before-the-gate-resources",
    ),
    case(
        "schema-invalid",
        setting("actions/build.yaml", "/extra", 1),
        setting("resources/data.yaml", "/extra", 1),
        named="build.yaml",
        name="action-before-its-node-resources",
    ),
    case(
        "route-reason-code-missing",
        setting(MAIN, "/nodes/write/reasonCode", "route.main.unknown"),
        setting("actions/view-materializer.yaml", "/effect", "write"),
        name="before-materializers",
    ),
]


@pytest.mark.parametrize(("changes", "code", "named"), ORDERED)
def test_the_check_listed_first_wins(changes: list[Change], code: str, named: str | None) -> None:
    fails_after(changes, code, named)


def test_order_catalog_duplicate_beats_graph_schema() -> None:
    documents = base_documents()
    documents["codes.yaml"]["codes"].append(dict(documents["codes.yaml"]["codes"][0]))
    main_graph(documents)["colour"] = "blue"
    fails(documents, "code-catalog-code-duplicate")


def test_order_catalog_duplicate_beats_document_problem() -> None:
    documents = base_documents()
    documents["codes.yaml"]["codes"].append(dict(documents["codes.yaml"]["codes"][0]))
    documents["resources/procedure.md"] = "no header"
    fails(documents, "code-catalog-code-duplicate")


def test_order_graphs_in_manifest_order() -> None:
    documents = base_documents()
    main_graph(documents)["nodes"].append({"id": "build", "kind": "terminal", "terminalOutcome": "failed"})
    documents["graphs/child.yaml"]["extra"] = True
    fails(documents, "graph-node-duplicate")
    documents["provider.yaml"]["graphs"].reverse()
    fails(documents, "schema-invalid")


def test_order_graph_semantics_beat_graph_id_duplicate() -> None:
    documents = base_documents()
    again = terminal_only_graph("child")
    again["nodes"].append({"id": "end", "kind": "terminal", "terminalOutcome": "failed"})
    documents["graphs/again.yaml"] = again
    documents["provider.yaml"]["graphs"].append("graphs/again.yaml")
    fails(documents, "graph-node-duplicate")
    again["nodes"].pop()
    again["entrypoints"]["x"] = "ghost"
    fails(documents, "graph-entry-missing")
    again["entrypoints"].pop("x")
    fails(documents, "graph-id-duplicate")


def test_order_node_duplicate_beats_terminal_missing() -> None:
    documents = base_documents()
    graph = documents["graphs/child.yaml"]
    graph["nodes"] = [graph["nodes"][0], dict(graph["nodes"][0])]
    graph["edges"] = []
    fails(documents, "graph-node-duplicate")


def test_order_terminal_missing_beats_entry_missing() -> None:
    documents = base_documents()
    graph = documents["graphs/child.yaml"]
    graph["nodes"].pop()
    graph["edges"] = []
    graph["entrypoints"]["x"] = "ghost"
    fails(documents, "graph-terminal-missing")


def test_order_entry_missing_beats_edge_problems() -> None:
    documents = base_documents()
    graph = main_graph(documents)
    graph["entrypoints"]["x"] = "ghost"
    graph["edges"].insert(0, {"from": "ghost", "to": "build"})
    fails(documents, "graph-entry-missing")


def test_order_within_one_edge() -> None:
    documents = base_documents()
    edges = main_graph(documents)["edges"]
    edges.append({"from": "done", "to": "ghost", "kind": "repeat", "outcomes": ["failed"]})
    fails(documents, "graph-edge-node-missing")
    edges[-1]["to"] = "quality"
    fails(documents, "graph-terminal-edge-invalid")  # also a repeat to a Subgraph
    edges[-1] = {"from": "done", "to": "build", "kind": "gatedBy"}
    fails(documents, "graph-terminal-edge-invalid")  # also a gatedBy edge not from a gate


def test_order_edge_checks_beat_flow_cycle() -> None:
    documents = base_documents()
    edges = main_graph(documents)["edges"]
    edges.append({"from": "run", "to": "build", "outcomes": ["failed"]})  # a cycle
    edges.append({"from": "run", "to": "done"})  # a duplicate, after it
    fails(documents, "graph-edge-duplicate")
    edges[-1] = {"from": "run", "to": "done", "kind": "repeat", "outcomes": ["failed"]}
    fails(documents, "graph-repeat-target-invalid")
    edges[-1] = {"from": "run", "to": "done", "kind": "gatedBy"}
    fails(documents, "graph-gated-by-source-invalid")


def test_order_graph_id_duplicate_beats_per_node_checks() -> None:
    documents = base_documents()
    documents["graphs/again.yaml"] = terminal_only_graph("main")
    documents["provider.yaml"]["graphs"].append("graphs/again.yaml")
    node(documents, "quality")["graph"] = "nothing"
    del documents["actions/build.yaml"]
    fails(documents, "graph-id-duplicate")


def test_order_gate_rules_in_listed_order() -> None:
    documents = base_documents()
    documents["actions/inspect.yaml"]["effect"] = "write"
    approve = node(documents, "approve")
    approve["gate"]["delegatable"] = False
    documents["actions/apply.yaml"]["effect"] = "read"
    fails(documents, "gate-inspection-effect-invalid")
    documents["actions/inspect.yaml"]["effect"] = "read"
    fails(documents, "gate-delegated-policy-invalid")
    approve["gate"]["delegatable"] = True
    del approve["inspectionAction"]
    fails(documents, "gate-delegated-inspection-missing")
    approve["delegated"]["inspection"] = "required"
    fails(documents, "gate-resolution-effect-invalid")


def test_order_per_node_checks_beat_graph_recursion() -> None:
    documents = base_documents()
    child = documents["graphs/child.yaml"]
    child["nodes"].insert(1, {"id": "back", "kind": "subgraph", "graph": "main", "entry": "default"})
    documents["actions/apply.yaml"]["id"] = "inspect"
    fails(documents, "action-id-duplicate")


def test_order_graph_recursion_beats_reason_code_closure() -> None:
    documents = base_documents()
    child = documents["graphs/child.yaml"]
    child["nodes"].insert(1, {"id": "back", "kind": "subgraph", "graph": "main", "entry": "default"})
    node(documents, "write")["reasonCode"] = "route.main.unknown"
    fails(documents, "graph-recursion")


def test_order_materializer_effect_before_runner() -> None:
    documents = base_documents()
    documents["actions/view-materializer.yaml"] = {
        "schema": "agent-graph.action.v1",
        "id": "view-materializer",
        "runner": "host",
        "effect": "write",
        "handler": "acme.view",
    }
    fails(documents, "materializer-effect-invalid")


# ---------------------------------------------------------------- scale


def _one_graph(graph: dict[str, Any]) -> Documents:
    """A Provider of ``graph`` alone, written as compact JSON (``acme/<graph id>``)."""
    path = f"graphs/{graph['id']}.json"
    manifest = {
        "schema": "agent-graph.provider.v1",
        "id": f"acme/{graph['id']}",
        "version": "1.0.0",
        "graphs": [path],
    }
    return {"provider.yaml": manifest, path: json.dumps(graph, separators=(",", ":"))}


@pytest.mark.slow
def test_a_100000_node_chain_loads_and_evaluates() -> None:
    count = 100_000
    nodes: list[dict[str, Any]] = [
        {
            "id": f"n{i}",
            "kind": "gate",
            "reasonCode": "route.chain.step",
            "gate": {"id": "step", "prompt": "Go on?"},
        }
        for i in range(count - 1)
    ]
    nodes.append({"id": "end", "kind": "terminal", "terminalOutcome": "completed"})
    edges = [{"from": nodes[i]["id"], "to": nodes[i + 1]["id"]} for i in range(count - 1)]
    provider = load(_one_graph(graph_doc("chain", nodes, edges)))
    assert len(provider.graphs["chain"].definition.nodes) == count
    evaluation = ag.evaluate(provider, "chain", "default", facts={}, outcomes={}, authorities=[])
    assert evaluation.status_code == "waiting-user"
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "n0"


def test_a_long_flow_cycle_is_found_without_recursion() -> None:
    count = 20_000
    nodes: list[dict[str, Any]] = [
        {"id": f"n{i}", "kind": "subgraph", "graph": "leaf", "entry": "default"} for i in range(count)
    ]
    nodes.append({"id": "end", "kind": "terminal", "terminalOutcome": "completed"})
    edges = [{"from": f"n{i}", "to": f"n{(i + 1) % count}"} for i in range(count)]
    fails(_one_graph(graph_doc("ring", nodes, edges)), "graph-flow-cycle")


def test_manifest_constant_is_the_loaded_manifest() -> None:
    assert load(base_documents()).manifest_path == MANIFEST


def test_default_limit_admits_a_20_megabyte_graph() -> None:
    documents = base_documents()
    text = json.dumps(documents["graphs/child.yaml"])
    documents["graphs/child.json"] = text[:-1] + " " * (21_000_000 - len(text)) + "}"
    del documents["graphs/child.yaml"]
    documents["provider.yaml"]["graphs"][1] = "graphs/child.json"
    assert "child" in load(documents).graphs


def test_any_other_resource_file_is_read_for_front_matter() -> None:
    documents = base_documents()
    documents["resources/notes.txt"] = (
        "---\nid: notes.plain\nkind: template\nmedia-type: text/plain\n---\nplain\n"
    )
    node(documents, "write")["resources"] = {"recommended": ["resources/notes.txt"]}
    assert ag.locate_resource(load(documents), "notes.plain").media_type == "text/plain"
    documents["resources/notes.txt"] = "plain\n"
    fails(documents, "frontmatter-missing")


# ---------------------------------------------------------------- errors that say where


def _position(
    documents: Documents, relative: str, needle: str, offset: int = 0, nth: int = 1
) -> tuple[int, int]:
    """Line and column (1-based) of the ``nth`` ``needle`` in the written ``relative``, plus ``offset`` columns."""
    text = render(documents[relative]).decode("utf-8")
    start = -1
    for _ in range(nth):
        start = text.index(needle, start + 1)
    start += offset
    line = text.count("\n", 0, start) + 1
    return line, start - (text.rfind("\n", 0, start) + 1) + 1


def _placed(
    documents: Documents, code: str, relative: str, needle: str, offset: int = 0, nth: int = 1
) -> ag.AgentGraphError:
    """Load, expect ``code`` with its message starting ``relative:line:column:`` at the ``nth`` ``needle``."""
    error = fails(documents, code)
    line, column = _position(documents, relative, needle, offset, nth)
    assert error.message.startswith(f"{relative}:{line}:{column}: "), error.message
    (diagnostic,) = error.diagnostics
    assert diagnostic.code == code and diagnostic.path == f"{ROOT}/{relative}"
    assert (diagnostic.detail["line"], diagnostic.detail["column"]) == (line, column)
    return error


def _edges(documents: Documents, graph: str = "graphs/main.yaml") -> list[dict[str, Any]]:
    edges: list[dict[str, Any]] = documents[graph]["edges"]
    return edges


def test_edge_to_a_misspelt_node_says_where_and_the_closest_name() -> None:
    documents = base_documents()
    _edges(documents)[0]["to"] = "aprove"
    error = _placed(documents, "graph-edge-node-missing", "graphs/main.yaml", '"to": "aprove"', 6)
    assert error.message.endswith("references a missing node aprove (did you mean approve?)")
    assert error.diagnostics[0].detail["pointer"] == "/edges/0/to"


def test_edge_from_an_unknown_node_lists_the_nodes_when_none_is_close() -> None:
    documents = base_documents()
    _edges(documents, "graphs/child.yaml")[0]["from"] = "zzzz"
    error = _placed(documents, "graph-edge-node-missing", "graphs/child.yaml", '"from": "zzzz"', 8)
    assert error.message.endswith("missing node zzzz (nodes: check, done)")


def test_entry_to_a_misspelt_node() -> None:
    documents = base_documents()
    main_graph(documents)["entrypoints"]["default"] = "biuld"
    error = _placed(documents, "graph-entry-missing", "graphs/main.yaml", '"biuld"')
    assert "(did you mean build?)" in error.message


def test_duplicate_node_points_at_the_second() -> None:
    documents = base_documents()
    documents["graphs/child.yaml"]["nodes"][1]["id"] = "check"
    _placed(documents, "graph-node-duplicate", "graphs/child.yaml", '"id": "check"', 6, nth=2)


def test_missing_terminal_points_at_the_nodes() -> None:
    documents = base_documents()
    child = documents["graphs/child.yaml"]
    child["nodes"].pop()
    child["edges"] = []
    _placed(documents, "graph-terminal-missing", "graphs/child.yaml", '"nodes": [', 9)


def test_edge_out_of_a_terminal() -> None:
    documents = base_documents()
    _edges(documents, "graphs/child.yaml").append({"from": "done", "to": "check"})
    _placed(documents, "graph-terminal-edge-invalid", "graphs/child.yaml", '"from": "done"', 8)


def test_duplicate_edge_points_at_the_second() -> None:
    documents = base_documents()
    _edges(documents, "graphs/child.yaml").append({"from": "check", "to": "done"})
    error = fails(documents, "graph-edge-duplicate")
    line, _ = _position(documents, "graphs/child.yaml", '"from": "check"', nth=2)
    assert error.message.startswith(f"graphs/child.yaml:{line - 1}:"), error.message
    assert error.diagnostics[0].detail["pointer"] == "/edges/1"


def test_repeat_edge_into_a_subgraph() -> None:
    documents = base_documents()
    _edges(documents).append({"from": "write", "to": "quality", "kind": "repeat"})
    _placed(documents, "graph-repeat-target-invalid", "graphs/main.yaml", '"to": "quality"', 6, nth=2)


def test_gated_by_edge_from_an_action() -> None:
    documents = base_documents()
    _edges(documents).append({"from": "build", "to": "write", "kind": "gatedBy"})
    _placed(documents, "graph-gated-by-source-invalid", "graphs/main.yaml", '"from": "build"', 8, nth=2)


def test_flow_cycle_points_at_the_edge_that_closes_it() -> None:
    documents = base_documents()
    _edges(documents).append({"from": "run", "to": "write"})
    error = fails(documents, "graph-flow-cycle")
    assert error.message.startswith("graphs/main.yaml:"), error.message
    pointer = error.diagnostics[0].detail["pointer"]
    edge = _edges(documents)[int(pointer.rsplit("/", 1)[1])]
    assert error.message.endswith(f"{edge['from']} -> {edge['to']}")


def test_subgraph_missing_says_where_and_the_closest_graph() -> None:
    documents = base_documents()
    node(documents, "quality")["graph"] = "chlid"
    error = _placed(documents, "subgraph-missing", "graphs/main.yaml", '"graph": "chlid"', 9)
    assert "node quality references missing subgraph chlid (did you mean child?)" in error.message


def test_subgraph_missing_says_when_its_file_is_not_listed() -> None:
    documents = base_documents()
    documents["graphs/extra.yaml"] = terminal_only_graph("extra")
    node(documents, "quality")["graph"] = "extra"
    node(documents, "quality")["entry"] = "default"
    error = _placed(documents, "subgraph-missing", "graphs/main.yaml", '"graph": "extra"', 9)
    assert error.message.endswith(
        "graphs/extra.yaml declares graph extra but is not listed under graphs in provider.yaml: add it there"
    )


def test_subgraph_entry_missing_says_where_and_the_closest_entry() -> None:
    documents = base_documents()
    node(documents, "quality")["entry"] = "defualt"
    error = _placed(documents, "subgraph-entry-missing", "graphs/main.yaml", '"entry": "defualt"', 9)
    assert error.message.endswith("(did you mean default?)")


def test_route_reason_code_missing_says_where_and_the_closest_code() -> None:
    documents = base_documents()
    node(documents, "build")["reasonCode"] = "route.main.biuld"
    error = _placed(documents, "route-reason-code-missing", "graphs/main.yaml", '"route.main.biuld"')
    assert error.message.endswith(
        "route.main.biuld (did you mean route.main.build, route.main.run or route.main.write?)"
    )


def test_route_reason_code_of_another_kind() -> None:
    documents = base_documents()
    documents["codes.yaml"]["codes"].append(
        {"code": "route.child.noted", "kind": "diagnostic", "summary": "Noted.", "severity": "info"}
    )
    node(documents, "check", "graphs/child.yaml")["reasonCode"] = "route.child.noted"
    error = _placed(documents, "route-reason-code-kind-invalid", "graphs/child.yaml", '"route.child.noted"')
    assert error.message.endswith("route.child.noted is a diagnostic code")


def test_graph_id_duplicate_points_at_the_second_id() -> None:
    documents = base_documents()
    documents["graphs/child.yaml"]["id"] = "main"
    error = _placed(documents, "graph-id-duplicate", "graphs/child.yaml", '"id": "main"', 6)
    assert "also declared by graphs/main.yaml" in error.message


def test_graph_recursion_points_at_the_subgraph_node() -> None:
    documents = base_documents()
    child = documents["graphs/child.yaml"]
    child["nodes"].insert(1, {"id": "again", "kind": "subgraph", "graph": "main", "entry": "default"})
    child["edges"] = [{"from": "check", "to": "again"}, {"from": "again", "to": "done"}]
    _placed(documents, "graph-recursion", "graphs/child.yaml", '"graph": "main"', 9)


def test_action_id_duplicate_points_at_the_second_id() -> None:
    documents = base_documents()
    documents["actions/apply.yaml"]["id"] = "inspect"
    error = _placed(documents, "action-id-duplicate", "actions/apply.yaml", '"id": "inspect"', 6)
    assert "both actions/inspect.yaml and actions/apply.yaml" in error.message


def test_resource_id_duplicate_in_front_matter() -> None:
    documents = base_documents()
    documents["resources/policy.md"] = "---\nid: procedure.build\nkind: procedure\n---\nBody.\n"
    _placed(documents, "resource-id-duplicate", "resources/policy.md", "procedure.build")


def test_resource_kind_invalid_in_front_matter() -> None:
    documents = base_documents()
    documents["resources/policy.md"] = "---\nid: policy.delegation\nkind: procedur\n---\nBody.\n"
    error = _placed(documents, "resource-kind-invalid", "resources/policy.md", "procedur\n")
    assert error.message.endswith("unsupported kind: procedur (did you mean procedure?)")


def test_resource_metadata_invalid_names_the_field() -> None:
    documents = base_documents()
    documents["resources/policy.md"] = "---\nid: [policy]\nkind: procedure\n---\nBody.\n"
    error = _placed(documents, "resource-metadata-invalid", "resources/policy.md", "[policy]")
    assert "(id is not a string)" in error.message


def test_resource_schema_legacy_points_at_the_schema() -> None:
    documents = base_documents()
    documents["resources/data.yaml"]["schema"] = "agent-graph.resource.v1"
    _placed(documents, "resource-schema-legacy", "resources/data.yaml", '"agent-graph.resource.v1"')


def test_code_catalog_duplicate_points_at_the_second() -> None:
    documents = base_documents()
    documents["codes.yaml"]["codes"].append(
        {"code": "route.main.run", "kind": "route-reason", "summary": "x"}
    )
    _placed(documents, "code-catalog-code-duplicate", "codes.yaml", '"route.main.run"', nth=2)


def test_code_document_dynamic_points_at_the_document() -> None:
    documents = base_documents()
    documents["codes.yaml"]["codes"][1]["document"] = "resources/view.yaml"
    _placed(documents, "code-document-dynamic", "codes.yaml", '"resources/view.yaml"')


def test_materializer_rules_point_into_the_action() -> None:
    documents = base_documents()
    documents["actions/view-materializer.yaml"]["effect"] = "write"
    _placed(documents, "materializer-effect-invalid", "actions/view-materializer.yaml", '"write"')
    documents = base_documents()
    documents["actions/view-materializer.yaml"].update(runner="host", handler="acme.view")
    del documents["actions/view-materializer.yaml"]["command"]
    _placed(documents, "materializer-runner-invalid", "actions/view-materializer.yaml", '"host"')


def test_host_action_rules_point_at_the_schema_and_the_input() -> None:
    documents = base_documents()
    documents["schemas/report-in.schema.json"]["$id"] = "report-request"
    _placed(
        documents, "host-action-schema-identity-invalid", "schemas/report-in.schema.json", '"report-request"'
    )
    documents = base_documents()
    documents["resources/report.yaml"]["input"]["schema"] = "acme.other/v1"
    _placed(documents, "host-action-input-schema-mismatch", "resources/report.yaml", '"acme.other/v1"')


@pytest.mark.parametrize(
    ("field", "change", "code"),
    [
        (
            "inspectionAction",
            lambda d: d["actions/inspect.yaml"].update(effect="write"),
            "gate-inspection-effect-invalid",
        ),
        (
            "resolutionAction",
            lambda d: d["actions/apply.yaml"].update(effect="read"),
            "gate-resolution-effect-invalid",
        ),
        (
            "delegated",
            lambda d: node(d, "approve")["gate"].update(delegatable=False),
            "gate-delegated-policy-invalid",
        ),
        (
            "inspection",
            lambda d: node(d, "approve").pop("inspectionAction"),
            "gate-delegated-inspection-missing",
        ),
    ],
)
def test_gate_rules_point_at_the_gate_field(field: str, change: Any, code: str) -> None:
    documents = base_documents()
    change(documents)
    _placed(documents, code, "graphs/main.yaml", f'"{field}": ', len(field) + 4)


def test_a_file_an_action_names_is_placed_in_the_action() -> None:
    documents = base_documents()
    del documents["scripts/lib.sh"]
    error = fails(documents, "file-missing")
    line, column = _position(documents, "actions/run.yaml", '"scripts/lib.sh"')
    assert error.message.endswith(f"(named by files of Action run at actions/run.yaml:{line}:{column})")


def test_positions_in_hand_written_yaml() -> None:
    documents = base_documents()
    documents["graphs/child.yaml"] = (
        "schema: agent-graph.graph.v1\n"
        "id: child\n"
        "entrypoints: {default: check}\n"
        "nodes:\n"
        "  - id: check\n"
        "    kind: action\n"
        "    reasonCode: route.child.check\n"
        "    action: actions/check.yaml\n"
        "  - {id: done, kind: terminal, terminalOutcome: completed}\n"
        "edges:\n"
        "  - from: check\n"
        "    to: dnoe\n"
    )
    error = fails(documents, "graph-edge-node-missing")
    assert error.message == (
        "graphs/child.yaml:12:9: Graph child edge check -> dnoe references a missing node dnoe (did you mean done?)"
    )


def test_a_misspelt_file_reference_names_the_closest_file_beside_it() -> None:
    documents = base_documents()
    node(documents, "build")["action"] = "actions/bulid.yaml"
    error = fails(documents, "file-missing")
    assert (
        "/p/actions/bulid.yaml (did you mean actions/build.yaml?) (referenced by node build" in error.message
    )
    documents = base_documents()
    node(documents, "build")["action"] = "actions/build.yml"
    assert "(did you mean actions/build.yaml?)" in fails(documents, "file-missing").message
    documents = base_documents()
    node(documents, "build")["action"] = "actions/unrelated.yaml"
    assert "did you mean" not in fails(documents, "file-missing").message


def test_host_action_input_violations_point_into_the_resource() -> None:
    documents = base_documents()
    documents["resources/report.yaml"]["input"]["value"] = {"week": "three"}
    error = fails(documents, "host-action-input-invalid")
    line, column = _position(documents, "resources/report.yaml", '"value": {', 9)
    assert error.message.startswith(f"resources/report.yaml:{line}:{column}: Resource report.weekly input")
    (diagnostic,) = error.diagnostics
    line, column = _position(documents, "resources/report.yaml", '"three"')
    assert diagnostic.message.startswith(f"resources/report.yaml:{line}:{column}: "), diagnostic.message
    assert diagnostic.path == f"{ROOT}/resources/report.yaml"
    assert (diagnostic.detail["line"], diagnostic.detail["column"], diagnostic.detail["pointer"]) == (
        line,
        column,
        "/week",
    )


def test_parse_errors_give_the_line_and_column_in_the_file() -> None:
    documents = base_documents()
    documents["graphs/child.yaml"] = "schema: agent-graph.graph.v1\nid: child\nid: again\n"
    error = fails(documents, "parse-failed")
    assert error.message == (
        "graphs/child.yaml:3:1: invalid YAML: duplicate mapping key 'id'; "
        "a key appears once in a mapping: remove or rename one of the two"
    )
    (diagnostic,) = error.diagnostics
    assert diagnostic.path == f"{ROOT}/graphs/child.yaml"
    assert (diagnostic.detail["line"], diagnostic.detail["column"]) == (3, 1)
    documents = base_documents()
    documents["graphs/child.yaml"] = '{"schema": "agent-graph.graph.v1",\n "schema": "x"}'
    assert fails(documents, "parse-failed").message.startswith(
        "graphs/child.yaml:2:2: invalid YAML: duplicate mapping key 'schema'"
    )
    documents = base_documents()
    documents["resources/policy.md"] = "---\nid: policy.delegation\nkind: [procedure\n---\nBody.\n"
    error = fails(documents, "frontmatter-invalid")
    assert error.message.startswith(
        "resources/policy.md:3:17: invalid YAML front matter: expected ',' or ']', but got '<stream end>'; "
        "the '[' opened on line 3, column 7 is never closed: close it with ']' (referenced by node approve"
    ), error.message
    documents["resources/policy.md"] = "---\nid: policy.delegation\nkind: *nothing\n---\nBody.\n"
    error = fails(documents, "frontmatter-invalid")
    assert error.message.startswith(
        "resources/policy.md:3:7: invalid YAML front matter: alias *nothing refers to no anchor before it"
    ), error.message


# Broken YAML as authors break it: (text, line, column, words the hint must hold).
_BROKEN_YAML = [
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\nnodes:\n  - id: a\n    kind: action\n   reasonCode: x\n",
        6, 4, ["line 6 is indented 3 spaces", "block that starts on line 4", "2 or 4"], id="indentation",
    ),
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\nedges:\n  - {from: a, to: b\n  - {from: b, to: c}\n",
        5, 3, ["the '{' opened on line 4, column 5 is not closed", "close it with '}'"], id="unclosed-brace",
    ),
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\nentrypoints: {default: a}\nnodes: [a, b\n",
        5, 1, ["the '[' opened on line 4, column 8 is never closed", "close it with ']'"], id="unclosed-bracket",
    ),
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\n\tdescription: x\n",
        3, 2, ["YAML indents with spaces only", "tab on line 3"], id="tab",
    ),
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\ndescription\nnodes: []\n",
        4, 1, ["line 3 has no ':' after its key"], id="missing-colon",
    ),
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\ndescription: run: fast\n",
        3, 17, ["line 3 has a second ': ' inside one value", "quote the value"], id="colon-in-value",
    ),
    pytest.param(
        "schema: agent-graph.graph.v1\nid: child\ndescription: 'it is\nnodes: []\n",
        4, 1, ["the single quote opened on line 3, column 14 is not closed"], id="unclosed-quote",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "column", "words"), _BROKEN_YAML)
def test_a_yaml_syntax_error_says_where_and_why(text: str, line: int, column: int, words: list[str]) -> None:
    documents = base_documents()
    documents["graphs/child.yaml"] = text
    error = fails(documents, "parse-failed")
    assert error.message.startswith(f"graphs/child.yaml:{line}:{column}: invalid YAML: "), error.message
    for word in words:
        assert word in error.message, error.message
    (diagnostic,) = error.diagnostics
    assert (diagnostic.detail["line"], diagnostic.detail["column"]) == (line, column)
    # The position names the file's own line and column: the line there is the one the hint talks about.
    assert 0 < line <= len(text.split("\n"))


def test_a_json_syntax_error_says_where_and_why() -> None:
    documents = base_documents()
    text = '{"schema": "agent-graph.graph.v1", "nodes": [1, 2}'
    documents["graphs/child.json"] = text
    opened, found = text.index("[") + 1, text.index("}") + 1
    documents["provider.yaml"]["graphs"] = [
        "graphs/child.json" if g == "graphs/child.yaml" else g for g in documents["provider.yaml"]["graphs"]
    ]
    error = fails(documents, "parse-failed")
    assert error.message.startswith(
        f"graphs/child.json:1:{found}: invalid JSON: Expecting ',' delimiter; "
        f"the '[' opened on line 1, column {opened} is not closed before line 1, column {found}: close it with ']'"
    ), error.message


def test_a_placed_error_is_shown_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agent_graph._cli.main import main

    documents = base_documents()
    _edges(documents)[0]["to"] = "aprove"
    error = fails(documents, "graph-edge-node-missing")
    assert str(error) == f"graph-edge-node-missing: {error.message}"
    manifest = write_tree(tmp_path, documents)
    assert main(["validate", "--manifest", str(manifest)]) == 1
    assert capsys.readouterr().err == f"ERROR graph-edge-node-missing: {error.message}\n"
