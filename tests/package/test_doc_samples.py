"""Every Python and shell sample of README.md, docs/ and examples/ runs as written.

Each Markdown file is read top to bottom as one session in a fresh folder that
holds a copy of ``examples/``; the session starts in that folder, which stands
for the repository root (the folder the samples are written from). Fenced
blocks are taken as follows:

* ``python``: run with this interpreter; a block whose first line is
  ``# some/path.py`` is written to that file instead. Every Python sample is
  also type-checked with ``mypy --strict``, as a host's code would be.
* ``sh`` / ``bash``: run with ``bash -e``.
* ``console``: each ``$ command`` runs in turn (``$ cd DIR`` moves the
  session); the output the block shows must appear, in order, in what the
  command prints (paths below the session folder read as ``/work/…``, digests
  and blank space are compared loosely), and a command whose shown output has
  an ``ERROR`` or ``FAIL`` line must fail, any other must succeed.
* ``yaml``, ``toml``, ``json`` whose first line is ``# path``: written to that
  path (``# appended to path`` appends); a ``# examples/…`` path names a file
  of the repository, which must contain the block as shown.

An HTML comment right before a block adjusts it: ``<!-- sample: cd DIR -->``
runs that block from DIR, ``<!-- sample: prelude`` … ``-->`` runs hidden
Python before a Python block (and type-checks them together), and
``<!-- sample: not run: reason -->`` exempts a block, for what a test cannot
do (install the package, run this very test suite). Blocks of any other
language are illustrations and are not run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.paths import REPO
from tests.typecheck import mypy_strict

DOCUMENTS = sorted(
    {
        REPO / "README.md",
        *(REPO / "docs").glob("*.md"),
        REPO / "examples" / "README.md",
        *(REPO / "examples").glob("*/README.md"),
    }
)
BIN = Path(sys.executable).parent
TIMEOUT = 120

_FENCE = re.compile(r"^```([\w-]*)\s*$")
_DIRECTIVE = re.compile(r"<!--\s*sample:\s*(.*?)\s*-->", re.S)
_PATH_LINE = re.compile(r"^#\s+(appended to\s+)?([\w./-]+\.(?:ya?ml|json|toml|py|md))\s*$")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_SPACE = re.compile(r"\s+")


@dataclass
class Block:
    """One fenced block and the directives in the HTML comments right before it."""

    language: str
    text: str
    line: int
    cd: str | None = None
    prelude: str = ""
    skip: str | None = None
    directives: list[str] = field(default_factory=list)


def parse(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    pending: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = _FENCE.match(line)
        if opened and opened.group(1):
            start = index + 1
            index += 1
            while index < len(lines) and lines[index].strip() != "```":
                index += 1
            block = Block(opened.group(1), "\n".join(lines[start:index]) + "\n", start)
            for directive in pending:
                if directive.startswith("cd "):
                    block.cd = directive[3:].strip()
                elif directive.startswith("prelude"):
                    block.prelude = textwrap.dedent(directive[len("prelude") :]).strip("\n") + "\n"
                elif directive.startswith("not run:"):
                    block.skip = directive[len("not run:") :].strip()
                else:
                    raise AssertionError(f"{path.name}:{start}: unknown sample directive {directive!r}")
            blocks.append(block)
            pending = []
        elif line.lstrip().startswith("<!--"):
            comment = [line]
            while "-->" not in comment[-1] and index + 1 < len(lines):
                index += 1
                comment.append(lines[index])
            found = _DIRECTIVE.search("\n".join(comment))
            if found:
                pending.append(found.group(1))
        elif line.strip():
            pending = []
        index += 1
    return blocks


class Session:
    """A folder standing for the repository root, and where the document's reader stands in it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cwd = root
        shutil.copytree(REPO / "examples", root / "examples")
        self.env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "COV_"))}
        self.env["PATH"] = f"{BIN}{os.pathsep}{self.env.get('PATH', '')}"
        self.env["XDG_CACHE_HOME"] = str(root.parent / "cache")  # the command line's load cache stays here
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"

    def place(self, block: Block) -> Path:
        return (self.cwd / block.cd).resolve() if block.cd else self.cwd

    def run(self, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )

    def shown(self, text: str) -> list[str]:
        """Output lines as compared: the session folder read as /work, digests and blank space loosened."""
        text = text.replace(str(self.root), "/work")
        text = _DIGEST.sub("sha256:…", text)
        return [_SPACE.sub(" ", line).strip() for line in text.splitlines() if line.strip()]


def _where(path: Path, block: Block) -> str:
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    return f"{shown}:{block.line}"


def _python(session: Session, path: Path, block: Block, number: int, typed: list[tuple[str, str]]) -> None:
    first = block.text.splitlines()[0] if block.text.strip() else ""
    named = _PATH_LINE.match(first)
    typed.append((f"{path.stem}_{number}", block.prelude + block.text))
    if named is not None:
        target = session.place(block) / named.group(2)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text, encoding="utf-8")
        return
    script = session.root.parent / f"sample_{number}.py"
    script.write_text(block.prelude + block.text, encoding="utf-8")
    done = session.run([sys.executable, str(script)], session.place(block))
    assert done.returncode == 0, f"{_where(path, block)} failed:\n{done.stdout}\n{done.stderr}"


def _shell(session: Session, path: Path, block: Block) -> None:
    done = session.run(["bash", "-e", "-c", block.text], session.place(block))
    assert done.returncode == 0, f"{_where(path, block)} failed:\n{done.stdout}\n{done.stderr}"


