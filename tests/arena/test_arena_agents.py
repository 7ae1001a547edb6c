"""Programs and the LLM player as entrants: the protocol, time limits as passes, crashes,
rate limits and token costs (the endpoint is a small scripted server on 127.0.0.1)."""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from llmhelpers import ScriptedLLM, to_day

from nightcall.agents.table import Table
from nightcall.arena.config import Entrant, Tournament
from nightcall.arena.ratings import markdown, rate, warnings
from nightcall.arena.run import play_games
from nightcall.arena.seats import Context, LLMSeat, RateLimiter, StdioSeat, pass_move
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import get_ruleset
from nightcall.rulesets.onuw.state import ABSTAIN

from .conftest import Script, last_option

ROOT = Path(__file__).resolve().parents[2]
AGENT = (sys.executable, str(ROOT / "examples" / "agent.py"))
DECK = tuple(get_ruleset("onuw").default_deck(5))

def with_agent(agent: Entrant, deals: int = 2) -> Tournament:
    return Tournament("onuw", 5, DECK, (agent, Entrant("coin", "bot", bot="random")), deals, 3)


def test_a_program_on_stdin_stdout_plays_whole_games(tmp_path: Path) -> None:
    t = with_agent(Entrant("example", "stdio", command=AGENT, timeout=20))
    log = (tmp_path / "agents.log").open("w")
    results = play_games(t, range(t.games), Context(log=log))
    log.close()
    assert len(results) == t.games == 10
    for r in results:
        seats = [s for s, e in enumerate(r["entrants"]) if e == 0]
        assert sorted(map(int, r["seats"])) == seats
        for s in seats:
            stats = r["seats"][str(s)]
            assert stats["moves"] >= 1 and stats["timeouts"] == 0 and "crashed" not in stats
    # Each seat's program was welcomed and told the end (the example logs both).
    text = (tmp_path / "agents.log").read_text()
    assert text.count("agent: won=") == sum(r["entrants"].count(0) for r in results)
    # The same games as a bot game would be dealt: the program sat at real deals.
    assert all(len(r["dealt"]) == 5 for r in results)


SLOW = ("import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'observation' and m['view']['legal']:\n"
        "        time.sleep(float(sys.argv[1]))\n"
        "        a = m['view']['legal'][-1]\n"
        "        print(json.dumps({'type': 'action', 'action': a,"
        " 'state_id': m['state_id']}), flush=True)\n"
        "    if m['type'] == 'game_over':\n"
        "        break\n")


def test_a_program_too_slow_passes_its_moves(tmp_path: Path) -> None:
    script = tmp_path / "slow.py"
    script.write_text(SLOW)
    rs = get_ruleset("onuw")
    table = Table(rs, rs.deal(("A", "B", "C", "D", "E"), DECK, 5))
    to_day(table)
    seat = StdioSeat(2, random.Random(0), Entrant(
        "slow", "stdio", command=(sys.executable, str(script), "2"), timeout=0.3), None)
    seat.begin(table)
    started = time.monotonic()
    seat.move(table)
    assert time.monotonic() - started < 1.5
    assert seat.stats["timeouts"] == 1
    assert table.state.votes[2] == ABSTAIN  # the pass of the vote
    seat.end(table)
    # A quick one is not cut off:
    quick = StdioSeat(3, random.Random(0), Entrant(
        "quick", "stdio", command=(sys.executable, str(script), "0"), timeout=5), None)
    quick.begin(table)
    quick.move(table)
    assert quick.stats["timeouts"] == 0 and table.state.votes[3] == ABSTAIN  # its last legal
    quick.end(table)


