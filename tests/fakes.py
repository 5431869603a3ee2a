"""Time and identity a test decides: the one fake wall clock, monotonic clock and ID factory of the suite.

Each is a callable a Run store (``clock=``, ``monotonic=``, ``new_id=``) or
``verify`` (``clock=``) takes in place of the system's. Every reading moves
on by a fixed step, so what a test reads back (timestamps, Run IDs,
deadlines) follows from the number of readings alone.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

__all__ = ["START", "FakeClock", "FakeMonotonic", "Ids"]

#: Where a fake wall clock starts: its first reading.
START = datetime(2026, 1, 31, 9, 30, tzinfo=timezone.utc)


class FakeClock:
    """A wall clock (aware UTC datetimes) that reads ``start`` first and moves ``step`` at every reading."""

    def __init__(self, start: datetime = START, step: timedelta = timedelta(seconds=1)) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> datetime:
        moment = self.now
        self.now += self.step
        return moment


class FakeMonotonic:
    """A monotonic clock (seconds) that reads ``start`` first and moves ``step`` at every reading.

    ``readings`` counts the readings so far; :meth:`advance` moves it on as a test says.
    """

    def __init__(self, start: float = 0.0, step: float = 1.0) -> None:
        self.start = start
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        moment = self.start + self.step * self.readings
        self.readings += 1
        return moment

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, beside its steps."""
        self.start += seconds


class Ids:
    """Run IDs ``run-1``, ``run-2`` … (another ``prefix`` than ``run-`` if given), one per call."""

    def __init__(self, prefix: str = "run-") -> None:
        self.prefix = prefix
        self.count = 0

    def __call__(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"
