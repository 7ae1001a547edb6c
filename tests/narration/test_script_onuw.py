"""The One Night script: the rulebook's order, its conditional lines, fair pauses."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from nightcall.narration.script import as_text, build_script, minutes_text
from nightcall.narration.timing import timing_for
from nightcall.rulesets.onuw.deck import recommended

from .helpers import rules_text

EVERY_ROLE = ["doppelganger", "werewolf", "werewolf", "minion", "mason", "mason", "seer",
              "robber", "troublemaker", "drunk", "insomniac", "hunter", "tanner"]
# The words the rulebook uses for each call, mapped to our call ids.
RULEBOOK_CALLS = {"Doppelgänger": "doppelganger", "Werewolves": "werewolf", "Minion": "minion",
                  "Masons": "mason", "Seer": "seer", "Robber": "robber",
                  "Troublemaker": "troublemaker", "Drunk": "drunk", "Insomniac": "insomniac"}


def calls(steps: list) -> list[str]:
    """The calls in the order they are made (each once, in first-line order)."""
    return list(dict.fromkeys(s.role for s in steps if s.role is not None))


def keys(roles: list[str], **kw: object) -> list[str]:
    return [s.key for s in build_script("onuw", roles, **kw)]  # type: ignore[arg-type]


def test_call_order_is_the_rulebooks() -> None:
    text = rules_text("one-night-ultimate-werewolf.md")
    # "The calls ... in this order: Doppelgänger, Werewolves, ..., Insomniac, and the
    # Doppelgänger again if the Insomniac is in play."
    sentence = re.search(r"in this order: ([^.]+)\.", text)
    assert sentence is not None
    named = [w.strip() for w in re.split(r",|\band\b", sentence.group(1)) if w.strip()]
    expected = [RULEBOOK_CALLS[w] for w in named if w in RULEBOOK_CALLS]
    assert named[-1].startswith("the Doppelgänger again")
    expected.append("doppelganger_insomniac")
    assert calls(build_script("onuw", EVERY_ROLE + ["villager"] * 0, day=False)) == expected


def test_every_role_in_the_deck_is_called_and_no_other() -> None:
    deck = recommended(5)  # werewolves, seer, robber, troublemaker, villagers
    assert calls(build_script("onuw", deck)) == ["werewolf", "seer", "robber", "troublemaker"]
    deck = ["werewolf", "werewolf", "drunk", "hunter", "tanner", "villager"]
    assert calls(build_script("onuw", deck)) == ["werewolf", "drunk"]


def test_doppelganger_minion_lines_only_with_the_minion() -> None:
    with_minion = keys(["doppelganger", "werewolf", "minion", "seer", "villager", "robber"])
    without = keys(["doppelganger", "werewolf", "werewolf", "seer", "villager", "robber"])
    minion_lines = ["onuw.doppelganger.minion_check", "onuw.doppelganger.minion_thumbs",
                    "onuw.doppelganger.minion_thumbs_down"]
    for key in minion_lines:
        assert key in with_minion
        assert key not in without
    # Within the Doppelgänger's call, before it closes its eyes.
    i = with_minion.index("onuw.doppelganger.wake")
    assert with_minion[i:i + 5] == ["onuw.doppelganger.wake", *minion_lines,
                                    "onuw.doppelganger.sleep"]


def test_doppelganger_insomniac_call_only_with_both() -> None:
    both = keys(["doppelganger", "insomniac", "werewolf", "robber", "seer", "villager"])
    assert both.index("onuw.doppelganger_insomniac.wake") > both.index("onuw.insomniac.sleep")
    assert "onuw.doppelganger_insomniac.wake" not in keys(
        ["doppelganger", "werewolf", "werewolf", "robber", "seer", "villager"])
    assert "onuw.doppelganger_insomniac.wake" not in keys(
        ["insomniac", "werewolf", "werewolf", "robber", "seer", "villager"])


def test_lone_wolf_line_follows_the_option() -> None:
    deck = recommended(3)
    assert "onuw.werewolf.lone" in keys(deck)
    assert "onuw.werewolf.lone" not in keys(deck, options={"lone_wolf": False})


def test_each_call_pauses_as_long_for_the_action_whatever_the_option() -> None:
    deck = recommended(3)
    timing = timing_for("onuw")
    for options in ({"lone_wolf": True}, {"lone_wolf": False}):
        steps = build_script("onuw", deck, options=options, timing=timing)
        for call in calls(steps):
            pauses = [s.wait for s in steps if s.role == call and s.wait == timing.action]
            assert len(pauses) == 1, (call, options)


def test_same_pause_for_every_role_call() -> None:
    """The count to ten is the same for every role: center, dead or alive, the script has
    no way to know, and every call gets exactly the one action pause."""
    steps = build_script("onuw", EVERY_ROLE, timing=timing_for("onuw"))
    action_pauses = {s.role: s.wait for s in steps if s.role and s.key.endswith(".wake")
                     and s.wait >= 5}
    assert set(action_pauses.values()) == {10.0}
    assert set(action_pauses) >= {"doppelganger", "mason", "seer", "robber", "troublemaker",
                                  "drunk", "insomniac", "doppelganger_insomniac"}


def test_the_night_ends_with_the_nudge_and_the_wake_up_then_the_day() -> None:
    steps = build_script("onuw", recommended(4), timing=timing_for("onuw", discussion=240))
    tail = [s.key for s in steps[-8:]]
    assert tail == ["onuw.night.nudge", "onuw.night.wake", "onuw.day.discussion",
                    "onuw.vote.ready", "count.3", "count.2", "count.1", "onuw.vote.now"]
    discussion = next(s for s in steps if s.key == "onuw.day.discussion")
    assert discussion.wait == 240
    assert "4 minutes" in discussion.text
    assert [s.wait for s in steps[-4:]] == [1.0, 1.0, 1.0, 0.0]
    assert build_script("onuw", recommended(4), day=False)[-1].key == "onuw.night.wake"


def test_speed_scales_every_pause_but_the_countdown() -> None:
    normal = build_script("onuw", recommended(3), timing=timing_for("onuw", "normal"))
    slow = build_script("onuw", recommended(3), timing=timing_for("onuw", "slow"))
    assert [s.key for s in normal] == [s.key for s in slow]
    for a, b in zip(normal, slow, strict=True):
        if a.key.startswith("count."):
            assert a.wait == b.wait == 1.0
        else:
            assert b.wait == pytest.approx(a.wait * 1.5)


def test_languages_give_the_same_steps_in_other_words() -> None:
    deck = recommended(6)
    en = build_script("onuw", deck, lang="en")
    for lang in ("it", "de"):
        other = build_script("onuw", deck, lang=lang)
        assert [(s.key, s.wait, s.role) for s in other] == [(s.key, s.wait, s.role) for s in en]
        assert all(a.text != b.text for a, b in zip(en, other, strict=True)
                   if not a.key.startswith("count."))


def test_the_roles_in_play_are_said_first_in_the_rulesets_order() -> None:
    steps = build_script("onuw", ["villager", "seer", "werewolf", "robber", "werewolf",
                                  "troublemaker"])
    assert steps[0].key == "setup.roles" and steps[0].role is None
    assert steps[0].text == ("The cards in play tonight: Werewolf, Werewolf, Seer, Robber, "
                             "Troublemaker, Villager.")
    assert steps[1].key == "onuw.night.start"


def test_text_form_and_minutes() -> None:
    text = as_text(build_script("onuw", recommended(3)))
    assert text.splitlines()[0].endswith("[3 s]")
    assert "[10 s]" in text
    assert minutes_text(210, "en") == "3 minutes and 30 seconds"
    assert minutes_text(210, "de") == "3 Minuten und 30 Sekunden"
    assert minutes_text(300, "it") == "5 minuti"


def test_steps_follow_each_other_without_repeats() -> None:
    steps = build_script("onuw", EVERY_ROLE)
    assert all(a.key != b.key for a, b in pairwise(steps))
