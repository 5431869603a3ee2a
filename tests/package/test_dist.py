"""The wheel and the sdist hold what they must (tests/dist_check.py), and the schemas are read from either place.

The JSON Schemas have one source, the top-level ``schemas/``: a wheel holds them
as package data of ``agent_graph._syntax``, an editable install or a checkout on
``PYTHONPATH`` reads the checkout's folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from agent_graph._syntax.schema import SCHEMA_NAMES, schema_document, schema_path, schema_root
from tests import dist_check

pytest.importorskip("hatchling.build", reason="building needs hatchling (the test extra installs it)")

REPO = dist_check.REPO


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return dist_check.build(tmp_path_factory.mktemp("dist"))


def test_the_wheel_and_the_sdist_hold_what_they_must_and_nothing_they_must_not(
    built: tuple[Path, Path],
) -> None:
    wheel, sdist = built
    assert dist_check.wheel_problems(wheel) == []
    assert dist_check.sdist_problems(sdist) == []
    with zipfile.ZipFile(wheel) as archive:
        shipped = [n for n in archive.namelist() if n.startswith("agent_graph/_syntax/schemas/")]
    assert len(shipped) == len(SCHEMA_NAMES) == len(list((REPO / "schemas").glob("*.schema.json")))


def test_the_checks_find_what_is_missing_and_what_must_not_be_shipped(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    wheel, sdist = built
    doctored = tmp_path / wheel.name
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(doctored, "w") as target:
        for item in source.infolist():
            if item.filename == "agent_graph/_syntax/schemas/graph.schema.json":
                continue
            data = source.read(item)
            if item.filename == "agent_graph/_syntax/schemas/run.schema.json":
                data = data.replace(b"agent-graph.run.v1", b"agent-graph.run.v2")
            target.writestr(item, data)
        target.writestr("tests/test_x.py", "")
        target.writestr("agent_graph/__pycache__/types.cpython-311.pyc", b"")
    assert dist_check.wheel_problems(doctored) == [
        "wheel: agent_graph/_syntax/schemas/graph.schema.json is missing",
        "wheel: agent_graph/_syntax/schemas/run.schema.json differs from schemas/run.schema.json",
        "wheel: agent_graph/__pycache__/types.cpython-311.pyc must not be shipped",
        "wheel: tests/test_x.py is outside the package",
    ]
    bad = tmp_path / sdist.name
    with tarfile.open(sdist) as source, tarfile.open(bad, "w:gz") as target:
        for member in source.getmembers():
            if member.name.endswith("/schemas/route.schema.json"):
                continue
            target.addfile(member, source.extractfile(member) if member.isfile() else None)
        extra = tarfile.TarInfo(f"{source.getnames()[0].split('/')[0]}/.venv/bin/python")
        target.addfile(extra)
    root = bad.name.removesuffix(".tar.gz")
    assert dist_check.sdist_problems(bad) == [
        f"sdist: {root}/schemas/route.schema.json is missing",
        f"sdist: {root}/.venv/bin/python must not be shipped",
    ]


def _run(code: str, path: Path) -> subprocess.CompletedProcess[str]:
    """``code`` in a child whose ``agent_graph`` is the one at ``path`` (PYTHONPATH comes first), run there."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    manifest = str(REPO / "examples" / "weekly-report" / "provider.yaml")
    return subprocess.run(
        [sys.executable, "-c", code, manifest],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


_PROBE = """
import json, sys
import agent_graph as ag
from agent_graph._syntax.schema import schema_document, schema_root
provider = ag.load_provider(sys.argv[1])
print(json.dumps({"package": ag.__file__, "root": str(schema_root()),
                  "id": schema_document("graph")["$id"], "provider": provider.manifest.id}))
"""


def test_an_installed_wheel_reads_its_schemas_as_package_data(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    wheel, _ = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    done = _run(_PROBE, site)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["package"] == str(site / "agent_graph" / "__init__.py")
    assert answer["root"] == str(site / "agent_graph" / "_syntax" / "schemas")
    assert answer["id"] == "https://agent-graph.dev/schemas/0.3.1/graph.schema.json"
    assert answer["provider"] == "examples/weekly-report"
    (site / "agent_graph" / "_syntax" / "schemas" / "graph.schema.json").unlink()  # read from there, no other
    failed = _run(_PROBE, site)
    assert failed.returncode != 0 and "graph.schema.json" in failed.stderr


def test_a_checkout_reads_the_top_level_schemas(tmp_path: Path) -> None:
    assert schema_root() == REPO / "schemas"
    assert not (REPO / "agent_graph" / "_syntax" / "schemas").exists()  # one source: no copy in the package
    for name in SCHEMA_NAMES:
        assert schema_path(name) == REPO / "schemas" / f"{name}.schema.json"
        assert schema_document(name) == json.loads(schema_path(name).read_text(encoding="utf-8"))
    copy = tmp_path / "checkout"  # a copy of the checkout on PYTHONPATH, as .ci/run tests one
    shutil.copytree(REPO / "agent_graph", copy / "agent_graph", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "schemas", copy / "schemas")
    done = _run(_PROBE, copy)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["package"] == str(copy / "agent_graph" / "__init__.py")
    assert answer["root"] == str(copy / "schemas")
    shutil.rmtree(copy / "schemas")
    failed = _run(_PROBE, copy)
    assert failed.returncode != 0
    assert "schema-document-invalid: The shipped JSON Schemas are missing" in failed.stderr


def test_every_schema_has_a_stable_id_naming_the_protocol_and_its_version() -> None:
    from agent_graph import PROTOCOL_VERSION

    for name in SCHEMA_NAMES:
        document = schema_document(name)
        assert document["$id"] == f"https://agent-graph.dev/schemas/{PROTOCOL_VERSION}/{name}.schema.json"
        assert document["$schema"] == "http://json-schema.org/draft-07/schema#"
        text = schema_path(name).read_text(encoding="utf-8")
        for ref in json.loads(json.dumps([*_refs(document)])):
            assert ref.startswith("#/"), (name, ref)  # every $ref is local: the documents stand alone
            assert _resolve(document, ref) is not None, (name, ref)
        assert text.endswith("\n")


def _refs(value: object) -> list[str]:
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$ref"), str):
                found.append(item["$ref"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _resolve(document: dict[str, object], ref: str) -> object:
    target: object = document
    for part in ref[2:].split("/"):
        if not isinstance(target, dict) or part not in target:
            return None
        target = target[part]
    return target
