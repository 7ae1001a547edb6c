"""The end of an Epic Battle game: who each player is, the vote, who dies, who wins.

Source: epic-battle-rulebook.txt: "Vote", "End of the Game - Who Has Won?",
"Hunter", "Bodyguard", "The Master", "Venus" (lovers), "Assassin" (Bounty),
"Tanner", "Infected" (Plague), "Instigator" (Traitor), "Renfield", the Curator's
artifacts, "Epic Battles", "Special Cases" and both "Who-Has-Won Check" flowcharts.
Rulings: docs/rulings.md (Epic Battle).

Everything here works on an :class:`EndOfNight` (the cards, tokens, artifacts
and votes at the end), so a live game and a real table (:func:`judge`) are
judged by the same named steps, each adding its sentence to the explanation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nightcall.engine.errors import DeckError
from nightcall.engine.outcome import Death, Outcome
from nightcall.rulesets.epic.roles import (
    ARTIFACT_NAME,
    ARTIFACT_ROLE,
    ARTIFACTS,
    ASSASSIN,
    ASSASSIN_TEAM,
    BODYGUARD,
    BOUNTY,
    HUNTER,
    LOVE,
    MIMIC,
    PLAGUE,
    RENFIELD,
    ROLE_IDS,
    TANNER,
    TANNER_TEAM,
    THE_MASTER,
    TOKENS,
    TRAITOR,
    VAMPIRE_CARDS,
    VAMPIRE_TOKEN,
    VAMPIRES,
    VILLAGE,
    WEREWOLVES,
    WOLF_CARDS,
    name,
)

NO_VOTE = -1

CLASSIC = "classic"
EPIC = "epic"
NO_VILLAGE = "no_village"  # both monster parties among the players, no villager

TEAM_NAME = {
    VILLAGE: "the Village", WEREWOLVES: "the Werewolf pack", VAMPIRES: "the Vampire clan",
    TANNER_TEAM: "the Tanner", ASSASSIN_TEAM: "the Assassin",
}


@dataclass(frozen=True, slots=True)
class EndOfNight:
    """The table when the vote is called. ``roles[s]`` is the role seat s's card counts
    as (a Mimic or transformed Ghost Hunter card already resolved), before artifacts."""

    names: tuple[str, ...]
    roles: tuple[str, ...]
    tokens: tuple[str, ...]
    artifacts: tuple[str | None, ...]
    votes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Identity:
    role: str  # after a role-changing artifact
    kind: str | None  # WEREWOLVES / VAMPIRES for monsters, else None
    party: str
    vote_ability: bool  # False when an artifact replaced the role


def identities(end: EndOfNight) -> list[Identity]:
    """Who each player is at the end: card, then artifact, then the Vampire token."""
    out: list[Identity] = []
    for s, card in enumerate(end.roles):
        role = card
        ability = True
        artifact = end.artifacts[s]
        if artifact in ARTIFACT_ROLE:
            role = ARTIFACT_ROLE[artifact]
            ability = False
        kind = WEREWOLVES if role in WOLF_CARDS else VAMPIRES if role in VAMPIRE_CARDS else None
        if end.tokens[s] == VAMPIRE_TOKEN:
            kind = VAMPIRES
        if kind is not None:
            party = kind
        elif role == TANNER:
            party = TANNER_TEAM
        elif role == ASSASSIN:
            party = ASSASSIN_TEAM
        else:
            party = VILLAGE  # Renfield is settled below, once the vampires are known
        out.append(Identity(role, kind, party, ability))
    vampires_present = any(i.kind == VAMPIRES for i in out)
    return [
        Identity(i.role, i.kind, VAMPIRES, i.vote_ability)
        if i.role == RENFIELD and i.kind is None and vampires_present else i
        for i in out
    ]


def battle_mode(ids: Sequence[Identity]) -> str:
    wolves = any(i.kind == WEREWOLVES for i in ids)
    vampires = any(i.kind == VAMPIRES for i in ids)
    village = any(i.party == VILLAGE for i in ids)
    if wolves and vampires:
        return EPIC if village else NO_VILLAGE
    return CLASSIC


def _join(parts: Iterable[str]) -> str:
    items = list(parts)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Check:
    """One run of the check: the facts, the sentences, and the named steps."""

    def __init__(self, end: EndOfNight, talk: bool = True) -> None:
        self.end = end
        self.talk = talk  # False: decide only, the sentences are written on demand
        self.names = end.names
        self.n = len(end.names)
        self.ids = identities(end)
        self.mode = battle_mode(self.ids)
        self.lines: list[str] = [] if talk else _Sink()
        self.deaths: list[Death] = []
        self.teams: list[str] = []

    def who(self, seats: Iterable[int]) -> str:
        return _join(self.names[s] for s in seats)

    # --- before the vote: who is who ---------------------------------------------
    def step_identities(self) -> None:
        if not self.talk:
            return
        end = self.end
        for s, i in enumerate(self.ids):
            artifact = end.artifacts[s]
            if artifact in ARTIFACT_ROLE:
                self.lines.append(
                    f"{self.names[s]} holds the {name(end.roles[s])} card but the "
                    f"{ARTIFACT_NAME[artifact]} makes them a {name(i.role)}"
                    + (" (the card's vote ability is lost)." if end.roles[s] in (
                        HUNTER, BODYGUARD, THE_MASTER) else ".")
                )
            if end.tokens[s] == VAMPIRE_TOKEN and end.roles[s] not in VAMPIRE_CARDS:
                self.lines.append(
                    f"{self.names[s]} has the Vampire token and plays for the Vampire clan."
                )
            if i.role == RENFIELD and i.kind is None:
                side = "the Vampire clan" if i.party == VAMPIRES else \
                    "the Village, since no player is a vampire"
                self.lines.append(f"{self.names[s]} is Renfield and plays for {side}.")
        if self.mode == EPIC:
            self.lines.append("Village, werewolves and vampires are all among the players: "
                              "this is an Epic Battle, so the two most voted players die.")
        elif self.mode == NO_VILLAGE:
            self.lines.append("Werewolves and vampires are among the players but no member of "
                              "the Village: only the most voted player dies, and each monster "
                              "party wins if only the other one loses a player.")

    # --- the vote ------------------------------------------------------------------
    def protected(self) -> dict[int, str]:
        """Seats the vote cannot kill, with the reason."""
        end, ids, names = self.end, self.ids, self.names
        safe: dict[int, str] = {}
        for s, i in enumerate(ids):
            target = end.votes[s]
            if i.role == BODYGUARD and i.vote_ability and target != NO_VOTE:
                safe.setdefault(target, f"the Bodyguard {names[s]} points at them")
            if i.role == THE_MASTER and i.vote_ability:
                guards = [v for v in range(self.n) if v != s and end.votes[v] == s
                          and ids[v].kind == VAMPIRES]
                if guards:
                    safe.setdefault(s, f"they are the Master and the vampire "
                                       f"{self.who(guards)} points at them")
        return safe

    def step_vote(self) -> None:
        end, names, lines = self.end, self.names, self.lines
        tally = [0] * self.n
        for v in end.votes:
            if v != NO_VOTE:
                tally[v] += 1
        counts = sorted({t for t in tally if t > 0}, reverse=True)
        groups = [[s for s in range(self.n) if tally[s] == c] for c in counts]
        if not groups or counts[0] < 2:
            lines.append("Nobody has more than one vote, so the vote kills nobody.")
            return
        top = groups[0]
        places = 2 if self.mode == EPIC else 1
        dying = list(top)
        if len(top) == 1:
            lines.append(f"{names[top[0]]} has the most votes ({counts[0]}).")
        else:
            lines.append(f"{self.who(top)} tie for the most votes ({counts[0]} each).")
        second_included = False
        if places == 2:
            if len(top) > 1:
                lines.append("In an Epic Battle a tie for the most votes kills only the "
                             "tied players.")
            elif len(groups) > 1:
                dying += groups[1]
                second_included = True
                lines.append(f"Second most votes ({counts[1]}): {self.who(groups[1])}.")
            else:
                lines.append("Nobody else has a vote, so there is no second place.")
        safe = self.protected()
        for s in dying:
            if s in safe:
                lines.append(f"{names[s]} cannot be killed: {safe[s]}.")
        if all(s in safe for s in top) and not second_included:
            if len(groups) > 1 and counts[1] >= 2:
                lines.append(f"The next most voted die instead: {self.who(groups[1])} "
                             f"({counts[1]} votes).")
                dying += groups[1]
            else:
                lines.append("Nobody else has at least two votes, so nobody dies instead.")
        for s in dying:
            if s not in safe:
                self.deaths.append(Death(s, "votes"))
        if self.deaths:
            lines.append(f"The vote kills {self.who(d.seat for d in self.deaths)}.")
        else:
            lines.append("The vote kills nobody.")

    # --- flowchart steps 1 and 2: the Hunter and the lovers ----------------------
    def step_hunter_and_lovers(self) -> None:
        end, ids, names = self.end, self.ids, self.names
        safe = self.protected()
        dead = {d.seat for d in self.deaths}
        lovers = [s for s in range(self.n) if end.tokens[s] == LOVE]
        i = 0
        while i < len(self.deaths):
            s = self.deaths[i].seat
            target = end.votes[s]
            if ids[s].role == HUNTER and ids[s].vote_ability and target != NO_VOTE \
                    and target not in dead:
                if target in safe:
                    self.lines.append(f"{names[s]} was the Hunter and points at "
                                      f"{names[target]}, who is protected: {safe[target]}.")
                else:
                    self.deaths.append(Death(target, "hunter"))
                    dead.add(target)
                    self.lines.append(f"{names[s]} was the Hunter, so {names[target]}, "
                                      "at whom the Hunter points, dies too.")
            if s in lovers:
                for other in lovers:
                    if other not in dead:
                        self.deaths.append(Death(other, "lovers"))
                        dead.add(other)
                        self.lines.append(f"{names[s]} had a Love token, so the other lover, "
                                          f"{names[other]}, dies too, protected or not.")
            i += 1

    # --- the checks ----------------------------------------------------------------
    def dead_of_kind(self, kind: str) -> list[int]:
        return [d.seat for d in self.deaths if self.ids[d.seat].kind == kind]

    def monster_words(self, seats: list[int]) -> str:
        """"The vampire Bruno", "The werewolves Anna and Bruno"."""
        kind = self.ids[seats[0]].kind
        word = "werewolf" if kind == WEREWOLVES else "vampire"
        return f"The {word}{'s' if len(seats) > 1 else ''} {self.who(seats)}"

    def monsters_present(self) -> list[str]:
        return [k for k in (WEREWOLVES, VAMPIRES) if any(i.kind == k for i in self.ids)]

    def win(self, team: str, why: str) -> None:
        self.teams.append(team)
        self.lines.append(f"{why}: {TEAM_NAME[team]} wins.")

    def step_bounty(self) -> None:
        assassins = [s for s, i in enumerate(self.ids) if i.party == ASSASSIN_TEAM]
        holder = [s for s in range(self.n) if self.end.tokens[s] == BOUNTY]
        if not assassins or not holder:
            return
        dead = {d.seat for d in self.deaths}
        if holder[0] in dead:
            self.win(ASSASSIN_TEAM, f"{self.names[holder[0]]} had the Bounty token and died")
        else:
            self.lines.append(f"{self.names[holder[0]]} has the Bounty token and lives: "
                              "the Assassin does not win.")

    def box_3(self) -> None:
        """The Epic Battles' box (3): which monster parties lost a player."""
        wolves, vampires = self.dead_of_kind(WEREWOLVES), self.dead_of_kind(VAMPIRES)
        if wolves and vampires:
            if self.mode == NO_VILLAGE:
                self.lines.append("A werewolf and a vampire died and no player belongs to "
                                  "the Village: nobody else wins.")
            else:
                self.win(VILLAGE, f"Werewolf {self.who(wolves)} and vampire "
                                  f"{self.who(vampires)} died")
        elif wolves:
            self.win(VAMPIRES, f"A werewolf died ({self.who(wolves)}) and no vampire did")
        elif vampires:
            self.win(WEREWOLVES, f"A vampire died ({self.who(vampires)}) and no werewolf did")
        else:
            self.lines.append("No werewolf and no vampire died: nobody else wins.")

    def box_1(self) -> None:
        """Classic step 6: nobody of the monsters died; do they exist?"""
        present = self.monsters_present()
        if present:
            kind = present[0]
            self.win(kind, f"No {'werewolf' if kind == WEREWOLVES else 'vampire'} died")
        else:
            self.lines.append("No player is a werewolf or a vampire, yet somebody died: "
                              "nobody wins.")

    def step_check(self) -> None:
        lines = self.lines
        dead = {d.seat for d in self.deaths}
        present = self.monsters_present()
        if not dead:
            lines.append("Nobody died.")
            if present:
                if self.mode == CLASSIC:
                    kind = present[0]
                    self.win(kind, f"The {'werewolves' if kind == WEREWOLVES else 'vampires'} "
                                   "among the players all live")
                else:
                    lines.append("With werewolves and vampires both among the players, "
                                 "nobody wins when nobody dies.")
            else:
                self.win(VILLAGE, "No player is a werewolf or a vampire and nobody died")
            return
        self.step_bounty()
        tanners = [d.seat for d in self.deaths if self.ids[d.seat].party == TANNER_TEAM]
        if tanners:
            self.teams.append(TANNER_TEAM)
            lines.append(f"The Tanner died ({self.who(tanners)}): the Tanner wins.")
            if self.mode == CLASSIC:
                monsters = self.dead_of_kind(WEREWOLVES) + self.dead_of_kind(VAMPIRES)
                if monsters:
                    self.win(VILLAGE, f"{self.monster_words(monsters)} died as well")
                else:
                    lines.append("No werewolf or vampire died: only the Tanner wins "
                                 "(with the Assassin, if the Bounty died).")
            else:
                self.box_3()
            return
        if self.mode == CLASSIC:
            monsters = self.dead_of_kind(WEREWOLVES) + self.dead_of_kind(VAMPIRES)
            if monsters:
                self.win(VILLAGE, f"{self.monster_words(monsters)} died")
            else:
                self.box_1()
        else:
            self.box_3()

    # --- who, player by player ---------------------------------------------------------
    def step_winners(self) -> list[int]:
        end, ids, names = self.end, self.ids, self.names
        dead = {d.seat for d in self.deaths}
        plague = next((s for s in range(self.n) if end.tokens[s] == PLAGUE), None)
        winners: list[int] = []
        for s, i in enumerate(ids):
            won = s in dead if i.party == TANNER_TEAM else i.party in self.teams
            if end.tokens[s] == TRAITOR:
                mates = [m for m, j in enumerate(ids) if m != s and j.party == i.party]
                if mates:
                    fallen = [m for m in mates if m in dead]
                    won = bool(fallen) and bool(self.teams)
                    if fallen:
                        self.lines.append(
                            f"{names[s]} has the Traitor token and {self.who(fallen)} of their "
                            "party died" + (": they win with the winners." if won
                                            else ", but nobody wins.")
                        )
                    else:
                        self.lines.append(f"{names[s]} has the Traitor token and nobody else of "
                                          "their party died: they cannot win.")
            if plague is not None and end.votes[s] == plague and won:
                won = False
                self.lines.append(f"{names[s]} pointed at {names[plague]}, who has the Plague "
                                  "token: they cannot win.")
            if won:
                winners.append(s)
        if winners:
            self.lines.append(f"Winners: {self.who(winners)}.")
        else:
            self.lines.append("Nobody wins.")
        return winners

    def run(self) -> Outcome:
        self.step_identities()
        self.step_vote()
        if self.deaths:
            self.step_hunter_and_lovers()
        self.step_check()
        winners = self.step_winners()
        return Outcome(tuple(self.deaths), tuple(self.teams), tuple(winners),
                       tuple(self.lines), {"mode": self.mode})


