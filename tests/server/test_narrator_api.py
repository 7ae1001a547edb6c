"""The table mode's JSON API (/api/narrator/*, issue 19): the setup of a real table,
the judge at the end and the Lupus Master, through the real app. Bad input gets a
400 with a sentence in the request's language, never a 500."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from nightcall.commands.judge import normalize
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.script import script_json
from nightcall.narration.telling import explain
from nightcall.rulesets.onuw import judge as onuw_judge


def post(client: TestClient, what: str, body: Any) -> Any:
    return client.post(f"/api/narrator/{what}", json=body)


def test_the_table_page_is_served_and_linked_from_the_front_page(client: TestClient) -> None:
    page = client.get("/table")
    assert page.status_code == 200
    assert "/static/js/narrator.js" in page.text
    assert 'href="/table"' in client.get("/").text


def test_setup_gives_the_deck_the_cards_to_pull_the_order_and_the_script(
        client: TestClient) -> None:
    r = post(client, "setup", {"ruleset": "onuw", "players": 5, "lang": "it"})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["deck"] == ["werewolf", "werewolf", "seer", "robber", "troublemaker",
                         "villager", "villager", "villager"]
    assert s["cards"] == ["A♠", "A♣", "K♥", "J♣", "Q♣", "2♠", "3♠", "4♠"]  # as `deck` says
    assert [c["id"] for c in s["calls"]] == ["werewolf", "seer", "robber", "troublemaker"]
    assert s["calls"][1]["name"] == "Veggente"
    # The script is the narrator's own, in the page's language.
    assert s["steps"] == script_json("onuw", s["deck"], lang="it")
    assert s["warnings"] == []


def test_every_call_gets_the_same_time_and_a_breath_after_close_your_eyes(
        client: TestClient) -> None:
    s = post(client, "setup", {"ruleset": "onuw", "players": 3, "lang": "en",
                               "roles": ["werewolf", "seer", "robber", "villager",
                                         "insomniac", "drunk"]}).json()
    by_call: dict[str, float] = {}
    for step in s["steps"]:
        if step["role"]:
            by_call[step["role"]] = by_call.get(step["role"], 0) + step["wait"]
        if step["key"].endswith(".sleep"):
            assert step["wait"] == 1.5, step  # about a second and a half
    assert set(by_call) == {"werewolf", "seer", "robber", "drunk", "insomniac"}
    # Every role's call lasts the rulebook's ten seconds plus the breath: a role whose
    # card lies in the center gets the same, since the script never knows the deal.
    assert {round(v, 2) for k, v in by_call.items() if k != "werewolf"} == {11.5}


def test_the_rulebook_warnings_and_the_later_nights_of_lupus(client: TestClient) -> None:
    s = post(client, "setup", {"ruleset": "onuw", "players": 3, "lang": "en",
                               "roles": ["werewolf", "werewolf", "seer", "insomniac",
                                         "villager", "villager"]}).json()
    assert any("Insomniac" in w for w in s["warnings"]), s["warnings"]
    lupus = post(client, "setup", {"ruleset": "lupus", "players": 12, "lang": "de"}).json()
    first = [c["id"] for c in lupus["calls"]]
    later = [c["id"] for c in lupus["later_calls"]]
    # The Medium and the Bodyguard have nothing to do on the first night.
    assert "medium" not in first and "bodyguard" not in first
    assert {"medium", "bodyguard"} <= set(later)
    epic = post(client, "setup", {"ruleset": "epic", "players": 5,
                                  "scenario": "the_first_night"}).json()
    assert epic["cards"] is None  # no 52-card mapping: the Epic box is needed


@pytest.mark.parametrize(("body", "words"), [
    ({"ruleset": "onuw", "players": 5, "lang": "en",
      "roles": ["mason", "werewolf", "seer", "robber", "villager", "villager", "villager",
                "villager"]}, "Mason"),
    ({"ruleset": "onuw", "players": 3, "lang": "en",
      "roles": ["werewolf"] * 3 + ["seer", "villager", "villager"]}, "Werewol"),
    ({"ruleset": "onuw", "players": 40}, "players"),
    ({"ruleset": "chess", "players": 4}, "onuw"),
    ({"ruleset": "onuw", "players": 4, "lang": "fr"}, "fr"),
    ({"ruleset": "onuw", "players": 4, "night": 2}, "one night"),
    ({"ruleset": "onuw", "players": 4, "roles": ["A♠", "A♠", "K♥"]}, "A♠"),
    ({"ruleset": "onuw", "players": "four"}, "players"),
    ([1, 2, 3], "JSON object"),
])
def test_a_table_that_cannot_be_set_up_is_refused_with_the_reason(
        client: TestClient, body: Any, words: str) -> None:
    r = post(client, "setup", body)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "refused"
    assert words.lower() in r.json()["message"].lower()


def test_the_judge_is_the_phones_judge_in_the_rooms_language(client: TestClient) -> None:
    table = {"players": ["Ada", "Bruno", "Carla"],
             "cards": {"Ada": "werewolf", "Bruno": "Veggente", "Carla": "2♠"},
             "votes": {"Bruno": "Ada", "Carla": "Ada", "Ada": "Bruno"}}
    r = post(client, "judge", {"ruleset": "onuw", "lang": "it", "table": table})
    assert r.status_code == 200, r.text
    v = r.json()
    outcome = onuw_judge.judge(normalize("onuw", table))
    assert v["dead"] == ["Ada"] and v["winners"] == ["Bruno", "Carla"]
    assert v["explanation"] == list(explain(outcome.reasons, "it"))
    assert v["causes"] == {"Ada": "voto del villaggio"}


@pytest.mark.parametrize(("table", "deck", "words"), [
    ({"players": ["A", "B", "C"], "cards": {"A": "seer", "B": "seer", "C": "werewolf"},
      "votes": {}}, None, "Veggente"),  # the box has one Seer
    ({"players": ["A", "B", "C", "D"],
      "cards": {"A": "werewolf", "B": "werewolf", "C": "werewolf", "D": "seer"},
      "votes": {}}, None, "Lupo"),  # two Werewolves in the box
    ({"players": ["A", "B", "C"], "cards": {"A": "werewolf", "B": "robber", "C": "seer"},
      "votes": {}}, ["werewolf", "seer", "seer_not"], "Ladro"),  # no Robber tonight
    ({"players": ["A", "B", "C"], "cards": {"A": "werewolf", "B": "cat", "C": "seer"},
      "votes": {}},
     None, "cat"),
    ({"players": ["A", "B", "C"], "cards": {"A": "werewolf", "B": "seer", "C": "robber"},
      "votes": {"A": "Zoe"}}, None, "Zoe"),
])
def test_an_impossible_table_is_refused_with_the_reason(
        client: TestClient, table: Any, deck: Any, words: str) -> None:
    body: dict[str, Any] = {"ruleset": "onuw", "lang": "it", "table": table}
    if deck is not None:
        body["deck"] = deck
    r = post(client, "judge", body)
    assert r.status_code == 400, r.text
    assert words in r.json()["message"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8),
                                                                        c, max_size=4),
                    max_leaves=20),
       st.sampled_from(["setup", "judge", "master"]))
def test_no_request_gets_a_500(client: TestClient, body: Any, what: str) -> None:
    r = post(client, what, body)
    assert r.status_code in (200, 400), (r.status_code, r.text)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({
    "ruleset": st.sampled_from(["onuw", "epic"]),
    "lang": st.sampled_from(["en", "it", "de"]),
    "table": st.fixed_dictionaries({
        "players": st.just(["A", "B", "C", "D"]),
        "cards": st.dictionaries(st.sampled_from(["A", "B", "C", "D", "E"]),
                                 st.sampled_from(["werewolf", "seer", "villager", "tanner",
                                                  "hunter", "vampire", "K♥", "x", ""]),
                                 max_size=5),
        "votes": st.dictionaries(st.sampled_from(["A", "B", "C", "D"]),
                                 st.sampled_from(["A", "B", "C", "D", "Q", 3]), max_size=4)}),
}))
def test_tables_near_the_real_thing_get_a_verdict_or_a_reason(client: TestClient,
                                                             body: Any) -> None:
    r = post(client, "judge", body)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert r.json()["message"].strip()
    else:
        assert set(r.json()["winners"]) <= {"A", "B", "C", "D"}


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    r = client.post("/api/narrator/judge", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_message"


# --- the Lupus Master -------------------------------------------------------------------

NAMES = ["Ada", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Hugo"]


def lupus_deck() -> list[str]:
    return list(get_ruleset("lupus").default_deck(8))


def play_lupus(client: TestClient, pick: Any, lang: str = "en") -> tuple[Any, list[str]]:
    deck = lupus_deck()
    answers: list[str] = []
    for _ in range(200):
        r = post(client, "master", {"ruleset": "lupus", "lang": lang, "deck": deck,
                                    "names": NAMES, "cards": deck, "answers": answers})
        assert r.status_code == 200, r.text
        out = r.json()
        if out["waiting"] is None:
            return out, answers
        answers.append(pick(out["waiting"]))
    raise AssertionError("the game never ended")


def test_the_master_is_replayed_from_the_answers_and_each_call_is_timed_the_same(
        client: TestClient) -> None:
    out, answers = play_lupus(client, lambda w: w["options"][0]["answer"] if w["options"]
                              else "")
    items = out["items"]
    kinds = Counter(i["kind"] for i in items)
    assert kinds["say"] and kinds["note"] and kinds["discussion"]
    # The werewolves' victim and the seer's answer are for the Master's eyes only.
    notes = [i["text"] for i in items if i["kind"] == "note"]
    assert any("victim" in n for n in notes)
    assert any(n.startswith("Seer points at") for n in notes)
    # Every accusation is echoed back with who accused whom.
    assert any(i["kind"] == "tell" and i["text"].startswith("✓ ") for i in items)
    # A call's pause is the same whether its holder is alive or dead.
    pauses = {i["seconds"] for prev, i in pairwise(items)
              if i["kind"] == "pause" and prev.get("key") in
              ("lupus.werewolf.wake", "lupus.seer.wake")}
    assert pauses == {10.0}
    # After every "close your eyes", a breath of a second and a half.
    gaps = [after for line, after in pairwise(items)
            if line.get("key", "").endswith(".sleep")]
    assert gaps and all(g == {"kind": "pause", "seconds": 1.5, "label": "pause"}
                        for g in gaps), gaps
    # The same answers give the same game: a shorter list gives its prefix.
    r = post(client, "master", {"ruleset": "lupus", "lang": "en", "deck": lupus_deck(),
                                "names": NAMES, "cards": lupus_deck(),
                                "answers": answers[:3]}).json()
    assert items[:len(r["items"])] == r["items"]
    assert out["items"][-1]["text"].startswith("Winners")


def test_the_master_speaks_the_rooms_language_and_fixes_the_seat_numbers(
        client: TestClient) -> None:
    deck = lupus_deck()
    r = post(client, "master", {"ruleset": "lupus", "lang": "de", "deck": deck,
                                "names": NAMES, "cards": deck, "answers": []}).json()
    w = r["waiting"]
    assert w["kind"] == "choice" and "Werwölfe" in w["text"]
    # Seat numbers are the seating's, whoever is left to choose from.
    assert [o["label"] for o in w["options"]][:2] == ["3. Carla", "4. Dario"]


@pytest.mark.parametrize(("change", "words"), [
    ({"names": NAMES[:7]}, "8"),
    ({"names": ["Ada"] * 8}, "Ada"),
    ({"cards": ["seer"] * 8}, "Seer"),
    ({"cards": ["werewolf"] * 2 + ["owl"] + ["villager"] * 5}, "Owl"),
    ({"answers": ["99"]}, "99"),
    ({"answers": ["1"] * 500}, "answers"),
    ({"deck": ["werewolf"] * 8}, "Werewolves"),
    ({"lang": "xx"}, "xx"),
])
def test_the_master_refuses_a_wrong_deal_or_answer_with_the_reason(
        client: TestClient, change: dict[str, Any], words: str) -> None:
    deck = lupus_deck()
    body = {"ruleset": "lupus", "lang": "en", "deck": deck, "names": NAMES, "cards": deck,
            "answers": [], **change}
    r = post(client, "master", body)
    assert r.status_code == 400, r.text
    assert words in r.json()["message"], r.json()["message"]


def test_epic_asks_for_tokens_and_artifacts_only_when_the_deck_can_move_them(
        client: TestClient) -> None:
    plain = post(client, "setup", {"ruleset": "epic", "players": 5}).json()
    assert plain["tokens"] == {} and plain["artifacts"] == []
    deck = ["werewolf", "vampire", "the_count", "seer", "curator", "villager", "villager",
            "villager"]
    s = post(client, "setup", {"ruleset": "epic", "players": 5, "roles": deck}).json()
    assert "mask_of_silence" in s["artifacts"]
    # Each token with how many the box holds, so the page refuses one too many at the tap.
    assert s["tokens"] == {"certainty": 12, "love": 2, "bat": 1, "bounty": 1, "panic": 1,
                           "plague": 1, "vampire": 1, "traitor": 1}
    names = ["A", "B", "C", "D", "E"]
    table = {"players": names, "cards": dict(zip(names, deck, strict=False)),
             "tokens": dict.fromkeys(names, "certainty"),
             "artifacts": {"C": "claw_of_the_werewolf"},
             "votes": {"A": "C", "B": "C", "C": "A", "D": "C", "E": "C"}}
    v = post(client, "judge", {"ruleset": "epic", "lang": "en", "deck": deck, "table": table})
    assert v.status_code == 200, v.text
    from nightcall.rulesets.epic import judge as epic_judge

    same = epic_judge.judge(normalize("epic", table)).to_json(names)
    assert v.json()["dead"] == same["dead"] and v.json()["winners"] == same["winners"]
    assert "C" in v.json()["dead"]


def test_the_end_offers_only_the_artifacts_the_curator_can_draw_from_this_deck(
        client: TestClient) -> None:
    """Curator ruling: the Claw leaves the game without a werewolf card, the Bite without
    a vampire card; the table is not asked about an artifact that cannot be there."""
    def artifacts(deck: list[str]) -> list[str]:
        r = post(client, "setup", {"ruleset": "epic", "players": 3, "roles": deck})
        assert r.status_code == 200, r.text
        return list(r.json()["artifacts"])

    rest = ["curator", "seer", "villager", "villager", "villager"]
    wolves = artifacts(["werewolf", *rest])
    assert "claw_of_the_werewolf" in wolves and "bite_of_the_vampire" not in wolves
    vampires = artifacts(["vampire", *rest])
    assert "bite_of_the_vampire" in vampires and "claw_of_the_werewolf" not in vampires
    assert set(wolves) - {"claw_of_the_werewolf"} == set(vampires) - {"bite_of_the_vampire"}


def test_typed_playing_cards_are_pulled_as_typed_and_the_alpha_wolfs_extra_card_stays(
        client: TestClient) -> None:
    s = post(client, "setup", {"ruleset": "onuw", "players": 3,
                               "roles": ["2♠", "A♠", "K♥", "A♣", "J♣", "Q♣"]}).json()
    assert dict(zip(s["cards"], s["deck"], strict=True))["2♠"] == "villager"
    assert sorted(s["cards"]) == sorted(["2♠", "A♠", "K♥", "A♣", "J♣", "Q♣"])
    deck = ["alpha_wolf", "werewolf", "seer", "robber", "villager", "villager", "villager",
            "dream_wolf"]
    epic = post(client, "setup", {"ruleset": "epic", "players": 4, "roles": deck})
    assert epic.status_code == 200, epic.text
    assert epic.json()["deck"] == deck  # the extra card beside the center, last
    assert "alpha_wolf" in [c["id"] for c in epic.json()["calls"]]


@pytest.mark.parametrize("what", ["setup", "judge", "master"])
def test_a_page_of_another_site_may_not_use_the_table_api(client: TestClient, what: str) -> None:
    said = client.post(f"/api/narrator/{what}", json={"ruleset": "onuw", "players": 5},
                       headers={"origin": "http://evil.example"})
    assert said.status_code == 403
    assert said.json()["code"] == "bad_origin"


# --- the end's copiers and center cards ------------------------------------------------

EPIC_DECK = ["werewolf", "mimic", "ghost_hunter", "seer", "villager", "tanner"]
EPIC_NAMES = ["Ada", "Bruno", "Carla"]


def epic_end(client: TestClient, cards: dict[str, str], votes: dict[str, str],
             **extra: Any) -> Any:
    table = {"players": EPIC_NAMES, "cards": cards, "votes": votes, **extra}
    return post(client, "judge", {"ruleset": "epic", "lang": "en", "deck": EPIC_DECK,
                                  "table": table})


def test_setup_says_which_copying_cards_the_end_asks_about(client: TestClient) -> None:
    s = post(client, "setup", {"ruleset": "epic", "players": 3, "roles": EPIC_DECK}).json()
    copies = {c["card"]: c["options"] for c in s["copies"]}
    # The Mimic takes on a card of the deck (the Villager also stands for a Mimic card
    # that started in the middle); the Ghost Hunter turns only into a monster or Tanner.
    assert copies["mimic"] == ["werewolf", "ghost_hunter", "seer", "villager", "tanner"]
    assert copies["ghost_hunter"] == ["", "werewolf", "tanner"]
    onuw = post(client, "setup", {"ruleset": "onuw", "players": 3,
                                  "roles": ["doppelganger", "werewolf", "seer", "robber",
                                            "villager", "villager"]}).json()
    assert onuw["copies"] == [{"card": "doppelganger",
                               "options": ["werewolf", "seer", "robber", "villager"]}]
    plain = post(client, "setup", {"ruleset": "onuw", "players": 5}).json()
    assert plain["copies"] == []


def test_the_mimic_card_counts_as_the_role_it_copied_wherever_it_went(
        client: TestClient) -> None:
    """"If the Mimic's role card changes players, the role card continues to be the role
    the Mimic had looked at": Bruno holds the Mimic card, which copied a Werewolf, and
    is voted out, so the Village wins."""
    cards = {"Ada": "seer", "Bruno": "mimic", "Carla": "villager"}
    votes = {"Ada": "Bruno", "Carla": "Bruno", "Bruno": "Ada"}
    r = epic_end(client, cards, votes, copies={"mimic": "werewolf"})
    assert r.status_code == 200, r.text
    assert r.json()["dead"] == ["Bruno"] and r.json()["winners"] == ["Ada", "Carla"]
    from nightcall.rulesets.epic import judge as epic_judge

    same = epic_judge.judge({"players": EPIC_NAMES, "votes": votes,
                             "cards": {**cards, "Bruno": "werewolf"}})
    assert r.json()["explanation"] == list(explain(same.reasons, "en"))
    # "If the Mimic's card lies in the middle at the start ... the role counts as a
    # regular villager": then the same vote kills a villager, and no werewolf is out.
    r = epic_end(client, cards, votes, copies={"mimic": "villager"})
    assert r.status_code == 200, r.text
    plain = epic_judge.judge({"players": EPIC_NAMES, "votes": votes,
                              "cards": {**cards, "Bruno": "villager"}}).to_json(EPIC_NAMES)
    assert r.json()["winners"] == plain["winners"] != ["Ada", "Carla"]


def test_a_mimic_without_its_copy_or_with_one_not_in_the_deck_is_refused(
        client: TestClient) -> None:
    cards = {"Ada": "seer", "Bruno": "mimic", "Carla": "villager"}
    r = epic_end(client, cards, {}, copies={})
    assert r.status_code == 400 and "Bruno" in r.json()["message"]
    assert "Mimic" in r.json()["message"]
    r = epic_end(client, cards, {}, copies={"mimic": "robber"})  # no Robber tonight
    assert r.status_code == 400
    assert "Robber" in r.json()["message"] and "Werewolf" in r.json()["message"]


def test_a_ghost_hunter_who_transformed_is_judged_as_what_he_became(
        client: TestClient) -> None:
    """"If he discovers the card of the Tanner, a werewolf or a vampire ... he transforms
    into the role he looked at": voted out as a werewolf, his death is the Village's win;
    as the Ghost Hunter it is the werewolves'."""
    cards = {"Ada": "werewolf", "Bruno": "ghost_hunter", "Carla": "seer"}
    votes = {"Ada": "Bruno", "Carla": "Bruno", "Bruno": "Ada"}
    stayed = epic_end(client, cards, votes, copies={"ghost_hunter": ""})
    became = epic_end(client, cards, votes, copies={"ghost_hunter": "werewolf"})
    assert stayed.status_code == became.status_code == 200, (stayed.text, became.text)
    assert stayed.json()["winners"] == ["Ada"]
    assert set(became.json()["winners"]) == {"Carla"}
    refused = epic_end(client, cards, votes, copies={"ghost_hunter": "seer"})
    assert refused.status_code == 400  # the Seer is no card he turns into


