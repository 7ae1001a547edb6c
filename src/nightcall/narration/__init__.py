"""The narrator: night scripts as data, spoken or shown in English, Italian and German.

- :mod:`.lines` says which locale lines each call of each ruleset speaks, and when;
- :mod:`.locale` loads ``locales/*.json`` (one key per spoken line, plus role names);
- :mod:`.timing` holds the rulebooks' pauses and the speed setting;
- :mod:`.script` turns a deck into the list of steps (``role``, ``text``, ``wait``);
- :mod:`.speech` and :mod:`.runner` are the edges: espeak-ng and the countdowns.

Everything but the last two is deterministic and free of I/O beyond reading the
locale files, so a script depends on the deck alone, never on who holds what.
"""
