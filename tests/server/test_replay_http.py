"""The replay over HTTP (issue 18): /api/replay takes a record and answers its steps,
/api/rooms/CODE/replay answers a finished room's, /replay and /replay/CODE are the page.

"validated, refusing bad records with the RecordError's reason, 4xx never 500"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from webhelpers import WS, make_room

from nightcall.engine.outcome import reasons_from_json
from nightcall.engine.replay_steps import replay_steps
from nightcall.narration.telling import explain
from nightcall.server.app import create_app
from nightcall.server.guard import CSP
from nightcall.server.limits import Limits
from nightcall.server.pipeline import SlowDown
from nightcall.server.store import SQLiteStore

RECORDS = Path(__file__).resolve().parents[1] / "records"


def record_of(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data.get("record", data)


def without_names(out: dict[str, Any]) -> dict[str, Any]:
    """The engine's steps, without what the server adds for the page (the names, the
    language, the sentences: test_each_step_carries_the_renderers_sentences)."""
    out = {k: v for k, v in out.items() if k not in ("role_names", "language", "room", "calls")}
    out["outcome"] = {k: v for k, v in out["outcome"].items() if k != "explanation"}
    out["steps"] = [{k: v for k, v in step.items() if k != "said"} for step in out["steps"]]
    return out


def test_a_posted_record_gets_the_engines_steps(client: TestClient) -> None:
    for name in ("onuw-example-round.json", "epic-vampire-tokens.json",
                 "from-main/lupus-extra-12-1.json"):
        record = record_of(name)
        r = client.post("/api/replay", content=json.dumps(record))
        assert r.status_code == 200, (name, r.text)
        got = r.json()
        assert without_names(got) == json.loads(json.dumps(replay_steps(record))), name
        # Role names for the page in its language, for every card on the table.
        names = {lang: client.post(f"/api/replay?lang={lang}", content=json.dumps(record)
                                   ).json()["role_names"][lang] for lang in ("en", "it", "de")}
        for lang in ("en", "it", "de"):
            assert set(got["start"]["cards"]) <= set(names[lang])
        assert any(names["it"][c] != names["en"][c] for c in got["start"]["cards"])


def test_each_step_carries_the_renderers_sentences(client: TestClient) -> None:
    """The page writes no sentence: each step comes told in the language the page asks
    for, to each seat that saw it during play and, unless one seat alone did, to nobody
    in particular; each night call too. The words are the one renderer's."""
    from nightcall.narration.render import Renderer

    for name in ("onuw-example-round.json", "epic-vampire-tokens.json",
                 "lupus-example-round.json"):
        asked = {lang: client.post(f"/api/replay?lang={lang}",
                                   content=json.dumps(record_of(name))).json()
                 for lang in ("en", "it", "de")}
        got = asked["en"]
        players, deck, rid = got["players"], got["start"]["cards"], got["ruleset"]
        for lang in ("en", "it", "de"):
            got = asked[lang]
            assert got["language"] == lang and set(got["calls"]) == {lang}
            assert all(set(step["said"]) == {lang} for step in got["steps"])  # one language
            for step in got["steps"]:
                seats = step["seen_by"] if isinstance(step["seen_by"], list) else []
                want = {str(s) for s in seats} | ({""} if len(seats) != 1 else set())
                told = step["said"][lang]
                assert set(told) == want, (name, step)
                event = step["event"]
                if event is not None:  # (a call nobody acted at is told as the call)
                    for key, line in told.items():
                        viewer = int(key) if key else None
                        assert line == Renderer(rid, players, viewer, lang, deck).event(event)
            calls = {step["call"] for step in got["steps"] if step["call"]}
            assert set(got["calls"][lang]) == calls and all(got["calls"][lang].values())
        # a seat's own step in the second person, in its language
        at, mine = next((i, step) for i, step in enumerate(asked["en"]["steps"])
                        if len(step["seen_by"]) == 1 and step["event"]
                        and step["event"].get("seat") == step["seen_by"][0])
        seat = str(mine["seen_by"][0])
        assert mine["said"]["en"][seat] != asked["de"]["steps"][at]["said"]["de"][seat]
        assert players[int(seat)] not in mine["said"]["en"][seat], (name, mine)