def test_a_program_that_dies_passes_for_the_rest_and_the_game_counts(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.stdin.readline()\nsys.exit(3)\n")
    t = with_agent(Entrant("dies", "stdio", command=(sys.executable, str(script))), deals=1)
    results = play_games(t, range(t.games), Context())
    assert len(results) == 5
    crashed = [s for r in results for s in r["seats"].values()]
    assert crashed and all(re.search("closed its output|stopped reading", s["crashed"])
                           for s in crashed)
    ratings = rate(t, results)
    row = {r["name"]: r for r in ratings.leaderboard()}["dies"]
    assert row["protocol"]["crashes"] == len(crashed)
    # Its rating alone would not tell: the leaderboard says it crashed, and where to look.
    said = f"dies: its program stopped (it exited, closed its output or sent 50 refused " \
           f"messages) in {len(crashed)} of {row['seats']} seats"
    assert [w[:len(said)] for w in warnings(ratings)] == [said]
    assert f"**Warning**: {said}" in markdown(ratings) and "agents.log" in markdown(ratings)


def test_pass_is_doing_nothing_where_the_rules_allow_it() -> None:
    rng = random.Random(0)
    assert pass_move([Action("look", 1), Action("skip")], rng) == Action("skip")
    assert pass_move([Action("vote", 1), Action("abstain")], rng) == Action("abstain")
    only = [Action("kill", 1), Action("kill", 2)]
    assert pass_move(only, rng) in only


def test_llm_entrant_plays_and_its_tokens_are_counted_and_priced(
        endpoint: Callable[[Script], ScriptedLLM]) -> None:
    server = endpoint(last_option)
    llm = Entrant("model", "llm", model="tiny", url=server.url, timeout=10, max_talk=1,
                  price_input=2.0, price_output=8.0)
    t = with_agent(llm, deals=1)
    results = play_games(t, range(t.games), Context())
    requests = sum(s["requests"] for r in results for s in r["seats"].values())
    assert requests == len(server.times) > 0
    row = {r["name"]: r for r in rate(t, results).leaderboard()}["model"]
    p = row["protocol"]
    assert p["requests"] == requests and p["timeouts"] == 0 and p["fallbacks"] == 0
    assert (p["tokens_in"], p["tokens_out"]) == (100 * requests, 7 * requests)
    assert p["cost"] == pytest.approx((100 * 2.0 + 7 * 8.0) * requests / 1e6)


def test_llm_too_slow_passes_and_an_endpoint_without_usage_costs_nothing(
        endpoint: Callable[[Script], ScriptedLLM]) -> None:
    server = endpoint(lambda req: (2.0, "1 - late", None))
    rs = get_ruleset("onuw")
    table = Table(rs, rs.deal(("A", "B", "C", "D", "E"), DECK, 5))
    to_day(table)
    llm = Entrant("slow", "llm", model="tiny", url=server.url, timeout=0.25)
    seat = LLMSeat(1, random.Random(0), llm, 0, None, None)
    seat.begin(table)
    started = time.monotonic()
    seat.move(table)
    assert time.monotonic() - started < 1.5  # not the 2 s the endpoint takes
    assert seat.stats["timeouts"] == 1 and table.state.votes[1] == ABSTAIN
    assert seat.stats["tokens_in"] == seat.stats["tokens_out"] == 0


def test_rate_limit_spaces_the_requests(endpoint: Callable[[Script], ScriptedLLM]) -> None:
    server = endpoint(last_option)
    llm = Entrant("model", "llm", model="tiny", url=server.url, max_talk=0,
                  requests_per_minute=600)  # one every 0.1 s
    t = with_agent(llm, deals=1)
    play_games(t, range(2), Context())
    times = server.times
    assert len(times) >= 4
    # The i-th request starts at least i tenths of a second after the first (the server
    # sees them a little later each, hence the allowance for the first one's trip).
    for i, when in enumerate(times):
        assert when - times[0] >= i * 0.1 - 0.04, (i, when - times[0])


def test_rate_limiter_shares_the_rate_and_waits_its_turn() -> None:
    now = [100.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)

    limiter = RateLimiter(30, clock=lambda: now[0], sleep=sleep)  # every 2 s
    assert [limiter.wait() for _ in range(3)] == [0.0, 2.0, 4.0]
    now[0] = 110.0  # long after: no wait
    assert limiter.wait() == 0.0
    ctx = Context(workers=3)
    e = Entrant("m", "llm", model="m", url="http://127.0.0.1:1/v1", requests_per_minute=90)
    limit = ctx.limiter(e)
    assert limit is not None and limit.interval == pytest.approx(2.0)  # 90/3 a minute each
    assert ctx.limiter(e) is limit