def test_the_doppelgangers_copy_from_the_page_is_the_judges_doppelganger(
        client: TestClient) -> None:
    deck = ["doppelganger", "werewolf", "seer", "robber", "villager", "villager"]
    table = {"players": EPIC_NAMES,
             "cards": {"Ada": "doppelganger", "Bruno": "werewolf", "Carla": "seer"},
             "votes": {"Ada": "Bruno", "Bruno": "Ada", "Carla": "Ada"}}
    page = post(client, "judge", {"ruleset": "onuw", "lang": "de", "deck": deck,
                                  "table": {**table, "copies": {"doppelganger": "werewolf"}}})
    assert page.status_code == 200, page.text
    outcome = onuw_judge.judge({**table, "doppelganger": "werewolf"})
    assert page.json()["explanation"] == list(explain(outcome.reasons, "de"))
    assert page.json()["winners"] == outcome.to_json(EPIC_NAMES)["winners"]
    missing = post(client, "judge", {"ruleset": "onuw", "lang": "it", "deck": deck,
                                     "table": {**table, "copies": {}}})
    assert missing.status_code == 400 and "Ada" in missing.json()["message"]


def test_the_center_cards_count_with_the_hands_against_the_deck(client: TestClient) -> None:
    deck = ["werewolf", "werewolf", "seer", "robber", "villager", "villager"]
    table = {"players": EPIC_NAMES,
             "cards": {"Ada": "werewolf", "Bruno": "seer", "Carla": "robber"}, "votes": {}}
    ok = post(client, "judge", {"ruleset": "onuw", "lang": "en", "deck": deck,
                                "table": {**table, "center": ["A♣", "2♠", "villager"]}})
    assert ok.status_code == 200, ok.text  # playing cards or roles, as tapped
    # A Seer in a hand and one in the middle, from a deck with one Seer.
    two = post(client, "judge", {"ruleset": "onuw", "lang": "it", "deck": deck,
                                 "table": {**table, "center": ["werewolf", "seer", "villager"]}})
    assert two.status_code == 400
    assert "Veggente" in two.json()["message"] and "carta centrale 2" in two.json()["message"]
    # Three Werewolves: the box has two.
    three = post(client, "judge", {"ruleset": "onuw", "lang": "en", "table": {
        **table, "cards": {"Ada": "werewolf", "Bruno": "seer", "Carla": "werewolf"},
        "center": ["werewolf", "villager", "villager"]}})
    assert three.status_code == 400 and "center card 1" in three.json()["message"]
    short = post(client, "judge", {"ruleset": "onuw", "lang": "de", "deck": deck,
                                   "table": {**table, "center": ["werewolf", "villager"]}})
    assert short.status_code == 400 and "3" in short.json()["message"]


