"""One Night Ultimate Werewolf (shared/rules/one-night-ultimate-werewolf.md)."""
