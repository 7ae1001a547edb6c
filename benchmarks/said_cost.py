"""CPU the pages' sentences cost the server (not a test): every viewer's observation
(a seat's or the public one) encoded after every move of random room games, with the
sentences (``said``, the one renderer per viewer, each event told once) against the
same observations with ``said`` left empty, alternating in the same run.

    .venv/bin/python benchmarks/said_cost.py --games 6 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from nightcall.engine.actions import Action
from nightcall.engine.errors import IllegalAction
from nightcall.server.messages import CreateRoom, encode
from nightcall.server.room import Room


class Silent:
    """A Told that tells nothing: the observation as it was before ``said``."""

    key: Any = None

    def __call__(self, events: Any) -> list[str | None]:
        return []


def play(rid: str, seats: int, seed: int, said: bool) -> float:
    """CPU seconds spent building and encoding every viewer's observation, move by move."""
    room = Room("BENCH", CreateRoom(ruleset=rid, seats=seats, bots="random"))
    for i in range(seats):
        room.join(f"P{i}")
    room.seed = seed
    room.start()
    if not said:
        room.told = lambda viewer, players: Silent()  # type: ignore[assignment,method-assign,return-value]
    rng = random.Random(seed)
    rs, spent = room.ruleset, 0.0
    for _ in range(2000):
        if rs.is_over(room.state):
            break
        waiting = rs.waiting_for(room.state)
        if waiting:
            seat = rng.choice(list(waiting))
            action = rng.choice(list(rs.legal_actions(room.state, seat)))
            try:
                rs.apply(room.state, seat, action)
            except IllegalAction:
                continue
            room.actions.append((seat, Action(action.kind, action.a, action.b)))
        else:
            room.end_call()
        start = time.process_time()
        for viewer in [None, *range(seats)]:
            encode(room.observation(viewer))
        spent += time.process_time() - start
    return spent


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    plan = [("onuw", 6), ("epic", 8), ("lupus", 10)]
    times: dict[bool, list[float]] = {True: [], False: []}
    for r in range(args.repeat):
        for said in ((True, False) if r % 2 == 0 else (False, True)):  # alternate
            times[said].append(sum(play(rid, n, seed, said) for rid, n in plan
                                   for seed in range(args.games)))
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(f"observations with said: {on:.3f} s CPU, without: {off:.3f} s CPU, "
          f"ratio {on / off:.2f} (median of {args.repeat})")


if __name__ == "__main__":
    main()