def test_with_the_alpha_wolf_the_middle_holds_four_cards(client: TestClient) -> None:
    """"Place one werewolf card ... face down next to the 3 face-down cards in the
    middle": with the Alpha Wolf, four cards lie in the middle at the end."""
    deck = ["alpha_wolf", "werewolf", "seer", "robber", "villager", "villager", "dream_wolf"]
    table = {"players": EPIC_NAMES, "votes": {},
             "cards": {"Ada": "alpha_wolf", "Bruno": "seer", "Carla": "villager"}}
    three = post(client, "judge", {"ruleset": "epic", "lang": "en", "deck": deck, "table": {
        **table, "center": ["werewolf", "robber", "villager"]}})
    assert three.status_code == 400 and "4" in three.json()["message"]
    four = post(client, "judge", {"ruleset": "epic", "lang": "en", "deck": deck, "table": {
        **table, "center": ["werewolf", "robber", "villager", "dream_wolf"]}})
    assert four.status_code == 200, four.text


# --- the web Master on the engine's clock (issue #13, ruling 30a) ------------------------

def test_the_web_master_runs_on_the_engines_clock_and_says_which_step_is_open(
        client: TestClient) -> None:
    from nightcall.engine.clock import CLOCK_SEAT, END_CALL
    from nightcall.narration.master import SAVE_FORMAT, SavedGame

    lupus = get_ruleset("lupus")
    deck = lupus_deck()
    first = post(client, "master", {"ruleset": "lupus", "lang": "en", "deck": deck,
                                    "names": NAMES, "cards": deck, "answers": []}).json()
    # The first question is the werewolves' (the pack's) call, and the engine says so.
    assert first["waiting"]["kind"] == "choice" and first["open"] == lupus.pack_call
    out, _ = play_lupus(client, lambda w: w["options"][0]["answer"] if w["options"]
                              else "")
    assert out["open"] is None and out["over"]
    master = out["record"]["master"]
    assert master["format"] == SAVE_FORMAT and master["deal"] == deck
    # Every call ended by the Master's "go on", as the clock's own move.
    ends = [m for m in master["moves"] if m[0] == CLOCK_SEAT and m[1] == END_CALL.to_json()]
    assert len(ends) >= len(lupus.night_calls(deck, 1))
    # The record's moves are the game: replayed, they give the same end.
    saved = SavedGame(NAMES, deck, "en", [(s, Action.from_json(a))
                                          for s, a in master["moves"]], master["clock"])
    state = saved.replay(lupus)
    assert lupus.is_over(state)
    # ... and the record alone (``nightcall replay``) ends the same way.
    assert lupus.outcome_json(lupus.replay(out["record"])) == lupus.outcome_json(state)


