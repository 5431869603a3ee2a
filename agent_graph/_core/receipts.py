"""Read receipts a host keeps for one conversation: the latest receipt per resource ID.

:class:`Receipts` is what a host adds each receipt to after handing a resource
to its Agent (``ResourceReader.read`` returns one) and passes as ``receipts=``
to ``route`` or ``next_step``. It is plain data owned by the host: it grows
with the resources read (one entry per resource ID, the latest kept), does no
I/O and is never stored in a Run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import msgspec

from .errors import AgentGraphError
from .model import ReadReceipt, ReadReceipts

__all__ = ["RECEIPTS_SCHEMA", "Receipts"]

RECEIPTS_SCHEMA = "agent-graph.resource-read-receipts.v1"


def _receipt(value: ReadReceipt | Mapping[str, Any]) -> ReadReceipt:
    if isinstance(value, ReadReceipt):
        return value
    if isinstance(value, Mapping):
        identity = value.get("id")
        digest = value.get("digest")
        revision = value.get("revision")
        if (
            isinstance(identity, str)
            and identity
            and (digest is None or isinstance(digest, str))
            and (revision is None or isinstance(revision, str))
            and (digest is not None or revision is not None)
        ):
            return ReadReceipt(id=identity, digest=digest, revision=revision)
    raise AgentGraphError(
        "resource-receipts-invalid",
        "A read receipt is {id, digest?, revision?} with a non-empty id and a digest or a revision",
    )


class Receipts:
    """The latest read receipt per resource ID, usable as ``receipts=`` of ``route`` and ``next_step``.

    ``provider`` (a Provider ID, or None to take the Provider of each route)
    binds the receipts to one Provider; a route of another Provider refuses
    them with ``resource-receipts-provider-mismatch``.
    """

    __slots__ = ("_latest", "provider")

    def __init__(
        self, receipts: Iterable[ReadReceipt | Mapping[str, Any]] = (), *, provider: str | None = None
    ) -> None:
        if provider is not None and not isinstance(provider, str):
            identity = getattr(getattr(provider, "manifest", None), "id", None)
            if not isinstance(identity, str):
                raise AgentGraphError(
                    "argument-invalid", "provider must be a Provider, a Provider ID or None"
                )
            provider = identity
        self.provider: str | None = provider
        self._latest: dict[str, ReadReceipt] = {}
        for receipt in receipts:
            self.add(receipt)

    def add(self, receipt: ReadReceipt | Mapping[str, Any]) -> ReadReceipt:
        """Keep ``receipt`` as the latest of its resource ID (replacing an older one); returns it."""
        checked = _receipt(receipt)
        self._latest.pop(checked.id, None)  # the newest goes last
        self._latest[checked.id] = checked
        return checked

    def get(self, resource_id: str) -> ReadReceipt | None:
        """The latest receipt of ``resource_id``, or None."""
        return self._latest.get(resource_id)

    def discard(self, resource_id: str) -> None:
        """Forget the receipt of ``resource_id`` (the Agent no longer holds that content)."""
        self._latest.pop(resource_id, None)

    def clear(self) -> None:
        """Forget every receipt (a new conversation)."""
        self._latest.clear()

    def __len__(self) -> int:
        return len(self._latest)

    def __iter__(self) -> Iterator[ReadReceipt]:
        return iter(tuple(self._latest.values()))

    def __contains__(self, resource_id: object) -> bool:
        return resource_id in self._latest

    def read_receipts(self, provider: str | None = None) -> ReadReceipts:
        """The ``agent-graph.resource-read-receipts.v1`` object for ``provider`` (default: the bound one)."""
        identity = self.provider if self.provider is not None else provider
        if identity is None:
            raise AgentGraphError(
                "argument-invalid", "Receipts need a Provider ID: pass provider= or bind one"
            )
        return ReadReceipts(schema=RECEIPTS_SCHEMA, provider=identity, receipts=tuple(self._latest.values()))

    def to_json(self, provider: str | None = None) -> Any:
        """The wire form of :meth:`read_receipts`."""
        return msgspec.json.decode(msgspec.json.encode(self.read_receipts(provider)))

    def __repr__(self) -> str:
        return f"<Receipts provider={self.provider!r} {len(self._latest)} resources>"
