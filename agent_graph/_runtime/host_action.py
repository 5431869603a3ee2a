"""Host-action resources: the input digest, result validation and read receipts (behaviour.md §11).

A host-action resource is content a host handler produces. The route gives
the host an ``agent-graph.resource-location.host-action.v1``; the host runs
its handler and answers with an ``agent-graph.host-action-result.v1``. This
module checks that answer against the location, one error code per failure,
and builds the read receipt the conversation keeps afterwards:

=====================================  ==========================================================
``host-action-result-invalid``         the envelope does not have the result's shape
``host-action-handler-mismatch``       the result names another handler than the location
``host-action-input-digest-mismatch``  the result answers another input (``input_digest``)
``host-action-output-schema-mismatch`` the output declares another protocol identity
``host-action-output-exactly-one``     the output has both ``inline`` and ``resource``, or neither
``host-action-output-inline-invalid``  the inline value does not match the output JSON Schema
=====================================  ==========================================================

The checks run in that order. Validating the inline value needs the output
schema document: pass it as ``output_schema`` or pass the ``provider`` the
location came from (its materializer's ``outputSchema`` file is then read,
which is the only I/O here). Nothing here runs a handler.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from .._core.canonical import digest_value
from .._core.errors import AgentGraphError
from .._core.model import HostActionLocation, HostActionResult, ReadReceipt
from .._core.plain import plain_json
from .._syntax import schema as _schema

if TYPE_CHECKING:
    from .._core.provider import Provider

__all__ = [
    "host_action_input_digest",
    "host_action_output_digest",
    "host_action_read_receipt",
    "validate_host_action_result",
]

RESULT_SCHEMA = "agent-graph.host-action-result.v1"
LOCATION_SCHEMA = "agent-graph.resource-location.host-action.v1"

_envelope_schema: dict[str, Any] | None = None


def _plain(value: Any, label: str) -> Any:
    """``value`` (a Struct or JSON data) as plain JSON data (``json-invalid`` otherwise)."""
    if isinstance(value, msgspec.Struct):
        try:
            value = msgspec.to_builtins(value)
        except (TypeError, ValueError, RecursionError) as error:
            raise AgentGraphError(
                "json-invalid", f"The {label} holds a value that is not JSON: {error}"
            ) from None
    elif isinstance(value, Mapping) and not isinstance(value, dict):
        value = dict(value.items())
    return plain_json(value, f"The {label}")


def _location(location: HostActionLocation | Mapping[str, Any]) -> HostActionLocation:
    if not isinstance(location, (HostActionLocation, Mapping)):
        raise AgentGraphError("resource-location-invalid", f"Expected an {LOCATION_SCHEMA} location")
    raw = _plain(location, "host-action location")
    if isinstance(raw, dict) and raw.get("schema") == LOCATION_SCHEMA:
        try:
            converted: HostActionLocation = msgspec.convert(raw, HostActionLocation)
        except msgspec.ValidationError as error:
            raise AgentGraphError(
                "resource-location-invalid", f"Not a host-action resource location: {error}"
            ) from None
        return converted
    raise AgentGraphError("resource-location-invalid", f"Expected an {LOCATION_SCHEMA} location")


def host_action_input_digest(location: HostActionLocation | Mapping[str, Any]) -> str:
    """``digest_value({handler, input: {schema, value}})`` of a host-action location."""
    materialize = _location(location).materialize
    return digest_value(
        {
            "handler": materialize.handler,
            "input": {"schema": materialize.input.schema, "value": materialize.input.value},
        }
    )


def _envelope() -> dict[str, Any]:
    """The result schema without its inline/resource ``oneOf``, which has its own error code."""
    global _envelope_schema
    if _envelope_schema is None:
        document = copy.deepcopy(_schema.schema_document("host-action-result"))
        document["properties"]["output"].pop("oneOf", None)
        _envelope_schema = document
    return _envelope_schema


def _output_schema_document(location: HostActionLocation, provider: Provider) -> Any:
    """The output JSON Schema of the materializer behind ``location`` in ``provider``."""
    from .._load.fs import contained_path
    from .._syntax.parse import parse_structured

    path = provider.resources_by_id.get(location.id)
    resource = provider.resources.get(path) if path is not None else None
    if resource is None or resource.materializer is None:
        raise AgentGraphError(
            "resource-missing", f"Provider {provider.manifest.id} has no host-action resource {location.id}"
        )
    if resource.output_schema is not None:
        return resource.output_schema
    action = provider.actions[resource.materializer].definition
    if not action.output_schema:
        raise AgentGraphError(
            "resource-missing", f"Materializer {action.id} of {location.id} has no outputSchema"
        )
    schema_path = contained_path(provider.root, action.output_schema, "materializer output schema")
    from .._load.files import read_provider_file

    data = read_provider_file(provider, schema_path, f"the output schema of {action.id}", None)
    return parse_structured(data, schema_path)


def validate_host_action_result(
    location: HostActionLocation | Mapping[str, Any],
    result: HostActionResult | Mapping[str, Any],
    *,
    provider: Provider | None = None,
    output_schema: Mapping[str, Any] | bool | None = None,
) -> HostActionResult:
    """Check a host's ``agent-graph.host-action-result.v1`` against the location it answers.

    Returns the result as a :class:`HostActionResult`. Raises, in this order:
    ``host-action-result-invalid`` (shape), ``host-action-handler-mismatch``,
    ``host-action-input-digest-mismatch``, ``host-action-output-schema-mismatch``,
    ``host-action-output-exactly-one`` (both or neither of ``inline`` and
    ``resource``) and ``host-action-output-inline-invalid``. The inline value
    is checked against ``output_schema`` when given, else against the output
    schema of the location's materializer in ``provider`` when given; with
    neither, only its presence is checked.
    """
    expected = _location(location)
    source = "host-action result"
    if not isinstance(result, (HostActionResult, Mapping)):
        raise AgentGraphError("host-action-result-invalid", "A host-action result must be a JSON object")
    raw: Any = _plain(result, source)
    try:
        _schema.validate_with_schema(_envelope(), raw, source, name="host-action-result.schema.json")
    except AgentGraphError as error:
        raise AgentGraphError(
            "host-action-result-invalid",
            f"The host-action result is not a valid {RESULT_SCHEMA}: {error.message}",
            error.diagnostics,
        ) from None
    materialize = expected.materialize
    if raw["handler"] != materialize.handler:
        raise AgentGraphError(
            "host-action-handler-mismatch",
            f"Result from handler {raw['handler']} does not answer handler {materialize.handler} of {expected.id}",
        )
    digest = host_action_input_digest(expected)
    if raw["input_digest"] != digest:
        raise AgentGraphError(
            "host-action-input-digest-mismatch",
            f"Result input_digest {raw['input_digest']} does not match {digest} of {expected.id}",
        )
    output = raw["output"]
    if output["schema"] != materialize.output_schema:
        raise AgentGraphError(
            "host-action-output-schema-mismatch",
            f"Result output schema {output['schema']} is not {materialize.output_schema}",
        )
    has_inline = "inline" in output
    has_resource = "resource" in output
    if has_inline == has_resource:
        which = "both" if has_inline else "neither"
        raise AgentGraphError(
            "host-action-output-exactly-one",
            f"A host-action output needs exactly one of inline and resource; it has {which}",
        )
    if has_inline:
        document = (
            output_schema
            if output_schema is None or output_schema is True or output_schema is False
            else (_plain(output_schema, "output schema"))
        )
        if document is None and provider is not None:
            document = _output_schema_document(expected, provider)
        if document is not None:
            try:
                _schema.validate_with_schema(
                    document, output["inline"], source, name=materialize.output_schema
                )
            except AgentGraphError as error:
                if error.code != "schema-invalid":
                    raise
                raise AgentGraphError(
                    "host-action-output-inline-invalid",
                    f"The inline output does not match {materialize.output_schema}",
                    error.diagnostics,
                ) from None
    converted: HostActionResult = msgspec.convert(raw, HostActionResult)
    return converted


def host_action_output_digest(result: HostActionResult | Mapping[str, Any]) -> str:
    """The digest a reader sees: ``digest_value(inline)``, or the stored resource's ``digest``."""
    raw: Any = (
        _plain(result, "host-action result") if isinstance(result, (HostActionResult, Mapping)) else None
    )
    output = raw.get("output") if isinstance(raw, dict) else None
    if not isinstance(output, dict):
        raise AgentGraphError("host-action-result-invalid", "A host-action result needs an output object")
    if "inline" in output:
        return digest_value(output["inline"])
    resource = output.get("resource")
    if isinstance(resource, dict) and isinstance(resource.get("digest"), str):
        digest: str = resource["digest"]
        return digest
    raise AgentGraphError("host-action-output-exactly-one", "A host-action output needs inline or resource")


def host_action_read_receipt(
    location: HostActionLocation | Mapping[str, Any],
    result: HostActionResult | Mapping[str, Any],
    *,
    provider: Provider | None = None,
    output_schema: Mapping[str, Any] | bool | None = None,
) -> ReadReceipt:
    """The read receipt ``{id, digest, revision}`` for a validated host-action result.

    The result is validated first (same codes as
    :func:`validate_host_action_result`). ``revision`` is the location's, so
    the location must come from a route (``revision-invalid`` otherwise).
    """
    expected = _location(location)
    checked = validate_host_action_result(expected, result, provider=provider, output_schema=output_schema)
    if not expected.revision:
        raise AgentGraphError(
            "revision-invalid",
            f"Location {expected.id} has no revision; take the location from the route that selected it",
        )
    return ReadReceipt(id=expected.id, digest=host_action_output_digest(checked), revision=expected.revision)
