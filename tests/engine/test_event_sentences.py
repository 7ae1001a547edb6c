"""Every event kind of every ruleset has its sentence, in every language, from the one
renderer (nightcall.narration.render): what a seat sees in ``nightcall play`` (every
language) and in the agents' text (English), and the master's account (every
language). A missing template fails here instead of showing raw data to a player."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nightcall.agents.render import Names, describe_event
from nightcall.engine.ruleset import get_ruleset
from nightcall.engine.shapes import event_kinds, shapes_of
from nightcall.narration.locale import LANGUAGES, LocaleError, load
from nightcall.narration.render import Renderer, quiet_kinds
from nightcall.narration.telling import explain, tell
from nightcall.server.narration import timeline

from .games import GAMES, finished_games, views_of_games

RULESETS = ("onuw", "epic", "lupus")
# Kinds that only the master's log holds (a seat never sees them), and the bookkeeping
# kinds the terminal shows no sentence for: the next sentence says it all.
MASTER_ONLY = {"causes", "transformed", "artifact_drawn"}
SILENT_IN_PLAY = {"over", "causes", "last"}
# A placeholder not filled, a raw id ("the_count"), a Python value.
LEFT_OVER = re.compile(r"[{}]|\b[a-z]+_[a-z_]+\b|\bNone\b|\[")


@pytest.mark.parametrize("rid", RULESETS)
def test_every_event_kind_has_a_template_in_every_language(rid: str) -> None:
    """Issue #13: every event kind of the ruleset's shapes has a template in every
    language (a bookkeeping kind is declared ``quiet`` instead), so the renderer never
    meets a kind it lacks."""
    event_types, _ = shapes_of(get_ruleset(rid))
    assert quiet_kinds(rid) < set(event_kinds(event_types))
    for lang in LANGUAGES:
        lines = load(lang).lines
        for kind in set(event_kinds(event_types)) - quiet_kinds(rid):
            stems = (f"event.{rid}.{kind}", f"event.{kind}")
            assert any(k == s or k.startswith(s + ".") for k in lines for s in stems), \
                (rid, lang, kind)


def test_a_missing_template_is_an_error_never_raw_data() -> None:
    r = Renderer("onuw", ["Ann", "Bob", "Cy"], 0)
    with pytest.raises(LocaleError, match="'dance'"):
        r.event({"kind": "dance", "with": 2})
    with pytest.raises(LocaleError, match="'vampires'"):  # Epic's kind, not One Night's
        r.event({"kind": "vampires", "seats": [1, 2]})


@pytest.mark.parametrize("rid", RULESETS)
def test_every_event_a_seat_sees_is_a_sentence_in_every_language(rid: str) -> None:
    """Random games of the ruleset, every seat's view, in every language, through the
    one renderer as ``nightcall play`` and the agents use it: a sentence for every
    event a seat sees, with no placeholder or raw id left."""
    rs = get_ruleset(rid)
    rendered: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    agent_kinds: set[str] = set()
    checked = 0
    for view in views_of_games(rs, GAMES[rid] // 3, seed=29):
        seat = view.get("seat")
        if not isinstance(seat, int):
            continue
        players = view["players"]
        for event in view["events"][-8:]:  # the newest ones: every event comes up
            kind = event["kind"]
            for lang in LANGUAGES:
                text = Renderer(rid, players, seat, lang).event(event)
                if kind in SILENT_IN_PLAY and kind != "last":
                    assert text is None, (kind, text)
                    continue
                if text is None:  # the master's deal: nothing new for the seat
                    assert kind == "deal", kind
                    continue
                assert text.strip() and not LEFT_OVER.search(text), (rid, lang, event, text)
                rendered[lang].add(kind)
            sentence = describe_event(event, Names(players, rs.role_ids, seat, rid))
            assert kind in SILENT_IN_PLAY or sentence, (rid, event)
            assert not LEFT_OVER.search(sentence), (rid, event, sentence)
            agent_kinds.add(kind)
            checked += 1
    event_types, _ = shapes_of(rs)
    seat_kinds = set(event_kinds(event_types)) - MASTER_ONLY
    # Epic's claims come only from records; One Night's from talk (none here).
    talk = {"claim"}
    assert checked
    assert agent_kinds >= seat_kinds - talk - {"last"}, sorted(seat_kinds - agent_kinds)
    for lang in LANGUAGES:
        missing = seat_kinds - SILENT_IN_PLAY - talk - rendered[lang]
        assert not missing, (rid, lang, sorted(missing))


@pytest.mark.parametrize("rid", ["onuw", "epic"])  # Lupus has no claims: the talk is free
def test_claims_are_sentences_in_every_language(rid: str) -> None:
    rs = get_ruleset(rid)
    role = rs.role_ids[0]
    claims = [{"kind": "claim", "seat": 1, "role": role}]
    if rid == "onuw":
        claims += [{"kind": "claim", "seat": 1, "saw": 5, "role": role},
                   {"kind": "claim", "seat": 0, "swapped": [1, 2]}]
    players = ["Ann", "Bob", "Cy"]
    for claim in claims:
        for lang in LANGUAGES:
            text = Renderer(rid, players, 0, lang).event(claim)
            assert text and not LEFT_OVER.search(text), (lang, claim, text)
        assert not LEFT_OVER.search(describe_event(claim, Names(players, rs.role_ids, 0, rid)))


def test_a_call_names_the_role_in_the_plural_when_the_deck_has_several() -> None:
    """``play`` said "Night: the Werewolf is called." with two Werewolves in the deck."""
    call = {"kind": "call", "role": "werewolf"}
    one = Renderer("onuw", ["Ann", "Bob", "Cy"], 0, "en", ["werewolf", "seer", "robber"])
    two = Renderer("onuw", ["Ann", "Bob", "Cy"], 0, "en", ["werewolf", "werewolf", "seer"])
    assert one.event(call) == "Night: the Werewolf is called."
    assert two.event(call) == "Night: the Werewolves are called."
    de = Renderer("onuw", ["Ann", "Bob", "Cy"], 0, "de", ["werewolf", "werewolf"])
    assert de.event(call) == "Nacht: Die Werwölfe werden gerufen."


def test_the_subject_is_you_only_for_the_viewer() -> None:
    accuse = {"kind": "accuse", "seat": 1, "target": 2}
    assert Renderer("lupus", ["Ann", "Bob", "Cy"], 1).event(accuse) == "You accuse Cy."
    assert Renderer("lupus", ["Ann", "Bob", "Cy"], 2).event(accuse) == "Bob accuses you."
    assert Renderer("lupus", ["Ann", "Bob", "Cy"], None).event(accuse) == "Bob accuses Cy."
    assert Renderer("lupus", ["Ann", "Bob", "Cy"], 0, "de").event(
        {"kind": "accuse", "seat": 2, "target": 1}) == "Cy klagt Bob an."


@pytest.mark.parametrize("rid", RULESETS)
def test_the_account_tells_every_game_in_every_language(rid: str) -> None:
    """The master's account (the end screen's timeline, ``nightcall replay``) reads every
    kind in the log, in every language, and ends with the judge's reasons (a missing
    ``account.*`` or ``why.*`` line raises LocaleError)."""
    rs = get_ruleset(rid)
    games = 0
    for state in finished_games(rs, GAMES[rid] // 3, seed=31):
        games += 1
        for lang in LANGUAGES:
            lines = timeline(rs, state, lang)
            reasons = explain(rs.outcome(state).reasons, lang)
            assert lines[-len(reasons):] == list(reasons), lang
            assert all(line.strip() for line in lines), lang
    assert games


def test_the_end_of_a_one_night_game_says_each_fact_once() -> None:
    """``play`` ended with "No Werewolf died" twice (the village's line, then the
    werewolves'): the werewolves' line now follows from the village's."""
    rs = get_ruleset("onuw")
    teams_seen: set[str] = set()
    for state in finished_games(rs, 60, seed=41):
        outcome = rs.outcome(state)
        teams_seen |= set(outcome.teams)
        for lang, facts in (("en", ("No Werewolf died", "At least one Werewolf died")),
                            ("de", ("Kein Werwolf ist gestorben",
                                    "Mindestens ein Werwolf ist gestorben"))):
            text = " ".join(explain(outcome.reasons, lang))
            for fact in facts:
                assert text.count(fact) <= 1, (lang, text)
    assert {"village", "werewolves"} <= teams_seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=st.sampled_from(RULESETS), seed=st.integers(0, 10_000),
       lang=st.sampled_from(LANGUAGES))
