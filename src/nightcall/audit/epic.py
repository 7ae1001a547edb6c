"""Who may know what in One Night Ultimate Werewolf: Epic Battle (epic-battle-rulebook.txt,
"Twilight", "Night", the role paragraphs, "Symbol tokens", the Curator;
docs/rulings.md (Epic Battle)).

Knowledge, by the rules:

- every player knows the card they were dealt; from the token look on, their own token
  (and nothing of another's unless a role shows it);
- the Mimic sees the center card it copies and is that role from then on;
- the vampires (Vampire, The Count, The Master, and a Mimic that copied one) see each
  other and whom they bit; Renfield sees the vampires and their victim, then takes the Bat;
- a token role knows whom it gave its token to; the Priest knows he took a Certainty;
- the lovers (Love tokens after Venus) see each other;
- the waking werewolves see each other and the Dream Wolves' thumbs; a lone wolf may look
  at a center card; the Alpha Wolf knows whom it gave the extra card to; the Sight Wolf
  sees the card it looks at; the Freemasons see each other; The Thing's neighbour knows
  it was tapped;
- the Seer, Ghost Hunter, Tracker (card, then token), Robber (its new card), Witch, the
  Insomniac and the Enlightener see the cards they look at, as they are at that moment;
  a Ghost Hunter that sees a monster or the Tanner becomes it;
- the Fortune Teller sees who moved or looked at a card or token before her;
- the Goblin knows the swap it made; the Curator knows where it put an artifact, and
  only the artifact's holder learns at dawn what it is;
- the seat with the Panic token does not wake from the night on;
- at dawn the cards the Enlightener turned up are public; the ballots once everybody
  voted; everything once the game is over;
- claims (talk, by day) are public as they are made, in order, and are no votes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from nightcall.audit.base import (
    Fact,
    OneNightFamilyModel,
    Problems,
    Viewer,
    exact_keys,
    seats,
)
from nightcall.audit.core import GameConfig
from nightcall.engine.actions import Action
from nightcall.engine.ruleset import Rules
from nightcall.rulesets.epic.roles import ROLE_IDS  # (a table of names: claims say role ids)
from nightcall.rulesets.epic.state import EpicState

WOLF_CARDS = frozenset({"werewolf", "alpha_wolf", "sight_wolf", "dream_wolf"})
WAKING_WOLVES = frozenset({"werewolf", "alpha_wolf", "sight_wolf"})
VAMPIRE_CARDS = frozenset({"vampire", "the_count", "the_master"})
GHOST_TRANSFORMS = WOLF_CARDS | VAMPIRE_CARDS | {"tanner"}
ENLIGHTENER_HIDES = WOLF_CARDS | VAMPIRE_CARDS | {"assassin", "tanner"}
TOKEN_SUPPLY = {"certainty": 12, "love": 2, "bat": 1, "bounty": 1, "panic": 1, "plague": 1,
                "vampire": 1, "traitor": 1}
# Who acts in each call with a choice, and the moves it may make there.
ACTORS: dict[str, frozenset[str]] = {
    "vampires": VAMPIRE_CARDS, "werewolves": WAKING_WOLVES,
    "werewolves_dream_wolf": WAKING_WOLVES,
    **{c: frozenset({c}) for c in ("mimic", "the_count", "infected", "venus", "instigator",
                                   "priest", "assassin", "alpha_wolf", "sight_wolf",
                                   "the_thing", "seer", "ghost_hunter", "tracker", "robber",
                                   "witch", "goblin", "enlightener", "curator")},
}
MOVES: dict[str, set[str]] = {
    "mimic": {"copy_center"}, "vampires": {"token"}, "the_count": {"token"},
    "infected": {"token"}, "venus": {"token_two", "skip"}, "instigator": {"token", "skip"},
    "priest": {"token", "skip"}, "assassin": {"token"},
    "werewolves": {"look_center", "skip"}, "werewolves_dream_wolf": {"look_center", "skip"},
    "alpha_wolf": {"swap"}, "sight_wolf": {"look", "skip"}, "the_thing": {"tap", "skip"},
    "seer": {"look", "look_center", "skip"}, "ghost_hunter": {"look", "skip"},
    "tracker": {"look", "look_token", "skip"}, "robber": {"swap", "skip"},
    "witch": {"look_center", "swap_center", "skip"},
    "goblin": {"swap_two", "swap_tokens", "skip"}, "enlightener": {"reveal", "skip"},
    "curator": {"artifact", "skip"},
}
TOKEN_OF_CALL = {"the_count": "panic", "infected": "plague", "instigator": "traitor",
                 "priest": "certainty", "assassin": "bounty"}


@dataclass(frozen=True)
class Snap:
    cards: tuple[str, ...]
    call: str | None


class EpicModel(OneNightFamilyModel[Snap, EpicState]):
    PUBLIC_FIELDS = frozenset({"ruleset", "phase", "players", "roles_in_play", "tokens_in_play",
                               "call", "face_up", "voted", "events"})
    SEAT_FIELDS = frozenset({"seat", "legal", "instructions"})
    game = "Epic Battle"
    role_ids = ROLE_IDS

    def __init__(self, state: EpicState) -> None:
        st = state
        super().__init__(st.n, st.names, st.start, st.cards, st.schedule)
        self.tokens_in_play = bool(st.tokens_in_play)
        self.tokens = list(st.start_tokens)
        self.board: Counter[str] = Counter(TOKEN_SUPPLY)
        self.board.subtract(self.tokens)
        self.copy: str | None = None  # what the Mimic became
        self.vampires: list[int] = []
        self.wolves_known: set[int] = set()
        self.night_started = False
        self.panicked = -1
        self.acted: set[int] = set()
        self.revealed: dict[int, str] = {}
        self.artifacts: dict[int, str] = {}
        self.witch_pick = -1
        self.day = False
        self._catch_up(state)

    def snapshot(self, state: EpicState) -> Snap:
        return Snap(tuple(state.cards), state.call)

    # --- the rules' bookkeeping -----------------------------------------------------
    def holders(self, roles: frozenset[str] | set[str]) -> list[int]:
        out = [s for s in range(self.n) if self.start[s] in roles]
        if self.copy in roles and "mimic" in self.start:
            out.append(self.start.index("mimic"))
        if self.night_started and self.panicked in out:
            out.remove(self.panicked)
        return sorted(out)

    def holder(self, role: str) -> int:
        found = self.holders({role})
        return found[0] if found else -1

    def exchange(self, seat: int, token: str) -> None:
        self.board[token] -= 1
        self.board[self.tokens[seat]] += 1
        self.tokens[seat] = token

    # --- following the game ---------------------------------------------------------
    def _night(self, seat: int, action: Action, before: Snap) -> None:
        assert before.call is not None  # (step() sends only the night's moves here)
        self._act(before.call, seat, action, before.cards)

    def _look(self, seat: int, x: int, cards: tuple[str, ...]) -> None:
        self.acted.add(seat)
        self.k.tell(seat, "saw", "seat", x, cards[x])

    def _look_center(self, seat: int, i: int, cards: tuple[str, ...]) -> None:
        self.acted.add(seat)
        self.k.tell(seat, "saw", "center", i, cards[self.n + i])

    def _act(self, call: str, seat: int, action: Action, cards: tuple[str, ...]) -> None:
        kind, a, b = action
        n, tell = self.n, self.k.tell
        if kind == "skip":
            return
        if call == "mimic":
            self.copy = cards[n + a]
            self._look_center(seat, a, cards)
            tell(seat, "became", self.copy)
        elif call == "vampires":
            self.exchange(a, "vampire")
            self.acted.update(self.vampires)
            self.k.tell_all(self.vampires, "bitten", a)
        elif call == "venus":
            self.exchange(a, "love")
            self.exchange(b, "love")
            self.acted.add(seat)
            tell(seat, "gave_token", seats((a, b)), "love")
        elif call in TOKEN_OF_CALL:
            self.exchange(a, TOKEN_OF_CALL[call])
            self.acted.add(seat)
            tell(seat, "gave_token", a, TOKEN_OF_CALL[call])
        elif call in ("werewolves", "werewolves_dream_wolf"):
            self._look_center(seat, a, cards)
        elif call == "alpha_wolf":
            self.acted.add(seat)
            tell(seat, "alpha_swapped", a)
        elif call == "the_thing":
            tell(a, "tapped_by", seat)
            tell(seat, "tapped", a)
        elif call == "seer" and kind == "look":
            self._look(seat, a, cards)
        elif call == "seer":
            self._look_center(seat, a, cards)
            self._look_center(seat, b, cards)
        elif call in ("sight_wolf", "enlightener"):
            self._look(seat, a, cards)
            if call == "enlightener":
                if cards[a] in ENLIGHTENER_HIDES:
                    tell(seat, "concealed", a)
                else:
                    self.revealed[a] = cards[a]
        elif call == "ghost_hunter":
            self._look(seat, a, cards)
            if cards[a] in GHOST_TRANSFORMS:
                tell(seat, "became", cards[a])
                if self.start[seat] == "mimic":  # the ability came from the Mimic's copy
                    self.copy = cards[a]
        elif call == "tracker" and kind == "look":
            self._look(seat, a, cards)
        elif call == "tracker":
            self.acted.add(seat)
            tell(seat, "saw_token", a, self.tokens[a])
        elif call == "robber":
            self.acted.add(seat)
            tell(seat, "swapped", seats((seat, a)))
            tell(seat, "saw", "seat", seat, cards[a])
        elif call == "witch" and kind == "look_center":
            self._look_center(seat, a, cards)
            self.witch_pick = a
        elif call == "witch":
            tell(seat, "witch_swapped", a, self.witch_pick)
        elif call == "goblin" and kind == "swap_two":
            self.acted.add(seat)
            tell(seat, "swapped", seats((a, b)))
        elif call == "goblin":
            self.acted.add(seat)
            self.tokens[a], self.tokens[b] = self.tokens[b], self.tokens[a]
            tell(seat, "swapped_tokens", seats((a, b)))
        elif call == "curator":
            tell(seat, "placed_artifact", a)
            self.artifacts[a] = ""  # what it is, only the master knows until dawn
        else:
            raise AssertionError(f"the model has no rule for {kind} in the {call} call")

    def _catch_up(self, state: EpicState) -> None:
        super()._catch_up(state)
        if state.call is None and not self.day:
            self.day = True
            for s in self.artifacts:  # dawn: each holder learns what lies on its card
                placed = state.artifacts[s]
                if placed is None:
                    raise AssertionError(f"seat {s} was given an artifact the state lacks")
                self.artifacts[s] = placed
                self.k.tell(s, "artifact", placed)

    def _begin(self, call: str, state: EpicState) -> None:
        cards, tell, n = state.cards, self.k.tell, self.n
        if call == "vampires":
            self.vampires = self.holders(VAMPIRE_CARDS)
            self.k.tell_all(self.vampires, "vampires", seats(self.vampires))
        elif call == "renfield":
            seat = self.holder("renfield")
            if seat >= 0:
                bitten = [x for x in range(n) if self.tokens[x] == "vampire"]
                tell(seat, "renfield", seats(self.vampires), bitten[0] if bitten else None)
                if self.board["bat"] >= 1:
                    self.exchange(seat, "bat")
                    self.acted.add(seat)
                    tell(seat, "gave_token", seat, "bat")
        elif call == "priest":
            seat = self.holder("priest")
            if seat >= 0 and self.board["certainty"] >= 1:
                self.exchange(seat, "certainty")
                self.acted.add(seat)
                tell(seat, "gave_token", seat, "certainty")
        elif call == "tokens":
            self.night_started = True
            for s in range(n):
                tell(s, "token", s, self.tokens[s])
            self.panicked = self.tokens.index("panic") if "panic" in self.tokens else -1
        elif call == "lovers":
            lovers = [s for s in range(n) if self.tokens[s] == "love"]
            self.k.tell_all(lovers, "lovers", seats(lovers))
        elif call in ("werewolves", "werewolves_dream_wolf"):
            awake = self.holders(WAKING_WOLVES)
            thumbs = self.holders({"dream_wolf"})
            self.wolves_known = set(awake) | set(thumbs)
            self.k.tell_all(awake, "wolves", seats(awake), seats(thumbs))
        elif call == "freemasons":
            masons = self.holders({"freemason"})
            self.k.tell_all(masons, "freemasons", seats(masons))
        elif call == "fortune_teller":
            seat = self.holder("fortune_teller")
            if seat >= 0:
                tell(seat, "thumbs", seats(self.acted - {seat}))
        elif call == "insomniac":
            seat = self.holder("insomniac")
            if seat >= 0:
                self.acted.add(seat)
                tell(seat, "saw", "seat", seat, cards[seat])

    # --- checking a view --------------------------------------------------------------
    def check(self, viewer: Viewer, view: dict[str, Any]) -> Problems:
        out = self.check_top(viewer, view) + self.check_table(view)
        face_up = {self.names[s]: c for s, c in self.revealed.items()} if self.day else {}
        shown_up = view.get("face_up") or {}
        if shown_up != face_up:
            out.append(("leak", f"face_up {view.get('face_up')} but the table sees {face_up}"))
        got, instructions, problems = self.reader.read(viewer, view.get("events", []),
                                                       self._read)
        out.extend(("leak", p) for p in problems)
        if viewer is not None and view.get("instructions") != instructions:
            out.append(("leak", f"instructions {view.get('instructions')} are not those of "
                                "the seat's own artifact"))
        out.extend(self.k.compare(viewer, got))
        out.extend(self.check_moves(viewer, view))
        claims = [{k: v for k, v in e.items() if k != "kind"}
                  for e in view.get("events", []) if e.get("kind") == "claim"]
        if claims != self.claims:
            out.append(("leak" if len(claims) > len(self.claims) else "missing",
                        f"claims shown {claims} differ from the claims made {self.claims}"))
        return out

    def expected_moves(self, viewer: int, view: Mapping[str, Any]) -> set[str]:
        call = view.get("call")
        if view.get("phase") == "night" and call in ACTORS:
            ok = viewer in self.holders(ACTORS[call])
            expected = MOVES[call]
        else:
            ok = view.get("phase") == "day" and viewer not in self.votes
            expected = {"vote", "abstain"}
        return expected if ok else set()

    def _read(self, e: dict[str, Any], got: Counter[Fact],
              instructions: list[object]) -> str | None:
        kind = e.get("kind")
        g = e.get
        if kind == "deal":
            got["deal", g("seat"), g("card")] += 1
            return exact_keys(e, "seat", "card")
        if kind == "saw":
            where = "seat" if "seat" in e else "center"
            got["saw", where, g(where), g("card")] += 1
            return exact_keys(e, where, "card")
        if kind == "became":
            got["became", g("role")] += 1
            return exact_keys(e, "role")
        if kind == "vampires" and "bitten" in e:
            got["renfield", seats(g("seats") or []), g("bitten")] += 1
            return exact_keys(e, "seats", "bitten")
        if kind in ("vampires", "lovers", "freemasons", "thumbs"):
            got[kind, seats(g("seats") or [])] += 1
            return exact_keys(e, "seats")
        if kind == "bitten":
            got["bitten", g("seat")] += 1
            return exact_keys(e, "seat")
        if kind == "gave_token":
            if "seats" in e:
                got["gave_token", seats(g("seats") or []), g("token")] += 1
                return exact_keys(e, "seats", "token")
            got["gave_token", g("seat"), g("token")] += 1
            return exact_keys(e, "seat", "token")
        if kind == "token":
            got["token", g("seat"), g("token")] += 1
            return exact_keys(e, "seat", "token")
        if kind == "wolves":
            got["wolves", seats(g("seats") or []), seats(g("dream_wolves") or [])] += 1
            return exact_keys(e, "seats", "dream_wolves")
        if kind == "swapped":
            seen = g("seats") or []
            if g("extra") is True:
                got["alpha_swapped", seen[0] if len(seen) == 1 else seen] += 1
                return exact_keys(e, "seats", "extra")
            if "center" in e:
                got["witch_swapped", seen[0] if len(seen) == 1 else seen, g("center")] += 1
                return exact_keys(e, "seats", "center")
            got["swapped", seats(seen)] += 1
            return exact_keys(e, "seats")
        if kind == "swapped_tokens":
            got["swapped_tokens", seats(g("seats") or [])] += 1
            return exact_keys(e, "seats")
        if kind == "tapped":
            if "by" in e:
                got["tapped_by", g("by")] += 1
                return exact_keys(e, "by")
            got["tapped", g("seat")] += 1
            return exact_keys(e, "seat")
        if kind in ("concealed", "placed_artifact"):
            got[kind, g("seat")] += 1
            return exact_keys(e, "seat")
        if kind == "saw_token":
            got["saw_token", g("seat"), g("token")] += 1
            return exact_keys(e, "seat", "token")
        if kind == "artifact":
            got["artifact", g("artifact")] += 1
            instructions.append(g("instruction"))
            return exact_keys(e, "artifact", "instruction")
        # --- public ---
        if kind == "call":
            if g("call") not in self.schedule:
                return f"call {g('call')!r} is not a call of this deck"
            return exact_keys(e, "call")
        if kind == "dawn":
            return exact_keys(e)
        if kind == "claim":  # (compared in order with the claims made: check())
            if "swapped" in e:
                return exact_keys(e, "seat", "swapped")
            if "saw" in e:
                return exact_keys(e, "seat", "saw", "role")
            return exact_keys(e, "seat", "role")
        if kind == "revealed":
            want = {str(s): c for s, c in sorted(self.revealed.items())}
            if g("cards") != want:
                return f"revealed {g('cards')} but the Enlightener turned up {want}"
            return exact_keys(e, "cards")
        if kind == "votes":
            if not self.over:
                return "ballots shown before every seat voted"
            if g("votes") != [self.votes[s] for s in range(self.n)]:
                return f"ballots {g('votes')} are not the votes cast"
            return exact_keys(e, "votes")
        if kind in ("died", "reveal", "over"):
            if not self.over:
                return f"{kind!r} before the game is over"
            fields = {"died": ("deaths",), "reveal": ("cards", "roles", "tokens", "artifacts"),
                      "over": ()}[kind]
            return exact_keys(e, *fields)
        return f"event kind {kind!r} that the rules do not explain"


# --- the games the audit plays (Ruleset.audit_games) ---------------------------------


def games(rs: Rules, rng: random.Random) -> Iterator[GameConfig]:
    """Every Epic scenario at every player count it allows, and Anarchy, in turn."""
    plans = [(str(s["id"]), p) for s in rs.scenarios()
             for p in range(s["min_players"], s["max_players"] + 1)]
    while True:
        rng.shuffle(plans)
        for sid, players in plans:
            seed = rng.randrange(2**31)
            roles = rs.scenario_deck(sid, players, seed)
            yield GameConfig(rs.id, players, roles, seed, f"{rs.id}/{sid}")
