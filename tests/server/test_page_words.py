"""The pages' words: web/locales plus each ruleset's role help, which lives in the
ruleset's own locales folder (issue #13: a ruleset is one folder), served together at
/static/locales/<lang>.json."""

from __future__ import annotations

import json
from typing import Any

from nightcall.engine.ruleset import all_rulesets
from nightcall.narration.locale import LANGUAGES, ruleset_locales_dir
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