def test_a_seat_is_told_of_itself_as_you_never_by_its_name(rid: str, seed: int,
                                                             lang: str) -> None:
    """The renderer addresses the viewer: in every sentence of a seat's view its own
    name never appears (it is "you", "your card", "du", "te" ...), and the other
    players are named."""
    rs = get_ruleset(rid)
    named_others = False
    for view in views_of_games(rs, 1, seed=seed):
        seat = view.get("seat")
        if not isinstance(seat, int):
            continue
        players = view["players"]
        me = re.compile(rf"\b{re.escape(players[seat])}\b")
        for text in Renderer(rid, players, seat, lang).events(view["events"]):
            assert not me.search(text), (rid, lang, players[seat], text)
            named_others = named_others or any(
                re.search(rf"\b{re.escape(p)}\b", text) for i, p in enumerate(players)
                if i != seat)
    assert named_others


def test_the_masters_account_names_who_did_it() -> None:
    """The account's sentences are the same renderer's, with the ``.master`` templates:
    third person, the actor named, ``.own`` when the actor is the subject."""
    names = ["Ann", "Bob", "Cy"]
    master = Renderer("epic", names, None, master=True)
    took = {"kind": "gave_token", "seat": 1, "token": "love"}
    assert master.event(took, actor=1) == "Bob takes the Love token."
    assert master.event(took, actor=0) == "Ann gives Bob the Love token."
    assert master.event({"kind": "saw", "seat": 2, "card": "seer"}, actor=0) == \
        "Ann looks at Cy's card: Seer."
    lupus = Renderer("lupus", names, None, master=True)
    assert lupus.event({"kind": "wolves", "seats": [2]}) == \
        "Cy opens their eyes, the only werewolf left."
    assert lupus.event({"kind": "wolves", "seats": [0, 2]}) == \
        "Ann and Cy open their eyes as the werewolves."
    # The Master calls a role by its name with the article the language wants.
    call = {"kind": "call", "role": "seer", "night": 1}
    assert lupus.event(call) == "The Master calls the Seer."
    assert Renderer("lupus", names, None, "it", master=True).event(call) == \
        "Il Master chiama il Veggente."  # (until session 16: "Il Master chiama: Veggente.")
    assert Renderer("lupus", names, None, "de", master=True).event(
        {**call, "role": "bodyguard"}) == "Der Spielleiter ruft den Leibwächter auf."
    # One death at dawn is the last to die: the account does not say so twice.
    assert lupus.event({"kind": "dawn", "night": 2, "dead": [1], "last": 1}) == "Dawn 2: Bob died."
    assert lupus.event({"kind": "dawn", "night": 2, "dead": [2, 1], "last": 1}) == \
        "Dawn 2: Cy and Bob died (Bob counts as the last to die)."
    assert Renderer("lupus", names, None).event({"kind": "dawn", "night": 1, "dead": [0, 2]}) \
        == "Dawn: Ann and Cy died in the night."  # (until session 16: "Ann, Cy died")
    # A seat's own view of the same event is the seat's sentence, not the master's.
    assert Renderer("epic", names, 1).event(took) == "You get the Love token."


