"""The results file: a header line saying which tournament, then one JSON line per game.

Lines are appended as games finish (in whatever order the workers finish them)
and flushed at once, so an interrupted tournament loses at most the games being
played. Running the same tournament again reads the file, skips the games it
holds and plays the rest; the leaderboard is always computed from the lines in
game order, so it comes out the same however often the run was interrupted.
A line cut short by the interruption is dropped. The same tournament with more
deals extends the file; anything else that differs is refused (use ``--fresh``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import msgspec

from nightcall.arena import ArenaError
from nightcall.arena.config import Tournament
from nightcall.arena.seats import GameResult

FORMAT = "nightcall-arena/1"

_encoder = msgspec.json.Encoder()


class ResultsFile:
    def __init__(self, path: Path, tournament: Tournament, fresh: bool = False) -> None:
        self.path = path
        self.tournament = tournament
        self.done: dict[int, GameResult] = {}
        self.written_by: str | None = None  # the nightcall version that began the file
        self._out: IO[bytes] | None = None
        if path.exists() and not fresh:
            self._read()
        else:
            self._write_header()

    def _header(self) -> dict[str, Any]:
        from nightcall import __version__

        return {"format": FORMAT, "nightcall": __version__,
                "tournament": self.tournament.to_json()}

    def _write_header(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_bytes(_encoder.encode(self._header()) + b"\n")
        except OSError as exc:
            raise ArenaError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _read(self) -> None:
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise ArenaError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        lines = data.split(b"\n")
        keep = len(data)
        if lines and lines[-1] and not data.endswith(b"\n"):
            # The last line was being written when the run stopped: drop it.
            keep = len(data) - len(lines[-1])
            lines[-1] = b""
        try:
            header = msgspec.json.decode(lines[0])
        except msgspec.DecodeError:
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ArenaError(f"{self.path} is not an arena results file; give another --out "
                             "or --fresh to overwrite it")
        extended = self._check_same(header.get("tournament"))
        self.written_by = header.get("nightcall")
        games = self.tournament.games
        for number, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            try:
                result = msgspec.json.decode(line, type=GameResult)
            except msgspec.DecodeError as exc:  # (a ValidationError too: a wrong shape)
                raise ArenaError(f"{self.path}, line {number}: not a game result ({exc}); "
                                 "the file is damaged (--fresh starts over)") from None
            index = result["game"]
            if isinstance(index, int) and 0 <= index < games:
                self.done[index] = result
        if keep != len(data):
            with self.path.open("r+b") as f:
                f.truncate(keep)
        if extended:
            # More deals: the same tournament, extended. The header says the new size.
            rest = self.path.read_bytes().split(b"\n", 1)[1]
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_bytes(_encoder.encode(self._header()) + b"\n" + rest)
            tmp.replace(self.path)

    def _check_same(self, old: object) -> bool:
        """Refuse another tournament; True when this one has more deals than the file's."""
        new = self.tournament.to_json()
        if not isinstance(old, dict):
            raise ArenaError(f"{self.path} has no tournament in its header")
        differ = [k for k in new if k != "deals" and old.get(k) != new[k]]
        if differ:
            raise ArenaError(
                f"{self.path} holds another tournament (different {', '.join(differ)}); "
                "use another --out, or --fresh to start this one over"
            )
        if isinstance(old.get("deals"), int) and old["deals"] > new["deals"]:
            raise ArenaError(f"{self.path} holds {old['deals']} deals; ask for at least as "
                             "many, or --fresh to start over")
        return bool(old.get("deals") != new["deals"])

    def append(self, results: Iterable[GameResult]) -> None:
        results = list(results)
        block = b"".join(_encoder.encode(r) + b"\n" for r in results)
        if not block:
            return
        if self._out is None:
            self._out = self.path.open("ab")
        self._out.write(block)
        self._out.flush()
        for r in results:
            self.done[r["game"]] = r

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None

    def ordered(self) -> list[GameResult]:
        return [self.done[g] for g in sorted(self.done)]