def test_a_saved_game_with_its_outcome_is_read_too(client: TestClient) -> None:
    saved = json.loads((RECORDS / "from-main" / "onuw-1-1.json").read_text())
    r = client.post("/api/replay", content=json.dumps(saved))
    assert r.status_code == 200
    assert r.json()["players"] == saved["record"]["players"]


def test_bad_records_are_refused_with_the_reason(client: TestClient) -> None:
    record = record_of("onuw-example-round.json")
    record["steps"][2] = {"call": "robber", "player": "Dario", "swap": "Zeno"}
    r = client.post("/api/replay", content=json.dumps(record))
    assert r.status_code == 400
    assert r.json() == {"code": "bad_record",
                        "message": "step 2: 'swap': 'Zeno' is not seated at this table"}
    for body, said in ((b"{not json", "not valid JSON"), (b"[1, 2]", "JSON object"),
                       (b'{"ruleset": "chess"}', "unknown ruleset 'chess'"),
                       (b'{"ruleset": "onuw"}', "'players'")):
        r = client.post("/api/replay", content=body)
        assert r.status_code == 400 and said in r.json()["message"], (body, r.text)


def test_a_page_of_another_site_may_not_post(client: TestClient) -> None:
    r = client.post("/api/replay", content=json.dumps(record_of("onuw-example-round.json")),
                    headers={"origin": "http://evil.example"})
    assert r.status_code == 403


def test_a_body_past_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    r = client.post("/api/replay", content=b" " * (17 * 1024))
    assert r.status_code == 413


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=6)
                       | st.sampled_from(["Anna", "Bruno", "seer", "werewolf", "A♠"]),
                       lambda c: st.lists(c, max_size=3) | st.dictionaries(
                           st.sampled_from(["call", "player", "look", "swap", "center",
                                            "then", "votes", "token", "wolves", "x"]),
                           c, max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(["cards", "center", "players", "steps", "options", "extra", "step"]),
       value=JSONISH, ruleset=st.sampled_from(["onuw-example-round.json",
                                               "epic-alpha-mimic-curator.json",
                                               "from-main/lupus-base-8-1.json"]))
def test_a_hostile_record_gets_an_answer_never_a_500(client: TestClient, where: str,
                                                     value: Any, ruleset: str) -> None:
    record = record_of(ruleset)
    if where == "step" and record["steps"]:
        record["steps"][0] = value
    else:
        record[where] = value
    r = client.post("/api/replay", content=json.dumps(record))
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert r.json()["code"] == "bad_record" and r.json()["message"]


def test_a_rooms_replay_opens_at_the_end_from_its_record(client: TestClient) -> None:
    code, host_token = make_room(client, seats=5, language="de")
    assert client.get(f"/api/rooms/{code}/replay").status_code == 403  # before the end
    assert client.get("/api/rooms/ZZZZ/replay").status_code == 404
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        host.until(lambda m: m["type"] == "welcome")
        host.send(type="start")
        host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "night")
        assert client.get(f"/api/rooms/{code}/replay").status_code == 403  # the night
        host.until(lambda m: m["type"] == "observation" and m["clock"]["stage"] == "over",
                   limit=3000)
    r = client.get(f"/api/rooms/{code}/replay")
    assert r.status_code == 200
    got = r.json()
    record = client.get(f"/api/rooms/{code}/record").json()
    assert without_names(got) == json.loads(json.dumps(replay_steps(record)))
    assert got["language"] == "de" and got["room"] == code
    # the page asks in its own language: the sentences come in that one only
    en = client.get(f"/api/rooms/{code}/replay?lang=en").json()
    assert en["language"] == "en" and set(en["calls"]) == {"en"}
    assert all(set(step["said"]) == {"en"} for step in en["steps"])
    assert set(got["calls"]) == {"de"} and en["calls"]["en"] != got["calls"]["de"]