def test_the_masters_account_says_their_own_card_and_swaps_with() -> None:
    """Until session 16 the end screen said "Ines looks at Ines's card" (the Robber, the
    Insomniac) and "Ines swaps the cards of Ines and Noa": a seat acting on its own card
    or token is told so, whichever of the two seats it named first."""
    names = ["Ann", "Bob", "Cy"]
    for rid in ("onuw", "epic"):
        en = Renderer(rid, names, None, master=True)
        assert en.event({"kind": "saw", "seat": 1, "card": "robber"}, actor=1) == \
            "Bob looks at their own card: Robber."
        assert en.event({"kind": "swapped", "seats": [1, 2]}, actor=1) == \
            "Bob swaps cards with Cy."
        # (the Goblin may name herself second; nobody else changes places in the list)
        assert en.event({"kind": "swapped", "seats": [0, 1]}, actor=1) == \
            "Bob swaps cards with Ann."
        assert en.event({"kind": "swapped", "seats": [0, 2]}, actor=1) == \
            "Bob swaps the cards of Ann and Cy."
    de = Renderer("epic", names, None, "de", master=True)
    assert de.event({"kind": "swapped", "seats": [0, 1]}, actor=1) == \
        "Bob tauscht die eigene Karte mit der von Ann."
    it = Renderer("epic", names, None, "it", master=True)
    assert it.event({"kind": "saw", "seat": 2, "card": "seer"}, actor=2) == \
        "Cy guarda la propria carta: Veggente."
    epic = Renderer("epic", names, None, master=True)
    assert epic.event({"kind": "gave_token", "seats": [0, 2], "token": "love"}, actor=2) == \
        "Cy keeps one Love token and gives the other to Ann."
    assert epic.event({"kind": "swapped_tokens", "seats": [0, 1]}, actor=1) == \
        "Bob swaps tokens with Ann."
    assert epic.event({"kind": "swapped", "seats": [1], "center": 0}, actor=1) == \
        "Bob swaps center card 1 with their own card."


