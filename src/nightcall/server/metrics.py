"""The server's metrics in the Prometheus text format (``GET /metrics``, ops.py).

Read at each scrape from what the server keeps anyway; nothing here is computed per
move. What is exposed is about the server, never about a game: how many rooms and
connections, how fast moves are handled and updates go out, how late the event loop
runs, store errors and Redis round trips. No room code, seat, role or call appears.
The counts of moves still rise when players act (at night too), which is why the
metrics are for the operator alone, behind a token, and never public.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

from nightcall.server.samples import Samples

if TYPE_CHECKING:
    from nightcall.server.hub import Hub

QUANTILES = (0.5, 0.99, 1.0)


class HubCollector(Collector):
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        rooms = list(hub.rooms.values())
        by_status = Counter(r.status for r in rooms)
        g = GaugeMetricFamily("nightcall_rooms", "Rooms in this process's memory.",
                              labels=["status"])
        for status in ("lobby", "playing", "over"):
            g.add_metric([status], by_status.get(status, 0))
        yield g
        roles = Counter(s.role for r in rooms for s in r.sinks)
        g = GaugeMetricFamily("nightcall_connections", "Open connections, by kind "
                              "(relayed ones counted by the room's owner).", labels=["role"])
        for role in ("player", "agent", "host", "spectator"):
            g.add_metric([role], roles.get(role, 0))
        yield g
        yield CounterMetricFamily("nightcall_moves", "Moves from players and agents "
                                  "handled by this process.", value=hub.timings.count)
        yield _quantiles("nightcall_move_seconds", "Handling one move: decode, check, "
                         "apply, build and queue every update (recent moves).", hub.timings)
        yield _quantiles("nightcall_update_wait_seconds", "How long the updates that "
                         "could not go out at once waited (a slow reader).",
                         hub.send_timings)
        yield _quantiles("nightcall_event_loop_lag_seconds", "How late the event loop "
                         "wakes up, sampled every 10 ms.", hub.loop_lag)
        node = hub.node
        saver_errors = hub.saver.errors
        yield CounterMetricFamily("nightcall_store_errors", "Saves or store calls that "
                                  "failed (each is retried).", value=saver_errors)
        if node is not None:
            yield CounterMetricFamily("nightcall_redis_round_trips", "Redis replies while "
                                      "serving.", value=node.round_trips)
            yield CounterMetricFamily("nightcall_redis_round_trip_seconds", "Time spent "
                                      "waiting on those replies.",
                                      value=node.round_trip_seconds)
            yield GaugeMetricFamily("nightcall_relayed_connections", "Connections this "
                                    "process relays to a room's owner elsewhere.",
                                    value=len(node.relayed))
            yield CounterMetricFamily("nightcall_relayed_connections_opened", "Connections "
                                      "relayed since the start.", value=node.relayed_total)


def _quantiles(name: str, doc: str, samples: Samples) -> Metric:
    g = GaugeMetricFamily(name, doc + " Quantile 1 is the maximum.", labels=["quantile"])
    for q, ms in zip(QUANTILES, samples.quantiles_ms(*QUANTILES), strict=True):
        if ms is not None:
            g.add_metric([f"{q:g}"], ms / 1000)
    return g


def registry_for(hub: Hub) -> CollectorRegistry:
    """A registry of this app's own (tests run many apps in one process)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(HubCollector(hub))
    return registry
