"""Built-in rulesets. Each ``<id>/game.py`` registers its ruleset when imported;
:func:`nightcall.engine.ruleset.get_ruleset` imports them on first use."""
