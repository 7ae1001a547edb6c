"""The end of an Epic Battle game: who each player is, the vote, who dies, who wins.

Source: epic-battle-rulebook.txt: "Vote", "End of the Game - Who Has Won?",
"Hunter", "Bodyguard", "The Master", "Venus" (lovers), "Assassin" (Bounty),
"Tanner", "Infected" (Plague), "Instigator" (Traitor), "Renfield", the Curator's
artifacts, "Epic Battles", "Special Cases" and both "Who-Has-Won Check" flowcharts.
Rulings: docs/rulings.md (Epic Battle).

Everything here works on an :class:`EndOfNight` (the cards, tokens, artifacts
and votes at the end), so a live game and a real table (:func:`judge`) are
judged by the same named steps, each adding its reason to the explanation (a
locale key and its values: the ``why.epic.*`` lines of the narrator's locales).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from nightcall.engine.errors import DeckError, Said
from nightcall.engine.outcome import Arg, Death, Outcome, Reason, Term, why
from nightcall.rulesets.epic.roles import (
    ARTIFACT_ROLE,
    ARTIFACTS,
    ASSASSIN,
    ASSASSIN_TEAM,
    BODYGUARD,
    BOUNTY,
    GHOST_TRANSFORMS,
    HUNTER,
    LOVE,
    MIMIC,
    PLAGUE,
    RENFIELD,
    ROLE_IDS,
    TANNER,
    TANNER_TEAM,
    THE_MASTER,
    TOKEN_SUPPLY,
    TOKENS,
    TRAITOR,
    VAMPIRE_CARDS,
    VAMPIRE_TOKEN,
    VAMPIRES,
    VILLAGE,
    WEREWOLVES,
    WOLF_CARDS,
    tokens_beyond_the_box,
)

NO_VOTE = -1

CLASSIC = "classic"
EPIC = "epic"
NO_VILLAGE = "no_village"  # both monster parties among the players, no villager
PARTIES = (VILLAGE, WEREWOLVES, VAMPIRES)  # the Tanner and the Assassin are alone


class EndOfNight(NamedTuple):  # a tuple: built in every game, and cheaper than a dataclass
    """The table when the vote is called. ``roles[s]`` is the role seat s's card counts
    as (a Mimic or transformed Ghost Hunter card already resolved), before artifacts."""

    names: tuple[str, ...]
    roles: tuple[str, ...]
    tokens: tuple[str, ...]
    artifacts: tuple[str | None, ...]
    votes: tuple[int, ...]


class Identity(NamedTuple):  # a tuple: built for every player of every game
    role: str  # after a role-changing artifact
    kind: str | None  # WEREWOLVES / VAMPIRES for monsters, else None
    party: str
    vote_ability: bool  # False when an artifact replaced the role


@cache  # a few hundred (card, artifact, token) triples come up in every game
def identity(card: str, artifact: str | None, token: str) -> Identity:
    """Who a player is from their card, then artifact, then the Vampire token; a
    Renfield is settled by :func:`identities`, once the vampires are known."""
    role, ability = card, True
    if artifact in ARTIFACT_ROLE:
        role = ARTIFACT_ROLE[artifact]
        ability = False
    kind = WEREWOLVES if role in WOLF_CARDS else VAMPIRES if role in VAMPIRE_CARDS else None
    if token == VAMPIRE_TOKEN:
        kind = VAMPIRES
    if kind is not None:
        party = kind
    elif role == TANNER:
        party = TANNER_TEAM
    elif role == ASSASSIN:
        party = ASSASSIN_TEAM
    else:
        party = VILLAGE
    return Identity(role, kind, party, ability)


def identities(end: EndOfNight) -> list[Identity]:
    """Who each player is at the end: card, then artifact, then the Vampire token; a
    Renfield without a monster's card or token is a vampire when there are vampires."""
    out = list(map(identity, end.roles, end.artifacts, end.tokens))
    if RENFIELD not in end.roles or VAMPIRES not in {i.kind for i in out}:
        return out
    return [i._replace(party=VAMPIRES) if i.role == RENFIELD and i.kind is None else i
            for i in out]