def test_every_step_the_web_master_stops_at_is_open_in_the_engine(client: TestClient) -> None:
    """Wherever the page waits for the Master, the answer names the engine's open step:
    a night call of the deck at night, a stage of the day by day."""
    lupus = get_ruleset("lupus")
    deck = lupus_deck()
    calls = set(lupus.night_calls(deck, 1)) | set(lupus.night_calls(deck, 2))
    seen: set[str] = set()
    answers: list[str] = []
    for _ in range(200):
        out = post(client, "master", {"ruleset": "lupus", "lang": "en", "deck": deck,
                                      "names": NAMES, "cards": deck,
                                      "answers": answers}).json()
        if out["waiting"] is None:
            break
        assert isinstance(out["open"], str), out["waiting"]
        seen.add(out["open"])
        w = out["waiting"]
        answers.append(w["options"][-1]["answer"] if w["options"] else "")
    assert seen & calls and seen - calls  # night calls, and the day's stages after
    assert out["open"] is None


def test_the_master_is_only_for_a_game_with_a_master(client: TestClient) -> None:
    deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
            "villager", "villager"]
    r = post(client, "master", {"ruleset": "onuw", "lang": "en", "deck": deck,
                                "names": NAMES[:5], "cards": deck[:5], "answers": []})
    assert r.status_code == 400 and "lupus" in r.json()["message"], r.text
    assert post(client, "master", {"lang": "en", "deck": deck}).status_code == 400
