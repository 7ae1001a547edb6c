"""Built-in rulesets, registered by id on import."""

from nightcall.engine.ruleset import register
from nightcall.rulesets.onuw.game import ONUW

register(ONUW)

for _module in ("nightcall.rulesets.epic.game", "nightcall.rulesets.lupus.game"):
    # Rulesets still being built may be absent; the ones present register themselves.
    try:
        __import__(_module)
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the tree
        if exc.name is None or not _module.startswith(exc.name):
            raise
