"""A fixed window of recent timings, for the metrics (server/metrics.py)."""

from __future__ import annotations

from array import array


class Samples:
    """The last ``size`` values (seconds) in one flat array of doubles. Appending is
    O(1), and the garbage collector never walks it: a deque of 100,000 floats is walked
    by every full collection, which then stalls the event loop for longer."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values = array("d", bytes(8 * size))
        self._count = 0

    def append(self, value: float) -> None:
        self._values[self._count % self.size] = value
        self._count += 1

    @property
    def count(self) -> int:
        """Every value ever appended (the window keeps the last ``size``)."""
        return self._count

    def __len__(self) -> int:
        return min(self._count, self.size)

    def quantiles_ms(self, *qs: float) -> list[float | None]:
        """The given quantiles (0..1, 1 is the maximum) in milliseconds, None if empty."""
        n = len(self)
        if n == 0:
            return [None for _ in qs]
        ordered = sorted(self._values[:n])
        return [round(ordered[min(n - 1, int(q * n))] * 1000, 3) for q in qs]