def _console(session: Session, path: Path, block: Block) -> None:
    commands: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands and commands[-1][0].endswith("\\"):
            commands[-1] = (commands[-1][0][:-1] + line, commands[-1][1])
        elif commands:
            commands[-1][1].append(line)
    for command, expected in commands:
        moved = re.fullmatch(r"cd\s+(\S+)", command.strip())
        if moved:
            session.cwd = (session.cwd / moved.group(1)).resolve()
            assert session.cwd.is_dir(), f"{_where(path, block)}: no folder {moved.group(1)}"
            continue
        done = session.run(["bash", "-c", command], session.place(block))
        output = session.shown(done.stdout + done.stderr)
        wanted = [line for line in session.shown("\n".join(expected)) if line != "…"]
        failing = any(line.startswith(("ERROR ", "FAIL ")) for line in wanted)
        assert (done.returncode != 0) == failing, (
            f"{_where(path, block)}: `{command}` exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        )
        position = 0
        for line in wanted:
            while position < len(output) and output[position] != line:
                position += 1
            assert position < len(output), (
                f"{_where(path, block)}: `{command}` did not print {line!r}; it printed:\n"
                + "\n".join(output)
            )
            position += 1


def _file(session: Session, path: Path, block: Block) -> None:
    lines = block.text.splitlines(keepends=True)
    named = _PATH_LINE.match(lines[0]) if lines else None
    if named is None:
        return
    body = "".join(lines[1:])
    if named.group(2).startswith("examples/"):
        source = (REPO / named.group(2)).read_text(encoding="utf-8")
        assert body.strip() in source, f"{_where(path, block)} does not show {named.group(2)} as it is"
        return
    target = session.place(block) / named.group(2)
    target.parent.mkdir(parents=True, exist_ok=True)
    if named.group(1):
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(body)
    else:
        target.write_text(body, encoding="utf-8")


def run_document(path: Path, root: Path) -> list[tuple[str, str]]:
    """Run every sample of ``path`` in a session below ``root``; the Python samples to type-check."""
    session = Session(root / "work")
    typed: list[tuple[str, str]] = []
    for number, block in enumerate(parse(path)):
        if block.skip is not None:
            assert block.skip, f"{_where(path, block)}: say why the sample is not run"
            continue
        if block.language == "python":
            _python(session, path, block, number, typed)
        elif block.language in ("sh", "bash"):
            _shell(session, path, block)
        elif block.language == "console":
            _console(session, path, block)
        elif block.language in ("yaml", "yml", "toml", "json"):
            _file(session, path, block)
    return typed


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(REPO)) for p in DOCUMENTS])
@pytest.mark.slow
def test_every_sample_of_the_document_runs(path: Path, tmp_path: Path) -> None:
    run_document(path, tmp_path)


@pytest.mark.slow
def test_every_python_sample_passes_mypy_strict(tmp_path: Path) -> None:
    """A host's code written from the docs type-checks: the samples import only public names, typed."""
    pytest.importorskip("mypy", reason="mypy is part of the test extra")
    folder = tmp_path / "samples"
    folder.mkdir()
    files: list[str] = []
    for path in DOCUMENTS:
        for number, block in enumerate(parse(path)):
            if block.language == "python" and block.skip is None:
                target = folder / f"{path.parent.name}_{path.stem}_{number}.py".replace("-", "_")
                target.write_text(block.prelude + block.text, encoding="utf-8")
                files.append(str(target))
    assert len(files) >= 8
    done = mypy_strict(files, tmp_path / "cache")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_parser_reads_directives_and_fences(tmp_path: Path) -> None:
    sample = tmp_path / "doc.md"
    sample.write_text(
        "Text.\n\n<!-- sample: cd examples/x -->\n```sh\necho hi\n```\n\n"
        "<!-- sample: prelude\nimport os\n-->\n```python\nprint(os.sep)\n```\n\n"
        "<!-- sample: not run: it installs things -->\n```sh\npip install .\n```\n\n"
        "<!-- sample: cd a -->\nA paragraph in between drops the directive.\n\n```text\nplain\n```\n",
        encoding="utf-8",
    )
    blocks = parse(sample)
    assert [(b.language, b.cd, b.prelude, b.skip) for b in blocks] == [
        ("sh", "examples/x", "", None),
        ("python", None, "import os\n", None),
        ("sh", None, "", "it installs things"),
        ("text", None, "", None),
    ]


def test_a_console_block_checks_exit_status_and_output(tmp_path: Path) -> None:
    document = tmp_path / "doc.md"
    document.write_text(
        "```console\n$ agent-graph test --manifest examples/weekly-report/provider.yaml examples/weekly-report/tests\n"
        "11/11 graph test(s) passed\n```\n",
        encoding="utf-8",
    )
    run_document(document, tmp_path / "ok")
    document.write_text(
        "```console\n$ agent-graph validate --manifest examples/weekly-report/provider.yaml\nValid provider nobody@0\n```\n",
        encoding="utf-8",
    )
    with pytest.raises(AssertionError, match="did not print"):
        run_document(document, tmp_path / "wrong-output")
    document.write_text(
        "```console\n$ agent-graph validate --manifest nowhere.yaml\nValid\n```\n", encoding="utf-8"
    )
    with pytest.raises(AssertionError, match="exited 1"):
        run_document(document, tmp_path / "wrong-status")