def battle_mode(ids: Sequence[Identity], kinds: set[str | None]) -> str:
    """Classic, or an Epic Battle (with or without villagers) when both werewolves and
    vampires are among the players (``kinds``: the players' monster kinds)."""
    if WEREWOLVES in kinds and VAMPIRES in kinds:
        return EPIC if any(i.party == VILLAGE for i in ids) else NO_VILLAGE
    return CLASSIC


class _Check:
    """One run of the check: the facts, the reasons, and the named steps."""

    def __init__(self, end: EndOfNight, talk: bool = True) -> None:
        self.end = end
        self.talk = talk  # False: decide only, the reasons are worked out on demand
        self.names = end.names
        self.n = len(end.names)
        self.ids = identities(end)
        kinds = {i.kind for i in self.ids}
        self.mode = battle_mode(self.ids, kinds)
        self.present: list[str] = [k for k in (WEREWOLVES, VAMPIRES) if k in kinds]
        self.lines: list[Reason] = []  # (dropped by a quiet check)
        self.deaths: list[Death] = []
        self.dead: set[int] = set()  # the seats of ``deaths``
        self.teams: list[str] = []
        self._safe: dict[int, Reason] | None = None

    def say(self, key: str, **values: Arg) -> None:
        """One reason of the explanation (a quiet check builds none)."""
        if self.talk:
            self.lines.append(why(key, **values))

    def kill(self, seat: int, cause: str) -> None:
        self.deaths.append(Death(seat, cause))
        self.dead.add(seat)

    def who(self, seats: Iterable[int]) -> tuple[str, ...]:
        """Names for a reason (nobody reads them in a quiet check)."""
        return tuple(self.names[s] for s in seats) if self.talk else ()

    # --- before the vote: who is who ---------------------------------------------
    def step_identities(self) -> None:
        if not self.talk:
            return
        end = self.end
        for s, i in enumerate(self.ids):
            artifact = end.artifacts[s]
            if artifact in ARTIFACT_ROLE:
                lost = end.roles[s] in (HUNTER, BODYGUARD, THE_MASTER)
                self.say(
                    "epic.artifact_role_lost" if lost else "epic.artifact_role",
                    name=self.names[s], card=Term("role", end.roles[s]),
                    artifact=Term("artifact", artifact), role=Term("role", i.role),
                )
            if end.tokens[s] == VAMPIRE_TOKEN and end.roles[s] not in VAMPIRE_CARDS:
                self.say("epic.vampire_token", name=self.names[s])
            if i.role == RENFIELD and i.kind is None:
                self.say("epic.renfield_vampires" if i.party == VAMPIRES
                         else "epic.renfield_village", name=self.names[s])
        if self.mode == EPIC:
            self.say("epic.mode_epic")
        elif self.mode == NO_VILLAGE:
            self.say("epic.mode_no_village")

    # --- the vote ------------------------------------------------------------------
    def protected(self) -> dict[int, Reason]:
        """Seats the vote cannot kill, with the reason (a clause). The table does not
        change during the check: worked out once."""
        if self._safe is not None:
            return self._safe
        end, ids, names = self.end, self.ids, self.names
        safe: dict[int, Reason] = {}
        self._safe = safe
        if BODYGUARD not in end.roles and THE_MASTER not in end.roles:
            return safe  # (most games: nobody can protect)
        for s, i in enumerate(ids):
            target = end.votes[s]
            if i.role == BODYGUARD and i.vote_ability and target != NO_VOTE:
                safe.setdefault(target, why("epic.safe.bodyguard", name=names[s]))
            if i.role == THE_MASTER and i.vote_ability:
                guards = [v for v in range(self.n) if v != s and end.votes[v] == s
                          and ids[v].kind == VAMPIRES]
                if guards:
                    safe.setdefault(s, why("epic.safe.master", names=self.who(guards)))
        return safe

    def step_vote(self) -> None:
        end, names = self.end, self.names
        tally = [0] * self.n
        for v in end.votes:
            if v != NO_VOTE:
                tally[v] += 1
        # The two highest vote counts above zero and who has them: only those matter.
        counts = sorted(set(tally), reverse=True)[:2]
        most = counts[0]
        if most < 2:
            self.say("epic.no_majority")
            return
        if counts[-1] == 0:
            del counts[1:]
        top = _seats_with(tally, most)  # (the runner-up's seats: only when they matter)
        places = 2 if self.mode == EPIC else 1
        dying = list(top)
        if len(top) == 1:
            self.say("epic.most_votes", name=names[top[0]], votes=counts[0])
        else:
            self.say("epic.tie", names=self.who(top), votes=counts[0])
        second_included = False
        if places == 2:
            if len(top) > 1:
                self.say("epic.tie_epic")
            elif len(counts) > 1:
                second = _seats_with(tally, counts[1])
                dying += second
                second_included = True
                self.say("epic.second", names=self.who(second), votes=counts[1])
            else:
                self.say("epic.no_second")
        safe = self.protected()  # (most games: nobody is safe)
        for s in dying if safe else ():
            if s in safe:
                self.say("epic.protected", name=names[s], why=safe[s])
        if safe and all(s in safe for s in top) and not second_included:
            # "Bodyguard": the next player "must, however, have received at least 2
            # votes"; "The Master" sets no minimum (docs/rulings.md).
            guarded = any(safe[s].key == "epic.safe.bodyguard" for s in top)
            if len(counts) > 1 and counts[1] >= (2 if guarded else 1):
                second = _seats_with(tally, counts[1])
                self.say("epic.next_instead", names=self.who(second),
                         votes=Term("count", "votes", counts[1]))
                dying += second
            else:
                self.say("epic.none_instead" if guarded
                         else "epic.none_instead_unvoted")
        for s in dying:
            if s not in safe:
                self.kill(s, "votes")
        if self.deaths:
            self.say("epic.vote_kills", names=self.who(d.seat for d in self.deaths))
        else:
            self.say("epic.vote_kills_nobody")

    # --- flowchart steps 1 and 2: the Hunter and the lovers ----------------------
    def step_hunter_and_lovers(self) -> None:
        end, ids, names = self.end, self.ids, self.names
        safe = self.protected()
        dead = self.dead
        lovers = [s for s in range(self.n) if end.tokens[s] == LOVE]
        i = 0
        while i < len(self.deaths):
            s = self.deaths[i].seat
            target = end.votes[s]
            if ids[s].role == HUNTER and ids[s].vote_ability and target != NO_VOTE \
                    and target not in dead:
                if target in safe:
                    self.say("epic.hunter_blocked", name=names[s],
                             target=names[target], why=safe[target])
                else:
                    self.kill(target, "hunter")
                    self.say("epic.hunter", name=names[s], target=names[target])
            if s in lovers:
                for other in lovers:
                    if other not in dead:
                        self.kill(other, "lovers")
                        self.say("epic.lovers", name=names[s],
                                 other=names[other])
            i += 1

    # --- the checks ----------------------------------------------------------------
    def dead_of_kind(self, kind: str) -> list[int]:
        return [d.seat for d in self.deaths if self.ids[d.seat].kind == kind]

    def monsters_died(self, seats: list[int], key: str) -> str:
        """``epic.<key>.<werewolf|werewolves|vampire|vampires>``: the kind of the dead
        monsters (one kind: this is a classic game) and how many."""
        wolves = self.ids[seats[0]].kind == WEREWOLVES
        if len(seats) > 1:
            kind = "werewolves" if wolves else "vampires"
        else:
            kind = "werewolf" if wolves else "vampire"
        return f"epic.{key}.{kind}"

    def monsters_present(self) -> list[str]:
        return self.present

    def win(self, team: str, key: str, **values: Arg) -> None:
        """``team`` wins, for the reason ``key`` (a quiet check builds no reason)."""
        self.teams.append(team)
        self.say(key, **values)

    def step_bounty(self) -> None:
        if BOUNTY not in self.end.tokens:
            return
        assassins = [s for s, i in enumerate(self.ids) if i.party == ASSASSIN_TEAM]
        holder = [s for s in range(self.n) if self.end.tokens[s] == BOUNTY]
        if not assassins or not holder:
            return
        if holder[0] in self.dead:
            self.win(ASSASSIN_TEAM, "epic.bounty_died", name=self.names[holder[0]])
        else:
            self.say("epic.bounty_lives", name=self.names[holder[0]])

    def box_3(self) -> None:
        """The Epic Battles' box (3): which monster parties lost a player."""
        wolves, vampires = self.dead_of_kind(WEREWOLVES), self.dead_of_kind(VAMPIRES)
        if wolves and vampires:
            if self.mode == NO_VILLAGE:
                self.say("epic.both_died_no_village")
            else:
                self.win(VILLAGE, "epic.both_died", wolves=self.who(wolves),
                         vampires=self.who(vampires))
        elif wolves:
            self.win(VAMPIRES, "epic.wolf_died", names=self.who(wolves))
        elif vampires:
            self.win(WEREWOLVES, "epic.vampire_died", names=self.who(vampires))
        else:
            self.say("epic.no_monster_died")

    def box_1(self) -> None:
        """Classic step 6: nobody of the monsters died; do they exist?"""
        present = self.monsters_present()
        if present:
            kind = present[0]
            self.win(kind, "epic.no_wolf_died" if kind == WEREWOLVES else "epic.no_vampire_died")
        else:
            self.say("epic.no_monsters_yet_deaths")

    def step_check(self) -> None:
        present = self.monsters_present()
        if not self.deaths:
            self.say("epic.nobody_died")
            if present:
                if self.mode == CLASSIC:
                    kind = present[0]
                    self.win(kind, "epic.wolves_live" if kind == WEREWOLVES
                             else "epic.vampires_live")
                else:
                    self.say("epic.both_nobody_died")
            else:
                self.win(VILLAGE, "epic.no_monsters_no_deaths")
            return
        self.step_bounty()
        tanners = [d.seat for d in self.deaths if self.ids[d.seat].party == TANNER_TEAM]
        if tanners:
            self.teams.append(TANNER_TEAM)
            self.say("epic.tanner_died", names=self.who(tanners))
            if self.mode == CLASSIC:
                monsters = self.dead_of_kind(WEREWOLVES) + self.dead_of_kind(VAMPIRES)
                if monsters:
                    self.win(VILLAGE, self.monsters_died(monsters, "also_died"),
                             names=self.who(monsters))
                else:
                    self.say("epic.only_tanner")
            else:
                self.box_3()
            return
        if self.mode == CLASSIC:
            monsters = self.dead_of_kind(WEREWOLVES) + self.dead_of_kind(VAMPIRES)
            if monsters:
                self.win(VILLAGE, self.monsters_died(monsters, "died"),
                         names=self.who(monsters))
            else:
                self.box_1()
        else:
            self.box_3()

    # --- who, player by player ---------------------------------------------------------
    def step_winners(self) -> list[int]:
        end, ids, names = self.end, self.ids, self.names
        dead = self.dead
        plague = end.tokens.index(PLAGUE) if PLAGUE in end.tokens else None
        traitor = end.tokens.index(TRAITOR) if TRAITOR in end.tokens else None
        teams = self.teams
        winners: list[int] = []
        for s, i in enumerate(ids):
            won = s in dead if i.party == TANNER_TEAM else i.party in teams
            if s == traitor:
                # "Instigator": the holder "can only win if another player of his party
                # dies", and then wins "together with" an opposing party (the Village,
                # the pack or the clan), never with a lone Tanner or Assassin.
                mates = [m for m, j in enumerate(ids) if m != s and j.party == i.party]
                if mates:
                    fallen = [m for m in mates if m in dead]
                    rivals = [t for t in self.teams if t in PARTIES and t != i.party]
                    won = bool(fallen) and bool(rivals)
                    if won:
                        self.say("epic.traitor_wins", name=names[s],
                                 names=self.who(fallen))
                    elif fallen:
                        self.say(
                            "epic.traitor_no_rival" if self.teams
                            else "epic.traitor_nobody_wins",
                            name=names[s], names=self.who(fallen))
                    else:
                        self.say("epic.traitor_alone", name=names[s])
            if plague is not None and end.votes[s] == plague and won:
                won = False
                self.say("epic.plague", name=names[s], plague=names[plague])
            if won:
                winners.append(s)
        if winners:
            self.say("winners", names=self.who(winners))
        else:
            self.say("nobody_wins")
        return winners

    def steps(self) -> list[int]:
        """Every step in order; the winning seats."""
        self.step_identities()
        self.step_vote()
        if self.deaths:
            self.step_hunter_and_lovers()
        self.step_check()
        return self.step_winners()

    def run(self) -> Outcome:
        winners = self.steps()
        return Outcome(self.deaths, self.teams, winners, self.lines, {"mode": self.mode})


