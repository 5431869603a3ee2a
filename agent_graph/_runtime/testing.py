"""Graph tests (``agent-graph.test.v1``): declarative expectations over evaluate and route.

A test evaluates ``graph``/``entry`` with ``state``; every present ``expect``
field is compared and a failure is written ``<field>: expected X, received Y``
(behaviour.md §8). Tests never execute Actions. Files are found and read
through the injected file system. Given a
:class:`~agent_graph._core.graph_coverage.CoverageCollector`, the tests'
evaluations also count towards coverage of the Graphs.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from .._core.errors import AgentGraphError, os_error
from .._core.evaluate import evaluate, evaluate_with_candidates
from .._core.graph_coverage import CoverageCollector
from .._core.model import ErrorBody, GateActionPlan, Route, TestCase, TestResult
from .._core.provider import Provider, loaded_provider
from .._core.route import route_evaluated
from .._core.state import check_state
from .._load.files import provider_file_system
from .._load.fs import FileSystem, OSFileSystem
from .._syntax import schema as _schema
from .._syntax.parse import DEFAULT_MAX_FILE_BYTES, parse_structured
from .._syntax.syntax_hints import placed_syntax_error

_TEST_FILE = re.compile(r"\.(?:ya?ml|json)$", re.IGNORECASE)
_NONE = "<none>"


def _js(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def discover_tests(path: str, fs: FileSystem | None = None) -> list[str]:
    """The test files at ``path``: the file itself, or every ``.yaml``/``.yml``/``.json`` below a directory."""
    fs = fs or OSFileSystem()
    absolute = fs.absolute(path)
    kind = fs.kind(absolute)
    if kind is None:
        raise AgentGraphError("test-path-missing", f"Graph test path does not exist: {absolute}")
    if kind == "file":
        return [absolute]
    return [f for f in fs.list_files(absolute) if _TEST_FILE.search(f)]


def _step_field(plan: GateActionPlan | Route | None, name: str) -> Any:
    steps = plan.command_plan if plan is not None else ()
    if not steps:
        return None
    return getattr(steps[0], name, None)


def run_test_case(
    provider: Provider,
    case: TestCase,
    path: str,
    *,
    workspace: str = "/",
    coverage: CoverageCollector | None = None,
) -> TestResult:
    """Run one parsed test case against a loaded Provider (its evaluation counted by ``coverage``, if given)."""
    state = case.state
    facts = state.facts if state and state.facts is not None else {}
    outcomes = state.outcomes if state and state.outcomes is not None else {}
    authorities = list(state.authorities) if state and state.authorities is not None else []
    expect = case.expect
    failures: list[str] = []
    if coverage is not None:
        evaluation = coverage.evaluate(
            case.graph, case.entry, facts=facts, outcomes=outcomes, authorities=authorities
        )
    else:
        evaluation = evaluate(
            provider, case.graph, case.entry, facts=facts, outcomes=outcomes, authorities=authorities
        )
    # A state key naming no node makes a test pass or fail for the wrong reason: it fails the test.
    failures.extend(
        f"state: {d.message}"
        for d in check_state(provider, case.graph, case.entry, outcomes=outcomes)
        if d.code == "state-key-unknown"
    )
    primary = evaluation.primary_route

    def compare(label: str, expected: Any, actual: Any) -> None:
        if expected is not None and actual != expected:
            failures.append(
                f"{label}: expected {expected}, received {actual if actual is not None else _NONE}"
            )

    if evaluation.status_code != expect.status_code:
        failures.append(f"statusCode: expected {expect.status_code}, received {evaluation.status_code}")
    compare("primaryNode", expect.primary_node, primary.node if primary else None)
    compare("primaryReasonCode", expect.primary_reason_code, primary.reason_code if primary else None)
    if expect.alternative_nodes is not None:
        actual_nodes = [r.node for r in evaluation.alternative_routes]
        if actual_nodes != list(expect.alternative_nodes):
            failures.append(
                f"alternativeNodes: expected {_js(list(expect.alternative_nodes))}, received {_js(actual_nodes)}"
            )
    compare("availability", expect.availability, primary.availability if primary else None)
    compare("outcome", expect.outcome, evaluation.outcome)
    for code in expect.diagnostics_include or ():
        if not any(d.code == code for d in evaluation.diagnostics):
            failures.append(f"diagnostic missing: {code}")
    route_fields = (
        expect.command,
        expect.handler,
        expect.required_resources,
        expect.recommended_resources,
        expect.gate_resolution,
        expect.inspection_command,
        expect.inspection_handler,
        expect.inspection_skill,
        expect.inspection_input_schema,
        expect.resolution_command,
        expect.resolution_handler,
        expect.resolution_skill,
        expect.resolution_input_schema,
        expect.record_node,
    )
    if any(value is not None for value in route_fields):
        if primary is None:
            failures.append("route assertions require a primary route")
        else:
            # The same state again: the Provider remembers its evaluation, with the candidates a route needs.
            again, candidates = evaluate_with_candidates(
                provider, case.graph, case.entry, facts, outcomes, authorities
            )
            resolved = route_evaluated(
                provider,
                again,
                candidates,
                primary.route_id,
                revision=evaluation.revision,
                workspace=workspace,
            )
            compare("command", expect.command, _step_field(resolved, "command"))
            compare("handler", expect.handler, _step_field(resolved, "handler"))
            for label, expected, locations in (
                ("requiredResources", expect.required_resources, resolved.resources.required),
                ("recommendedResources", expect.recommended_resources, resolved.resources.recommended),
            ):
                ids = [loc.id for loc in locations]
                if expected is not None and ids != list(expected):
                    failures.append(f"{label}: expected {_js(list(expected))}, received {_js(ids)}")
            gate = resolved.gate
            compare("gateResolution", expect.gate_resolution, gate.resolution if gate else None)
            for prefix, plan in (
                ("inspection", gate.inspection_action if gate else None),
                ("resolution", gate.resolution_action if gate else None),
            ):
                action = plan.action if plan else None
                compare(
                    f"{prefix}Command", getattr(expect, f"{prefix}_command"), _step_field(plan, "command")
                )
                compare(
                    f"{prefix}Handler", getattr(expect, f"{prefix}_handler"), _step_field(plan, "handler")
                )
                compare(
                    f"{prefix}Skill",
                    getattr(expect, f"{prefix}_skill"),
                    action.skill.id if action and action.skill else None,
                )
                compare(
                    f"{prefix}InputSchema",
                    getattr(expect, f"{prefix}_input_schema"),
                    action.input_schema.id if action and action.input_schema else None,
                )
            compare("recordNode", expect.record_node, resolved.after_action.record_node)
    return TestResult(name=case.name, path=path, passed=not failures, failures=tuple(failures))


def read_bounded(fs: FileSystem, file: str) -> bytes:
    """The bytes of ``file`` (``file-too-large`` over the parser's limit; an OS error is coded)."""
    try:
        size = fs.size(file)
        if size > DEFAULT_MAX_FILE_BYTES:
            raise AgentGraphError(
                "file-too-large", f"{file} is {size} bytes, over the limit of {DEFAULT_MAX_FILE_BYTES} bytes"
            )
        return fs.read_bytes(file)
    except OSError as error:
        raise os_error(error, file, "read", writing=False) from None


def read_test_case(data: bytes, path: str, *, display: str | None = None) -> TestCase:
    """Parse and check one ``agent-graph.test.v1`` file's bytes (``entry`` defaults to ``default``).

    Schema violations name the file as ``display`` (default ``path``) with line and column.
    """
    try:
        raw = parse_structured(data, path)
    except AgentGraphError as error:
        raise placed_syntax_error(error, display or path) from None
    _schema.validate(
        "test-case", raw, path, source=lambda: data.decode("utf-8", errors="replace"), display=display
    )
    case: TestCase = msgspec.convert(raw, TestCase)
    return case


def _display(path: str, base: str) -> str:
    prefix = base.rstrip("/") + "/"
    return path[len(prefix) :] if path.startswith(prefix) else path


def errored_result(path: str, error: AgentGraphError, *, name: str | None = None) -> TestResult:
    """The result of a test file that could not be read or run: not passed, with the error."""
    return TestResult(
        name=name or path.rsplit("/", 1)[-1],
        path=path,
        passed=False,
        failures=(f"{error.code}: {error.message}",),
        error=ErrorBody(code=error.code, message=error.message, diagnostics=error.diagnostics),
    )


def run_graph_tests(
    provider: Provider,
    path: str,
    *,
    fs: FileSystem | None = None,
    workspace: str | None = None,
    coverage: CoverageCollector | None = None,
) -> list[TestResult]:
    """Run every graph test at ``path`` (a file or a directory searched recursively).

    With ``coverage`` (a :class:`~agent_graph.testing.CoverageCollector` of the same
    Provider), every test's evaluation is counted; ``coverage.report()`` then
    says which nodes, edges, outcomes and Gate resolutions the tests exercised.

    Raises ``test-path-missing`` and ``test-cases-empty``. Every other problem
    stays with its file: a file that cannot be read, parsed or checked, or
    whose test cannot be run, is a result with ``error`` (and not passed), and
    the remaining files still run.
    """
    loaded_provider(provider, "run_graph_tests")
    if coverage is not None and not isinstance(coverage, CoverageCollector):
        raise AgentGraphError(
            "argument-invalid", f"coverage must be a CoverageCollector or None, not {type(coverage).__name__}"
        )
    if coverage is not None and coverage.provider is not provider:
        raise AgentGraphError(
            "coverage-provider-mismatch",
            "The coverage collector belongs to another Provider: make one with CoverageCollector(provider)",
        )
    fs = fs or provider_file_system(provider)
    files = discover_tests(path, fs)
    if not files:
        raise AgentGraphError(
            "test-cases-empty", f"No YAML or JSON graph test cases found: {fs.absolute(path)}"
        )
    base = fs.absolute(".")
    results: list[TestResult] = []
    for file in files:
        case: TestCase | None = None
        try:
            data = read_bounded(fs, file)
            case = read_test_case(data, file, display=_display(file, base))
            results.append(
                run_test_case(provider, case, file, workspace=workspace or base, coverage=coverage)
            )
        except AgentGraphError as error:
            results.append(errored_result(file, error, name=case.name if case is not None else None))
    return results
