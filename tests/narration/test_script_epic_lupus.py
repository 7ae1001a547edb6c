"""Epic Battle and Lupus in Tabula scripts against their rulebooks."""

from __future__ import annotations

import re

from nightcall.engine.ruleset import get_ruleset
from nightcall.narration.script import build_script
from nightcall.narration.timing import timing_for

from .helpers import need_ruleset, rules_text


def calls(steps: list) -> list[str]:
    return list(dict.fromkeys(s.role for s in steps if s.role is not None))


def keys(rid: str, roles: list[str], night: int = 1) -> list[str]:
    return [s.key for s in build_script(rid, roles, night=night)]


def _epic_sheet_order() -> list[str]:
    """The Game Master sheet's announcements, in order, as call ids."""
    text = rules_text("epic-battle-rulebook.txt")
    sheet = text[text.index("Game Master Announcements"):text.index("Day\n\n\"Now everybody")]
    order: list[str] = []
    for line in sheet.splitlines():
        m = re.match(r'\((-?\d+[A-D]?)\) ([A-Za-z ]+?) "', line)
        if m:
            name = m.group(2).lower().replace(" ", "_")
            order.append(name)
        elif line.startswith('"Everybody wake up and secretly look at your token'):
            order.append("tokens")
        elif line.startswith("If Venus is in the game"):
            order.append("lovers")
    return order


def test_epic_order_is_the_game_master_sheets() -> None:
    need_ruleset("epic")
    sheet = _epic_sheet_order()
    assert sheet[:3] == ["mimic", "vampires", "the_count"]  # the parse found the sheet
    epic = get_ruleset("epic")
    deck = [r for r in epic.role_ids if r != "dream_wolf"]
    assert calls(build_script("epic", deck)) == sheet


def test_epic_dream_wolf_version_of_the_werewolves_call() -> None:
    need_ruleset("epic")
    with_dream = keys("epic", ["werewolf", "dream_wolf", "seer", "robber", "villager", "goblin"])
    without = keys("epic", ["werewolf", "sight_wolf", "seer", "robber", "villager", "goblin"])
    assert "epic.werewolf.wake_dream" in with_dream and "epic.werewolf.wake" not in with_dream
    assert "epic.werewolf.dream_down" in with_dream
    assert "epic.werewolf.wake" in without and "epic.werewolf.wake_dream" not in without


def test_epic_tokens_and_lovers_only_when_due() -> None:
    need_ruleset("epic")
    plain = keys("epic", ["werewolf", "sight_wolf", "seer", "robber", "goblin", "villager"])
    assert "epic.tokens.wake" not in plain and "epic.lovers.wake" not in plain
    tokens = keys("epic", ["vampire", "the_count", "priest", "tracker", "robber", "goblin"])
    assert "epic.tokens.wake" in tokens and "epic.lovers.wake" not in tokens
    assert tokens.index("epic.tokens.wake") > tokens.index("epic.priest.sleep")
    venus = keys("epic", ["vampire", "venus", "priest", "tracker", "robber", "goblin"])
    assert venus.index("epic.lovers.wake") == venus.index("epic.tokens.sleep") + 1


def test_epic_renfield_has_the_vampires_point_first() -> None:
    need_ruleset("epic")
    k = keys("epic", ["vampire", "renfield", "seer", "robber", "goblin", "villager"])
    i = k.index("epic.renfield.point")
    assert k[i:i + 3] == ["epic.renfield.point", "epic.renfield.wake", "epic.renfield.sleep"]


def test_epic_pauses_are_the_sheets() -> None:
    need_ruleset("epic")
    steps = build_script("epic", ["priest", "goblin", "seer", "vampire", "robber", "villager"],
                         timing=timing_for("epic"))
    wake = {s.role: s.wait for s in steps if s.key.endswith(".wake")}
    assert wake["priest"] == 10.0 and wake["goblin"] == 10.0  # "Wait 10 seconds"
    assert wake["seer"] == 5.0 and wake["robber"] == 5.0  # "Wait 5 seconds"
    assert "epic.day.artifacts" not in [s.key for s in steps]
    with_curator = keys("epic", ["curator", "seer", "werewolf", "robber", "villager", "goblin"])
    assert with_curator.index("epic.day.artifacts") == with_curator.index("epic.night.wake") + 1


LUPUS_FULL = ["werewolf", "werewolf", "werewolf", "seer", "medium", "possessed", "bodyguard",
              "harlot", "owl", "freemason", "freemason", "werehamster", "mythomaniac"]


def test_lupus_order_is_the_rulebooks_night_by_night() -> None:
    need_ruleset("lupus")
    text = rules_text("lupus-in-tabula.md")
    # "The order is Medium and Bodyguard from the second night, the Harlot every night,
    # then the werewolves and the Seer."
    sentence = re.search(r"The order is ([^.]+)\.", text)
    assert sentence is not None
    base = [w for w in ("medium", "bodyguard", "harlot", "werewolves", "seer")
            if w in sentence.group(1).lower()]
    assert base == ["medium", "bodyguard", "harlot", "werewolves", "seer"]
    night2 = ["medium", "bodyguard", "harlot", "werewolf", "seer"]
    # Variants: the Owl after the Seer every night; the Freemasons after the Owl on night 1;
    # the Mythomaniac last, on night 2 only; the Werehamster is never called.
    assert calls(build_script("lupus", LUPUS_FULL, night=1)) == [
        "harlot", "werewolf", "seer", "owl", "freemason"]
    assert calls(build_script("lupus", LUPUS_FULL, night=2)) == [*night2, "owl", "mythomaniac"]
    assert calls(build_script("lupus", LUPUS_FULL, night=3)) == [*night2, "owl"]


def test_lupus_script_ends_at_dawn_with_the_discussion() -> None:
    need_ruleset("lupus")
    steps = build_script("lupus", LUPUS_FULL, night=2, timing=timing_for("lupus"))
    assert steps[0].key == "lupus.night.start"
    assert [s.key for s in steps[-2:]] == ["lupus.night.dawn", "lupus.day.discussion"]
    assert steps[-1].wait == 180.0  # "about three minutes"
    assert {s.wait for s in steps if s.key.endswith(".wake")} == {10.0}
