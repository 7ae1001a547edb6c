"""The night replayed in a real browser (issue 18, "The night replayed").

A record file chosen or dropped on /replay, one of each ruleset, stepped through on a
TV and on 360 px phones: each swap moves the two cards the engine swapped, each look
puts the eye on the card the engine says was seen, the sentence is the timeline's.
A finished room: the host's end screen and a phone open the same replay, the phone's
own steps marked; /replay/CODE shows it later. Every step is saved as a screenshot
under test-artifacts/e2e/replay/ (printed by the tests)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from e2ehelpers import (
    HOST_TV,
    PHONE_360,
    Table,
    act_if_called,
    axe_violations,
    sideways,
    stage,
    wait_for,
)

from nightcall.engine.replay_steps import replay_steps

pytestmark = pytest.mark.timeout(240)

RECORDS = Path(__file__).resolve().parents[1] / "records"
CASES = {
    "onuw": RECORDS / "onuw-example-round.json",
    "epic": RECORDS / "epic-alpha-mimic-curator.json",
    "epic-tokens": RECORDS / "epic-vampire-tokens.json",
    "lupus": RECORDS / "from-main" / "lupus-base-8-1.json",
}
MOST_SHOTS = 30  # a Lupus game has a hundred steps: the first ones are enough to look at


def artifacts(name: str) -> Path:
    out = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e" / "replay" / name
    shutil.rmtree(out, ignore_errors=True)  # (the screenshots of an earlier run)
    out.mkdir(parents=True)
    print(f"replay screenshots: {out}")
    return out


def record_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data.get("record", data)


def positions(page: Any) -> dict[int, int]:
    """Card id (the position it was dealt to) -> the position it lies at now."""
    got = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '[data-testid=replay-card]')].map((el) => [el.dataset.id, el.dataset.pos]))""")
    return {int(k): int(v) for k, v in got.items()}


def check_step(page: Any, expected: dict[str, Any], k: int, root: str = "#rp-view") -> None:
    """The page at step ``k`` shows what the engine computed for it."""
    step = expected["steps"][k - 1]
    assert page.get_attribute(root, "data-step") == str(k)
    assert page.get_attribute(root, "data-shape") == step["shape"]
    # Which card lies where: the card dealt to position i is at the position where the
    # engine's table after this step has a card of that role.
    where = positions(page)
    cards = step["table"]["cards"]
    dealt = expected["start"]["cards"]
    for card_id, pos in where.items():
        assert cards[pos] == dealt[card_id], (k, card_id, pos)
    if step["shape"] == "look":
        eyes = page.evaluate("""() => [...document.querySelectorAll('.rp-eye')]
            .map((e) => Number(e.closest('[data-testid=replay-card]').dataset.pos))""")
        assert sorted(eyes) == sorted(step["where"]), (k, eyes)
        seen = step["event"].get("card")
        if seen is not None:  # the card under the eye is the one the engine showed
            for p in step["where"]:
                assert cards[p] == seen
    sentence = page.inner_text("[data-testid=replay-sentence]").strip()
    assert sentence and "undefined" not in sentence and "{" not in sentence, (k, sentence)