def _seats_with(tally: list[int], votes: int) -> list[int]:
    return [s for s, t in enumerate(tally) if t == votes]


def decide(end: EndOfNight, explain_now: bool = True) -> Outcome:
    """The vote and the who-has-won check (classic or epic) for an end-of-night table.

    With ``explain_now=False`` the reasons are worked out only when the outcome's
    explanation is first read (the same check, run again with words)."""
    if explain_now:
        return _Check(end).run()
    quiet = _Check(end, talk=False)
    winners = quiet.steps()
    return Outcome(quiet.deaths, quiet.teams, winners,
                   lambda: _Check(end).run().reasons, {"mode": quiet.mode})


# --- a real table ---------------------------------------------------------------------


# What `nightcall judge` asks at this table (commands/judge.py): each player's symbol
# token and artifact; the Mimic is never a final card (it has become what it copied).
ASKS_COPY = False
ASKS_TOKENS = True
NOT_A_FINAL_CARD = frozenset({"mimic"})
# Cards whose holder is typed as the role they play, and which roles (None: any): the
# Mimic's copy, a transformed Ghost Hunter's find. Each lets one role be held once more
# than the box has it.
PLAYED_AS_ANOTHER: dict[str, frozenset[str] | None] = {
    MIMIC: None, "ghost_hunter": frozenset(GHOST_TRANSFORMS)}
