"""The arena: tournaments that rate bots and agents, fairly and reproducibly.

- :mod:`~nightcall.arena.config`: the tournament (entrants, ruleset, deck, games, seed),
  read from a TOML file or from flags;
- :mod:`~nightcall.arena.schedule`: the duplicate format, who sits where in each game;
- :mod:`~nightcall.arena.seats`: the players behind the seats (bots, stdio programs,
  the LLM player) and one game played with them;
- :mod:`~nightcall.arena.results`: the results file, one JSON line per game, for resuming;
- :mod:`~nightcall.arena.run`: a tournament over worker processes;
- :mod:`~nightcall.arena.ratings`: openskill ratings per side and the leaderboard.
"""


class ArenaError(Exception):
    """A tournament that cannot be run as given; the message says what to change."""
