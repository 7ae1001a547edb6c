"""One Night Ultimate Werewolf: Epic Battle (rules: shared/rules/epic-battle-rulebook.txt)."""
