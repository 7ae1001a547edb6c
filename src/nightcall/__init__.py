"""nightcall: a game master for social-deduction card games.

The rules live in :mod:`nightcall.rulesets`; the shared machinery (actions,
events, views, outcomes, records) in :mod:`nightcall.engine`.
"""

__version__ = "0.1.0"