class _Sink(list[str]):
    """Where sentences go when nobody will read them."""

    def append(self, line: str) -> None:
        pass


def decide(end: EndOfNight, explain_now: bool = True) -> Outcome:
    """The vote and the who-has-won check (classic or epic) for an end-of-night table.

    With ``explain_now=False`` the sentences are written only when the outcome's
    explanation is first read (the same check, run again with words)."""
    if explain_now:
        return _Check(end).run()
    quiet = _Check(end, talk=False).run()
    return Outcome(quiet.deaths, quiet.teams, quiet.winners,
                   lambda: _Check(end).run().explanation, quiet.extra)


# --- a real table ---------------------------------------------------------------------


def judge(table: Mapping[str, Any]) -> Outcome:
    """Judge a real table: ``{"players", "cards": {name: final role}, "center",
    "tokens": {name: token}, "artifacts": {name: artifact}, "votes": {name: name}}``.

    Cards are the roles at the end (a Mimic card as the role it copied). Raises
    DeckError with the reason when the table is not a possible end of night.
    """
    players = table.get("players")
    if not isinstance(players, list) or not players or \
            not all(isinstance(p, str) and p for p in players):
        raise DeckError("'players' must be a non-empty list of names")
    names = tuple(players)
    if len(set(names)) != len(names):
        raise DeckError("two players have the same name")
    cards = _by_name(table, "cards", names, required=True)
    roles: list[str] = []
    for p in names:
        role = cards[p]
        if role not in ROLE_IDS:
            raise DeckError(f"{p}'s card {role!r} is not an Epic Battle role")
        if role == MIMIC:
            raise DeckError(f"{p} holds the Mimic: give the role it copied instead "
                            "(villager if the Mimic card started in the center)")
        roles.append(role)
    center = table.get("center", [])
    if not isinstance(center, list) or any(c not in ROLE_IDS for c in center):
        raise DeckError("'center' must list Epic Battle role ids")
    tokens_in = _by_name(table, "tokens", names)
    tokens = []
    for p in names:
        token = tokens_in.get(p, "certainty")
        if token not in TOKENS:
            raise DeckError(f"{p}'s token {token!r} is not a symbol token "
                            f"({', '.join(TOKENS)})")
        tokens.append(token)
    for token, limit in ((LOVE, 2), (BOUNTY, 1), (PLAGUE, 1), (VAMPIRE_TOKEN, 1),
                         (TRAITOR, 1)):
        if tokens.count(token) > limit:
            raise DeckError(f"there are only {limit} {token} token(s), the table shows "
                            f"{tokens.count(token)}")
    artifacts_in = _by_name(table, "artifacts", names)
    artifacts: list[str | None] = []
    for p in names:
        a = artifacts_in.get(p)
        if a is not None and a not in ARTIFACTS:
            raise DeckError(f"{p}'s artifact {a!r} is not one of {', '.join(ARTIFACTS)}")
        artifacts.append(a)
    votes_in = _by_name(table, "votes", names)
    votes = []
    for p in names:
        target = votes_in.get(p)
        if target is None:
            votes.append(NO_VOTE)
        elif target not in names:
            raise DeckError(f"{p} points at {target!r}, who is not seated at this table")
        elif target == p:
            raise DeckError(f"{p} points at themselves; everyone points at a fellow player")
        else:
            votes.append(names.index(target))
    return decide(EndOfNight(names, tuple(roles), tuple(tokens), tuple(artifacts),
                             tuple(votes)))


def _by_name(table: Mapping[str, Any], key: str, names: tuple[str, ...],
             required: bool = False) -> dict[str, Any]:
    value = table.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise DeckError(f"'{key}' must map player names to values")
    unknown = [k for k in value if k not in names]
    if unknown:
        raise DeckError(f"'{key}' names people not seated: {', '.join(map(str, unknown))}")
    if required:
        missing = [p for p in names if p not in value]
        if missing:
            raise DeckError(f"'{key}' has nothing for {', '.join(missing)}")
    return dict(value)