def test_the_masters_account_calls_the_werewolves_in_the_plural() -> None:
    """The account's renderer knows the deck: "Night: Werewolf is called." (session 15)
    with two Werewolves in the deck is "Night: the Werewolves are called."."""
    onuw = get_ruleset("onuw")
    rng = random.Random(3)
    st = onuw.deal(["Ann", "Bob", "Cy", "Dan"], onuw.default_deck(4), rng)
    assert st.deck.count("werewolf") == 2
    while st.phase != onuw.over_phase:
        for seat in onuw.waiting_for(st):
            onuw.apply(st, seat, rng.choice(list(onuw.legal_actions(st, seat))))
    lines = tell(onuw, st)
    assert "Night: the Werewolves are called." in lines
    assert "Night: the Seer is called." in lines
    assert "Nacht: Die Werwölfe werden gerufen." in tell(onuw, st, "de")
    assert "Nacht: Die Rolle Seherin wird gerufen." in tell(onuw, st, "de")
    assert "Notte: vengono chiamati i Lupi." in tell(onuw, st, "it")
    assert "Notte: viene chiamato il ruolo Veggente." in tell(onuw, st, "it")


def test_every_template_is_the_one_chosen_for_the_fields_it_names() -> None:
    """No template is dead or shadowed: an event carrying exactly the fields a template
    names (and to whom its variant applies) is told by that template, in its ruleset
    (a shared one in at least one ruleset)."""
    from nightcall.narration.render import VARIANTS

    lines = load("en").lines
    for key in (k for k in lines if k.startswith("event.") and not k.startswith("event.word.")):
        parts = key.split(".")[1:]
        rids = [parts.pop(0)] if parts[0] in RULESETS else list(RULESETS)
        variants = set()
        while parts[-1] in VARIANTS:
            variants.add(parts.pop())
        kind, fields = parts[0], parts[1:]
        event: dict[str, object] = {"kind": kind, **{f: [1, 2] if f == "seats" else 1
                                                     for f in fields}}
        if variants & {"one", "you", "own"} and "seat" not in event:
            group = "dead" if "dead" in event and "seats" not in event else "seats"
            assert group in event, f"{key}: the variant needs a subject"
            event[group] = [1]  # the subject: seat 1
        viewer = 1 if variants & {"you", "with"} else None  # (seats [1, 2]: with the viewer)
        # (an actor who is none of the event's seats: no ``.own``)
        actor = 1 if "own" in variants else (0 if "master" in variants else None)
        deck = []
        if "many" in variants:
            event["role"] = "werewolf"
            deck = ["werewolf", "werewolf"]
        chosen = {Renderer(rid, ["Ann", "Bob", "Cy"], viewer, "en", deck,
                           master="master" in variants).key(event, actor) for rid in rids}
        assert key in chosen, (key, chosen)


