"""Providers built in Python (``agent_graph.define``): building and loading one against loading its YAML.

``python -m benchmarks.builder`` measures it and rewrites its section of
docs/performance.md (``python -m benchmarks`` runs it with the rest). Two
1,000-node Providers, each made by the builder and written once to a folder:

* a chain whose nodes share four Actions (every runner), with resources on
  every fifth node and a ``satisfiedBy`` on each (the scaling chain's shape);
* the same chain with an Action file of its own for every node (1,000 more
  files to read).

For each, in interleaved rounds: the builder's declarations and ``load()``
(from memory), the loader on the folder it wrote (``cache=False``), and the
loader on the same bytes in a ``MemoryFileSystem`` (what the builder's load
would cost if it parsed its own files again).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from .runner import DEFAULT_OUTPUT, Result, Section, _fmt, calls, measure_interleaved

BEGIN = "<!-- builder:begin -->"
END = "<!-- builder:end -->"
SECTION = Section(BEGIN, END)
NODES = 1_000


def build(nodes: int = NODES, *, own_actions: bool = False) -> Any:
    """A ``nodes``-node chain declared with the builder (answers the builder)."""
    import agent_graph.define as agd

    p = agd.provider("bench.builder", "1.0.0", name="bench.builder", agent_graph="^0.3.0")
    g = p.graph("main")
    writer = agd.skill("writer", "Writes one part.", "# Writer\n", files={"reference.md": "# Reference\n"})
    check = agd.file("scripts/check.py", "print('ok')\n")
    output = agd.json_schema({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})

    def action(index: int) -> agd.ActionDef:
        name = f"a{index}" if own_actions else None
        kind = index % 4
        if kind == 0:
            return agd.command(f"make step-{index}" if own_actions else "make step", effect="write", id=name)
        if kind == 1:
            return agd.script(
                check, runtime="python", effect="read", args=["--strict"], cwd="provider", id=name
            )
        if kind == 2:
            return agd.agent(writer, effect="write", output_schema=output, id=name)
        return agd.host("host.publish", effect="external", id=name)

    shared = [action(i) for i in range(4)]
    procedure = agd.markdown("procedure.step", "procedure", "# Procedure\n", media_type="text/markdown")
    template = agd.markdown("template.step", "template", "# Template\n")
    previous = None
    for index in range(nodes - 1):
        resources: dict[str, Any] = (
            {"required": [procedure], "recommended": [template]} if index % 5 == 0 else {}
        )
        node = g.action(
            f"n{index}",
            action(index) if own_actions else shared[index % 4],
            description=f"Step n{index}",
            reason="route.step",
            proof=f"steps.n{index}",
            **resources,
        )
        if previous is not None:
            previous.to(node)
        previous = node
    assert previous is not None
    previous.to(g.terminal("end", description="Done"))
    return p


def measure(rounds: int = 5, budget: float = 3.0) -> tuple[list[Result], list[str]]:
    import agent_graph as ag

    results: list[Result] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="agent-graph-builder-") as temporary:
        for shape, own in (("4 shared Actions", False), ("an Action per node", True)):
            builder = build(own_actions=own)
            folder = os.path.join(temporary, "own" if own else "shared")
            builder.write(folder)
            manifest = os.path.join(folder, "provider.yaml")
            files = builder.files()
            memory = ag.MemoryFileSystem({f"/p/{path}": data for path, data in files.items()})
            size = sum(len(data) for data in files.values())
            notes.append(f"{shape}: {len(files)} files, {size / 1024:,.0f} KiB")
            rows = [
                ("python", calls(lambda own=own: build(own_actions=own).load(), 50)),
                ("yaml", calls(lambda manifest=manifest: ag.load_provider(manifest, cache=False), 50)),
                ("memory", calls(lambda memory=memory: ag.load_provider("/p/provider.yaml", fs=memory), 50)),
                ("declare", calls(lambda own=own: build(own_actions=own), 50)),
            ]
            samples = measure_interleaved(rows, budget=budget, rounds=rounds)
            labels = {
                "python": f"{shape}: declare in Python and `load()`",
                "yaml": f"{shape}: `load_provider` of the folder it wrote",
                "memory": f"{shape}: `load_provider` of the same bytes in memory",
                "declare": f"{shape}: the declarations alone",
            }
            for key, label in labels.items():
                results.append(Result(f"builder-{own}-{key}", label, samples[key]))
    return results, notes


def render(results: list[Result], notes: list[str]) -> str:
    lines = [
        BEGIN,
        "## Providers built in Python",
        "",
        f"A {NODES:,}-node Provider declared with `agent_graph.define` and loaded with `load()` (from memory),",
        "against the loader reading the YAML the builder wrote (`cache=False`), and the same bytes from a",
        "`MemoryFileSystem`. The builder hands the loader the values it wrote, so nothing is parsed twice;",
        "every file is still hashed and checked against the schemas. Samples are interleaved rounds;",
        "`python -m benchmarks.builder` rewrites this section.",
        "",
        "| work | median | min | max |",
        "|---|---|---|---|",
    ]
    for result in results:
        lines.append(
            f"| {result.label} | {_fmt(result.median)} {result.unit} | {_fmt(result.minimum)} | {_fmt(result.maximum)} |"
        )
    lines += ["", *(f"- {note}" for note in notes), END, ""]
    return "\n".join(lines)


def run(rounds: int = 5, budget: float = 3.0) -> str:
    return render(*measure(rounds, budget))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.builder", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--budget", type=float, default=3.0, help="seconds per row in all (default 3)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="the report to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    section = run(args.rounds, args.budget)
    SECTION.publish(section, args.output, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