def open_file(page: Any, url: str, path: Path) -> None:
    page.goto(f"{url}/replay")
    page.set_input_files("[data-testid=replay-file]", str(path))
    page.wait_for_selector("[data-testid=replay-table]")


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("size", ["tv", "phone"])
def test_a_record_file_replays_step_by_step(browser: Any, server: Any, case: str,
                                           size: str) -> None:
    path = CASES[case]
    expected = replay_steps(record_of(path))
    ctx = browser.new_context(**(HOST_TV if size == "tv" else PHONE_360))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_file(page, server.url, path)
    out = artifacts(f"{case}-{size}")
    names = page.locator("[data-testid=replay-seat] .rp-name").all_inner_texts()
    assert names == expected["players"]  # the seats in their real order
    assert page.locator("[data-testid=replay-card]").count() == len(expected["start"]["cards"])
    page.screenshot(path=str(out / "00-deal.png"))
    assert axe_violations(page) == []
    # Every role's name fits its card: a 360 px phone cut "Troublemaker" to "roublemake".
    cut = page.evaluate("""() => [...document.querySelectorAll('.rp-card .mini-card > span')]
        .filter((s) => s.getBoundingClientRect().width > s.parentElement.clientWidth + 1)
        .map((s) => s.textContent)""")
    assert cut == [], cut
    total = len(expected["steps"])
    assert page.inner_text("[data-testid=replay-counter]").strip() != ""
    for k in range(1, total + 1):
        page.click("[data-testid=replay-next]")
        check_step(page, expected, k)
        if k <= MOST_SHOTS:
            page.wait_for_timeout(950)  # the cards finish gliding
            page.screenshot(path=str(out / f"{k:02d}-{expected['steps'][k - 1]['shape']}.png"))
        if k in (1, total // 2):
            assert axe_violations(page) == []
        if size == "phone":
            assert sideways(page) == 0, k
    assert page.is_disabled("[data-testid=replay-next]")
    page.click("[data-testid=replay-first]")
    assert page.get_attribute("#rp-view", "data-step") == "0"
    assert errors == []
    ctx.close()


def test_a_file_chosen_before_the_page_has_its_words_still_opens(browser: Any,
                                                                  server: Any) -> None:
    """text.js awaits the English words before the page's script runs, so on a slow
    connection (or a loaded CI machine) the page has loaded, and the file can be chosen,
    before anything listens for it. The choice is not lost."""
    ctx = browser.new_context(**PHONE_360)
    page = ctx.new_page()
    held: list[Any] = []
    page.route("**/static/locales/en.json", lambda route: held.append(route))
    page.goto(f"{server.url}/replay", wait_until="domcontentloaded")
    deadline = time.monotonic() + 30
    while not held:  # (Playwright hands us the route only while it is waiting itself)
        assert time.monotonic() < deadline, "the page never asked for its words"
        page.wait_for_timeout(50)
    page.set_input_files("[data-testid=replay-file]", str(CASES["onuw"]))
    for route in held:
        route.continue_()
    page.unroute("**/static/locales/en.json")
    page.wait_for_selector("[data-testid=replay-table]")
    names = page.locator("[data-testid=replay-seat] .rp-name").all_inner_texts()
    assert names == replay_steps(record_of(CASES["onuw"]))["players"]
    ctx.close()


def test_a_dropped_record_opens_and_a_bad_one_is_refused(browser: Any, server: Any) -> None:
    ctx = browser.new_context(**HOST_TV)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/replay?lang=de")
    page.wait_for_selector("[data-testid=replay-drop]")
    wait_for(lambda: "Aufzeichnung auswählen" in page.inner_text("[data-testid=replay-drop]"),
             what="the page in German")

    def drop(name: str, text: str) -> None:
        page.evaluate("""([name, text]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([text], name, { type: "application/json" }));
            for (const kind of ["dragover", "drop"]) {
                const ev = new DragEvent(kind, { dataTransfer: dt, bubbles: true });
                document.body.dispatchEvent(ev);
            }
        }""", [name, text])

    bad = record_of(CASES["onuw"])
    bad["steps"][2] = {"call": "robber", "player": "Dario", "swap": "Zeno"}
    drop("bad.json", json.dumps(bad))
    page.wait_for_selector("[data-testid=replay-error]:not([hidden])")
    said = page.inner_text("[data-testid=replay-error]")
    assert said.startswith("Diese Aufzeichnung lässt sich nicht abspielen:"), said
    assert "step 2" in said and "'Zeno' is not seated at this table" in said, said
    drop("notes.txt", "this is not a record")
    wait_for(lambda: "kein gültiges JSON" in page.inner_text("[data-testid=replay-error]"),
             what="the not-JSON refusal")
    assert page.locator("[data-testid=replay-table]").count() == 0

    saved = json.loads(CASES["epic"].read_text(encoding="utf-8"))
    drop("epic.json", json.dumps(saved))  # with its comments (the page leaves them out)
    page.wait_for_selector("[data-testid=replay-table]")
    assert page.is_hidden("[data-testid=replay-error]")
    assert page.inner_text("[data-testid=replay-source]") == "epic.json"
    page.screenshot(path=str(artifacts("dropped") / "epic-dropped.png"))
    assert page.inner_text("[data-testid=replay-counter]").strip() == "Die Verteilung"
    # By itself: the steps go on with nobody tapping, until paused.
    page.click("[data-testid=replay-play]")
    wait_for(lambda: int(page.get_attribute("#rp-view", "data-step") or 0) >= 2, timeout=10,
             what="two steps played by themselves")
    assert page.get_attribute("[data-testid=replay-play]", "aria-pressed") == "true"
    page.click("[data-testid=replay-play]")
    paused = page.get_attribute("#rp-view", "data-step")
    page.wait_for_timeout(3000)
    assert page.get_attribute("#rp-view", "data-step") == paused
    assert page.inner_text("[data-testid=replay-counter]").startswith("Schritt ")
    assert errors == []
    ctx.close()


def test_the_host_and_a_phone_replay_the_night_of_their_game(browser: Any, server: Any) -> None:
    table = Table(browser, server.url, ("Anna", "Bruno"), ruleset="onuw", seats=5,
                  call_seconds=1.0, discussion_seconds=1, vote_seconds=2, language="it")
    host, phones, errors = table.host, table.phones, table.errors
    host.set_viewport_size(HOST_TV["viewport"])
    host.click("[data-testid=deal]")
    wait_for(lambda: stage(host) == "night", what="night")
    # Before the end the replay is closed (it holds every secret).
    import httpx
    assert httpx.get(f"{server.url}/api/rooms/{table.code}/replay").status_code == 403
    while stage(host) in ("night", "dusk"):
        for page in phones:
            act_if_called(page)
        time.sleep(0.15)
    wait_for(lambda: stage(host) == "over", what="the end", timeout=60)
    record = httpx.get(f"{server.url}/api/rooms/{table.code}/record").json()
    expected = replay_steps(record)

    host.click("[data-testid=replay-open]")
    host.wait_for_selector("[data-testid=replay-overlay] [data-testid=replay-table]")
    out = artifacts("host-end")
    host.screenshot(path=str(out / "00-deal.png"))
    assert "Passo" in host.inner_text("[data-testid=replay-overlay]") or \
        "distribuzione" in host.inner_text("[data-testid=replay-overlay]")  # the room's Italian
    for k in range(1, len(expected["steps"]) + 1):
        host.click("[data-testid=replay-overlay] [data-testid=replay-next]")
        check_step(host, expected, k, "[data-testid=replay-overlay] .rp-body")
        host.wait_for_timeout(950)
        host.screenshot(path=str(out / f"{k:02d}-{expected['steps'][k - 1]['shape']}.png"))
    assert axe_violations(host) == []
    host.click("[data-testid=replay-close]")
    assert host.locator("[data-testid=replay-overlay]").count() == 0

    phone = phones[0]
    seat = expected["players"].index("Anna")
    phone.wait_for_selector("[data-testid=replay-open]")
    phone.click("[data-testid=replay-open]")
    phone.wait_for_selector("[data-testid=replay-overlay] [data-testid=replay-table]")
    out = artifacts("phone-anna")
    for k, step in enumerate(expected["steps"], 1):
        phone.click("[data-testid=replay-overlay] [data-testid=replay-next]")
        marked = phone.locator("[data-testid=replay-say].mine").count() == 1
        own = isinstance(step["seen_by"], list) and seat in step["seen_by"]
        assert marked == own, (k, step["seen_by"])
        if own:
            assert phone.inner_text("[data-testid=replay-who]").startswith("Un tuo passo")
        phone.screenshot(path=str(out / f"{k:02d}{'-mine' if own else ''}.png"))
    assert sideways(phone) == 0
    assert axe_violations(phone) == []

    # Later, or on another screen: /replay/CODE, from the record alone.
    later = browser.new_context(**PHONE_360).new_page()
    later.on("pageerror", lambda e: errors.append(str(e)))
    later.goto(f"{server.url}/replay/{table.code}")
    later.wait_for_selector("[data-testid=replay-table]")
    assert later.locator("[data-testid=replay-seat]").count() == 5
    later.click("[data-testid=replay-last]")
    later.screenshot(path=str(artifacts("later") / "end.png"))
    assert errors == []