# What a seat did or learned at night, told to that seat alone: in the second person.
OWN_KINDS = {"deal", "saw", "became", "swapped", "gave_token", "token", "saw_token",
             "swapped_tokens", "tapped", "concealed", "placed_artifact", "artifact",
             "protect", "visit", "mark", "imitate", "seen", "medium"}
# ... and of those, the ones that carry no card: their sentence names no role at all.
NO_ROLE = {"swapped", "swapped_tokens", "tapped", "concealed", "placed_artifact",
           "protect", "visit", "mark"}
SECOND_PERSON = {
    "en": re.compile(r"\b(you|your)\b", re.IGNORECASE),
    "de": re.compile(r"\b(du|dein\w*|dich|dir)\b", re.IGNORECASE),
    # a verb in the second person (Scambi, Stanotte proteggi, Dai ...) or tu/ti/te/tuo
    "it": re.compile(r"^(\w+ )?\w+i\b|\b(tu|ti|te|tua|tuo|tuoi|tue|sei|sarai)\b", re.IGNORECASE),
}


@pytest.mark.parametrize("rid", RULESETS)
def test_a_seats_own_events_are_in_the_second_person_in_every_language(rid: str) -> None:
    """Issue #13's tone: what a seat did or learned is told to it as "you" ("You swap
    your card and Bob's card", "Du gibst Dan und Eve die Liebes-Marker", "Tu, Bob e Cy
    siete i Lupi"), in every language; a swap, a tap, a visit names no card (the
    seat saw none)."""
    rs = get_ruleset(rid)
    told: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    for view in views_of_games(rs, GAMES[rid] // 3, seed=37):
        seat = view.get("seat")
        if not isinstance(seat, int) or view["phase"] == "over":
            continue
        players = view["players"]
        for event in view["events"][-8:]:
            kind = event["kind"]
            own = kind in OWN_KINDS or (
                kind in {"wolves", "freemasons", "masons", "vampires", "lovers"}
                and seat in event.get("seats", ()))
            if not own:
                continue
            for lang in LANGUAGES:
                text = Renderer(rid, players, seat, lang).event(event)
                if text is None:
                    continue
                assert SECOND_PERSON[lang].search(text), (rid, lang, event, text)
                if kind in NO_ROLE:  # (a swap shows no card: its sentence names none)
                    roles = load(lang).glossary["roles"].get(rid, {})
                    named = [entry["name"] for entry in roles.values()
                             if re.search(rf"\b{re.escape(entry['name'])}\b", text)]
                    assert not named, (rid, lang, event, text, named)
                told[lang].add(kind)
    assert told["en"] and told["en"] == told["it"] == told["de"], told


def test_the_love_tokens_and_the_wolves_are_told_to_the_seat_that_did_or_is_one() -> None:
    names = ["Ann", "Bob", "Cy", "Dan", "Eve"]
    love = {"kind": "gave_token", "seats": [3, 4], "token": "love"}
    mine = {"kind": "gave_token", "seats": [0, 4], "token": "love"}
    wolves = {"kind": "wolves", "seats": [0, 1, 2]}
    want = {"en": ("You give the Love tokens to Dan and Eve.",
                   "You keep one Love token and give the other to Eve.",
                   "You, Bob and Cy are the Werewolves."),
            "it": ("Dai i segnalini Amore a Dan ed Eve.",
                   "Tieni un segnalino Amore e dai l'altro a Eve.",
                   "Tu, Bob e Cy siete i Lupi."),
            "de": ("Du gibst Dan und Eve die Liebes-Marker.",
                   "Du behältst einen Liebes-Marker, den anderen bekommt Eve.",
                   "Du, Bob und Cy seid die Werwölfe.")}
    for lang, sentences in want.items():
        r = Renderer("epic", names, 0, lang)
        assert (r.event(love), r.event(mine), r.event(wolves)) == sentences, lang
    # the public (and a fellow who is not among them) hear the list, not "you"
    assert Renderer("onuw", names, 3, "en").event(wolves) == "The Werewolves are: Ann, Bob, Cy."


def test_a_sentence_starts_with_a_capital_whatever_value_opens_it() -> None:
    """Issue #13: "Alle Karten aufgedeckt. du – Werwolf": the viewer's "du", "tu", "you"
    opening a sentence or its list is capitalised; further in, it is not."""
    cards = ["werewolf", "seer", "robber", "villager", "villager", "tanner"]
    reveal = {"kind": "reveal", "cards": cards}
    names = ["Ann", "Bob", "Cy"]
    assert Renderer("onuw", names, 0, "de", cards).event(reveal).startswith(
        "Alle Karten aufgedeckt. Du – Werwolf, Bob – Seherin")
    assert Renderer("onuw", names, 0, "it", cards).event(reveal).startswith(
        "Tutte le carte scoperte. Tu – Lupo, Bob")
    assert Renderer("onuw", names, 0, "en", cards).event(reveal).startswith(
        "All cards turned over. You: Werewolf, Bob: Seer")
    assert ", du – Seherin," in Renderer("onuw", names, 1, "de", cards).event(reveal)
    votes = {"kind": "votes", "votes": [1, 0, None]}
    assert Renderer("onuw", names, 0, "en").event(votes) == "The vote: you → Bob, Bob → you."


def test_a_players_name_opening_a_sentence_stays_as_typed() -> None:
    """Only the language's own words are capitalised at a sentence's start: a name is
    the player's, as typed ("bob", "iPhone"), in every language."""
    cards = ["werewolf", "seer", "robber", "villager", "villager", "tanner"]
    reveal = {"kind": "reveal", "cards": cards}
    for names, first in ((["bob", "Ann", "Cy"], "bob"), (["iPhone", "Ann", "Cy"], "iPhone")):
        for lang in ("en", "it", "de"):
            said = Renderer("onuw", names, 1, lang, cards).event(reveal)
            assert f". {first} " in said or f". {first}:" in said, (lang, said)
    claim = {"kind": "claim", "seat": 0, "role": "seer"}
    assert Renderer("onuw", ["bob", "ann"], 1, "en").event(claim).startswith("bob says")


def test_the_dead_are_named_with_why_they_died_in_every_language() -> None:
    """The phone's "died" line read "Tot: du – Ursache: Stimmen" and "Morti: tu (voti)"
    until session 15: the cause is the judge's word for it, the same in every account."""
    died = {"kind": "died", "deaths": [[0, "votes"], [1, "hunter"]]}
    names = ["Ann", "Bob", "Cy"]
    assert Renderer("onuw", names, 2, "en").event(died) == \
        "Dead: Ann (voted out), Bob (shot by the Hunter)."
    assert Renderer("onuw", names, 0, "de").event(died) == \
        "Tot: du (abgewählt), Bob (vom Jäger erschossen)."
    assert Renderer("onuw", names, 0, "it").event(died) == \
        "Morti: tu (voto del villaggio), Bob (colpo del Cacciatore)."
    lovers = {"kind": "died", "deaths": [[2, "lovers"]]}
    assert Renderer("epic", names, 0, "de").event(lovers) == "Tot: Cy (aus Liebe gestorben)."


def test_a_claim_about_the_speakers_own_card_says_my_card_in_every_quote() -> None:
    """The viewer's own quote said "Du sagst: „Ich habe deine Karte gesehen“" until
    session 15: in the speaker's words their card is "my card", whoever reads it."""
    saw_mine = {"kind": "claim", "seat": 0, "saw": 0, "role": "werewolf"}
    names = ["Ann", "Bob", "Cy"]
    assert Renderer("onuw", names, 0, "en").event(saw_mine) == \
        "You say: “I saw my card: the Werewolf.”"
    assert Renderer("onuw", names, 1, "en").event(saw_mine) == \
        "Ann says: “I saw my card: the Werewolf.”"
    assert "Ich habe meine Karte gesehen" in Renderer("epic", names, 0, "de").event(saw_mine)
    assert "Ho visto la mia carta" in Renderer("onuw", names, 0, "it").event(saw_mine)
    saw_yours = {"kind": "claim", "seat": 1, "saw": 0, "role": "werewolf"}
    assert Renderer("onuw", names, 0, "en").event(saw_yours) == \
        "Bob says: “I saw your card: the Werewolf.”"