# The cards whose presence at the end (a Mimic's copy included) means an artifact may
# lie on the table: the Curator, and the Alpha Wolf and the Witch, the only cards that
# move a player's card (the Curator's too) into the middle before the Curator wakes
# (11, last); docs/rulings.md, "Judging a real table".
ASKS_ARTIFACT_WITH = frozenset({"curator", "alpha_wolf", "witch"})


def copies_allowed(role: str) -> int | None:
    """How many players can hold ``role`` at the end (None: no limit), from the box."""
    from nightcall.rulesets.epic.roles import MAX_COPIES

    limit = MAX_COPIES.get(role, 1)
    return None if limit >= 99 else limit


def judge(table: Mapping[str, Any]) -> Outcome:
    """Judge a real table: ``{"players", "cards": {name: final role}, "center",
    "tokens": {name: token}, "artifacts": {name: artifact}, "votes": {name: name}}``.

    Cards are the roles at the end (a Mimic card as the role it copied). Raises
    DeckError with the reason when the table is not a possible end of night.
    """
    if not isinstance(table, Mapping):
        raise DeckError(Said("a table is a JSON object with 'players', 'cards' and 'votes'",
                             "judge.not_object"))
    players = table.get("players")
    if not isinstance(players, list) or not players or \
            not all(isinstance(p, str) and p for p in players):
        raise DeckError(Said("'players' must be a non-empty list of names", "record.players"))
    names = tuple(players)
    if len(set(names)) != len(names):
        raise DeckError(Said("two players have the same name", "judge.same_name"))
    cards = _by_name(table, "cards", names, required=True)
    roles: list[str] = []
    for p in names:
        role = cards[p]
        if role not in ROLE_IDS:
            raise DeckError(Said(f"{p}'s card {role!r} is not an Epic Battle role",
                                 "epic.not_a_role", name=p, card=str(role)))
        if role == MIMIC:
            raise DeckError(Said(f"{p} holds the Mimic: give the role it copied instead "
                                 "(villager if the Mimic card started in the center)",
                                 "epic.mimic", name=p))
        roles.append(role)
    center = table.get("center", [])
    if not isinstance(center, list):
        raise DeckError(Said("'center' must be a list of Epic Battle roles", "judge.center_list"))
    for i, c in enumerate(center, 1):
        if c not in ROLE_IDS:
            raise DeckError(Said(f"center card {i}, {c!r}, is not an Epic Battle role",
                                 "epic.center_card", n=i, card=str(c)))
    tokens_in = _by_name(table, "tokens", names)
    tokens = []
    for p in names:
        token = tokens_in.get(p, "certainty")
        if token not in TOKENS:
            raise DeckError(Said(f"{p}'s token {token!r} is not a symbol token "
                                 f"({', '.join(TOKENS)})", "epic.not_a_token", name=p,
                                 got=str(token), tokens=TOKENS))
        tokens.append(token)
    too_many = tokens_beyond_the_box(tokens)
    if too_many is not None:
        token, sentence = too_many
        raise DeckError(Said(sentence, "epic.token_limit", limit=TOKEN_SUPPLY[token],
                             token=token, n=tokens.count(token)))
    artifacts_in = _by_name(table, "artifacts", names)
    artifacts: list[str | None] = []
    for p in names:
        a = artifacts_in.get(p)
        if a is not None and a not in ARTIFACTS:
            raise DeckError(Said(f"{p}'s artifact {a!r} is not one of {', '.join(ARTIFACTS)}",
                                 "epic.not_an_artifact", name=p, got=str(a),
                                 artifacts=ARTIFACTS))
        artifacts.append(a)
    placed = len(artifacts) - artifacts.count(None)
    if placed > 1:  # one Curator wakes ("may take a random artifact"), docs/rulings.md
        raise DeckError(Said(f"{placed} cards carry an artifact, but the Curator places one "
                             "a night", "epic.one_artifact", n=placed))
    votes_in = _by_name(table, "votes", names)
    votes = []
    for p in names:
        target = votes_in.get(p)
        if target is None:
            votes.append(NO_VOTE)
        elif target not in names:
            raise DeckError(Said(f"{p} points at {target!r}, who is not seated at this table",
                                 "judge.target_not_seated", name=p, target=str(target)))
        elif target == p:
            raise DeckError(Said(f"{p} points at themselves; everyone points at a fellow "
                                 "player", "judge.self_vote", name=p))
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
        # (cards and votes say what they hold, as in One Night's table)
        raise DeckError(Said(f"'{key}' must map player names to values",
                             {"cards": "judge.cards", "votes": "judge.votes"}.get(
                                 key, "judge.by_name"), field=key))
    unknown = [k for k in value if k not in names]
    if unknown:
        raise DeckError(Said(f"'{key}' names people not seated: "
                             f"{', '.join(map(str, unknown))}", "judge.strangers",
                             names=", ".join(map(str, unknown))))
    if required:
        missing = [p for p in names if p not in value]
        if missing:
            raise DeckError(Said(f"'{key}' has nothing for {', '.join(missing)}",
                                 "judge.no_card" if key == "cards" else "judge.nothing_for",
                                 field=key, names=", ".join(missing)))
    return dict(value)