def test_a_language_we_lack_is_refused_with_the_ones_we_have(client: TestClient) -> None:
    r = client.post("/api/replay?lang=fr", content=json.dumps(record_of("onuw-example-round.json")))
    assert r.status_code == 400 and r.json()["code"] == "bad_language"
    assert "en, it, de" in r.json()["message"], r.text


def test_the_server_and_the_replay_explain_in_the_rooms_language(client: TestClient) -> None:
    """The rules give reasons; the observation and the replay carry them as the
    narrator's sentences in the room's language (here Italian), the same lines."""
    code, host_token = make_room(client, seats=5, language="it")
    with client.websocket_connect(f"/ws/{code}") as hw:
        host = WS(hw)
        host.send(type="hello", **{"as": "host", "token": host_token})
        host.until(lambda m: m["type"] == "welcome")
        host.send(type="start")
        end = host.until(lambda m: m["type"] == "observation"
                         and m["clock"]["stage"] == "over" and "outcome" in m["view"],
                         limit=3000)
    seen = end["view"]["outcome"]
    reasons = reasons_from_json(seen["reasons"])
    assert seen["explanation"] == explain(reasons, "it") != explain(reasons, "en")
    replayed = client.get(f"/api/rooms/{code}/replay").json()["outcome"]
    assert replayed["reasons"] == seen["reasons"]
    assert replayed["explanation"] == seen["explanation"]


def test_a_posted_record_is_explained_in_the_language_asked() -> None:
    """``/api/replay?lang=de``: the check in German (a language we lack is refused,
    above)."""
    from nightcall.server.replay_routes import steps_of

    record = record_of("lupus-example-round.json")
    for lang, want in (("de", "de"), ("en", "en")):
        out = steps_of(record, lang)["outcome"]
        assert out["explanation"] == explain(reasons_from_json(out["reasons"]), want)
    assert steps_of(record, "de")["outcome"]["explanation"] != steps_of(record)["outcome"][
        "explanation"]


def test_a_posted_records_language_comes_from_the_query(client: TestClient) -> None:
    record = json.dumps(record_of("epic-vampire-tokens.json"))
    de = client.post("/api/replay?lang=de", content=record).json()["outcome"]
    assert de["explanation"] == explain(reasons_from_json(de["reasons"]), "de")
    en = client.post("/api/replay", content=record).json()["outcome"]  # (no lang: English)
    assert en["explanation"] == explain(reasons_from_json(en["reasons"]), "en")
    assert en["explanation"] != de["explanation"]


def test_the_replay_page_is_served_under_the_csp(client: TestClient) -> None:
    for path in ("/replay", "/replay/ABCD"):
        r = client.get(path)
        assert r.status_code == 200 and "replay-page.js" in r.text
        assert r.headers["content-security-policy"] == CSP
        assert "<script>" not in r.text and "style=" not in r.text  # nothing inline


def test_replays_and_table_answers_are_limited_per_address(db_path: Path) -> None:
    """A replay is the whole game replayed and told on the server, and the table mode's
    answers are work too: past the per-address limit, 429 with Retry-After, before the
    body is read; another address is not slowed by it."""
    app = create_app(SQLiteStore(db_path), limits=Limits(work_burst=3, work_per_minute=0.1))
    record = json.dumps(record_of("onuw-example-round.json"))
    with TestClient(app) as client:
        codes = [client.post("/api/replay", content=record).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = client.post("/api/narrator/setup", content=b"{}")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        assert "too many replays and table answers" in r.json()["message"], r.text
        # Another address still has its burst. (TestClient's ``client=`` is newer than
        # the lowest Starlette we support, so the guard is asked directly.)
        for _ in range(3):
            app.state.work.take("203.0.113.9")
        with pytest.raises(SlowDown):
            app.state.work.take("203.0.113.9")
