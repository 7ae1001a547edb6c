"""The pages' words: web/locales plus each ruleset's role help, which lives in the
ruleset's own locales folder (issue #13: a ruleset is one folder), served together at
/static/locales/<lang>.json."""

from __future__ import annotations

import json
import random
from typing import Any

from nightcall.engine.ruleset import all_rulesets
from nightcall.narration.locale import LANGUAGES, load, ruleset_locales_dir
from nightcall.server.app import web_dir


def test_the_served_words_have_every_roles_help_in_every_language(client: Any) -> None:
    for lang in LANGUAGES:
        reply = client.get(f"/static/locales/{lang}.json")
        assert reply.status_code == 200
        served = reply.json()
        pages = json.loads((web_dir() / "locales" / f"{lang}.json").read_text("utf-8"))
        assert pages.items() <= served.items()  # the pages' own words, unchanged
        for rid, ruleset in all_rulesets().items():
            if not ruleset_locales_dir(ruleset).exists():
                continue  # a ruleset with no words of its own (tests/fourth)
            for role in ruleset.role_ids:
                assert served.get(f"help.{rid}.{role}", "").strip(), (lang, rid, role)


def test_the_role_help_is_kept_in_the_rulesets_folder_only() -> None:
    for lang in LANGUAGES:
        pages = json.loads((web_dir() / "locales" / f"{lang}.json").read_text("utf-8"))
        for rid, ruleset in all_rulesets().items():
            assert not [k for k in pages if k.startswith(f"help.{rid}.")], (lang, rid)
            path = ruleset_locales_dir(ruleset) / f"{lang}.json"
            if path.exists():
                own = json.loads(path.read_text("utf-8"))["lines"]
                assert {f"help.{rid}.{r}" for r in ruleset.role_ids} <= set(own), (lang, rid)


def test_a_language_the_pages_lack_is_refused(client: Any) -> None:
    assert client.get("/static/locales/fr.json").status_code == 404
    assert client.get("/static/js/text.js").status_code == 200  # the other files as before


# Every cause of death the rules give (engine/outcome.Death): One Night's and Epic's
# vote, Hunter and lovers; Lupus's night and execution (rulesets/lupus/day.py).
LUPUS_CAUSES = ("execution", "werewolves", "harlot_host", "harlot_visited_werewolf",
                "seen_by_seer")
CAUSES = ("votes", "hunter", "lovers", *LUPUS_CAUSES)


def test_a_death_cause_has_one_set_of_words_for_the_pages_and_the_narrator(client: Any) -> None:
    """Until session 16 the pages kept their own copy of the causes ("voted out") beside
    the narrator's (``judge.cause.*``): now the pages are served the narrator's."""
    for lang in LANGUAGES:
        pages = json.loads((web_dir() / "locales" / f"{lang}.json").read_text("utf-8"))
        assert not [k for k in pages if k.startswith("cause.")], lang
        served = client.get(f"/static/locales/{lang}.json").json()
        loc = load(lang)
        for cause in CAUSES:
            rid = "lupus" if cause in LUPUS_CAUSES else ""
            key = f"judge.{rid}.cause.{cause}" if rid else f"judge.cause.{cause}"
            assert key in loc.lines, (lang, cause)
            assert served[f"cause.{cause}"] == loc.cause(cause, rid), (lang, cause)
    assert load("de").cause("execution", "lupus") == "hingerichtet"
    assert load("it").cause("votes") == "voto del villaggio"


def test_the_causes_of_random_games_all_have_words() -> None:
    """Random games of each ruleset die only of the causes above."""
    seen: set[str] = set()
    for rid, n in (("onuw", 6), ("epic", 8), ("lupus", 12)):
        rs = all_rulesets()[rid]
        for g in range(60):
            rng = random.Random(g)
            deck = rs.default_deck(n)
            st = rs.deal([f"P{i}" for i in range(n)], deck, rng)
            while st.phase != rs.over_phase:
                for seat in rs.waiting_for(st):
                    rs.apply(st, seat, rng.choice(list(rs.legal_actions(st, seat))))
            seen |= {d.cause for d in st.outcome.deaths}
    assert {"votes", "execution", "werewolves"} <= seen <= set(CAUSES)
