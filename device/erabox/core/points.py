"""The score sheet of a Time of Empires game saved by an older box (its "era engine"), read
back from its state file: `snapshot.loads` checks it (`sheet_from_dict`) and
`era_save` turns it and the number being entered (`Entry`, `where`,
`asked_player`) into the play's own scores (docs/state-file.md).

The sheet: for each era, a row per step of the scoring checklist (docs/game.md) and a row of
era totals (`ERA_TOTAL`), each a number per player in seating order; and the buildings on
the central board of the players asked for Era III's tie-break (None: not asked). The
entry's `index` walks `positions`: per step, each player for a step that gives points, one
shown place for a step that gives none; as era totals, one number per player.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Checklist
from .rules import ERAS, MAX_PLAYERS, MIN_PLAYERS, SCORING_STEPS

MAX_POINTS = 999  # per entry: more than any step gives
ERA_TOTAL = SCORING_STEPS  # the sheet's row for points entered as era totals

# [era - 1][row][player]: rows 0..5 the checklist's steps, row ERA_TOTAL the era totals
Points = tuple[tuple[tuple[int, ...], ...], ...]
ROWS = SCORING_STEPS + 1


@dataclass(frozen=True)
class Sheet:
    """The whole game's score sheet: every confirmed number, and the buildings on the central
    board of the players asked for the tie-break (None = not asked)."""

    points: Points
    buildings: tuple[int | None, ...]

    @property
    def players(self) -> int:
        return len(self.buildings)


RULEBOOK = Checklist()  # the rulebook's checklist, when no profile's is given


@dataclass(frozen=True)
class Entry:
    """Where the entry is: `era`, `index` into `positions(players, by_step)` (== its length:
    the standings), `tie` into the players tied for first (the tie-break), the number being
    entered, `by_step` (False: era totals)."""

    era: int
    index: int = 0
    tie: int | None = None
    value: int = 0
    by_step: bool = True
    checklist: Checklist = RULEBOOK  # the game's profile's (not saved: the config's)


def positions(players: int, by_step: bool = True, checklist: Checklist = RULEBOOK
              ) -> tuple[tuple[int, int | None], ...]:
    """(row, player) in entry order; player None for a step that is only shown. Era totals:
    one number per player, in the `ERA_TOTAL` row."""
    if not by_step:
        return tuple((ERA_TOTAL, p) for p in range(players))
    out: list[tuple[int, int | None]] = []
    for step_index, gives in enumerate(checklist.points):
        if gives:
            out.extend((step_index, p) for p in range(players))
        else:
            out.append((step_index, None))
    return tuple(out)


def where(entry: Entry, players: int) -> tuple[int | None, int | None]:
    """(scoring step, player) the entry is at; None where it does not apply."""
    if entry.tie is not None:
        return None, None
    places = positions(players, entry.by_step, entry.checklist)
    if entry.index >= len(places):
        return None, None
    return places[entry.index]


def asked_player(entry: Entry, sheet: Sheet) -> int | None:
    """The player whose number is being entered (points or buildings), or None."""
    if entry.tie is not None:
        tied = tied_for_first(totals(sheet))
        return tied[min(entry.tie, len(tied) - 1)] if tied else None
    return where(entry, sheet.players)[1]


def totals(sheet: Sheet, up_to_era: int | None = None) -> tuple[int, ...]:
    """Each player's points over eras 1..`up_to_era` (None: all of the sheet's; confirmed
    numbers only)."""
    last = len(sheet.points) if up_to_era is None else up_to_era
    return tuple(
        sum(row[p] for e in range(last) for row in sheet.points[e])
        for p in range(sheet.players)
    )


def tied_for_first(scores: tuple[int, ...]) -> tuple[int, ...]:
    """The players sharing the most points, in seating order; () when one player leads."""
    if not scores:
        return ()
    best = max(scores)
    tied = tuple(p for p, s in enumerate(scores) if s == best)
    return tied if len(tied) > 1 else ()


def sheet_from_dict(data: object, players: int | None, eras: int = ERAS) -> Sheet:
    """A sheet from a snapshot of a game of `eras` eras; raises ValueError naming what is
    wrong. `players` None takes the count the sheet itself has (2 to 4)."""
    if not isinstance(data, dict):
        raise ValueError("'scores' should be an object")
    points, built = data.get("points"), data.get("buildings")
    if players is None:
        players = (len(built) if isinstance(built, list)
               and MIN_PLAYERS <= len(built) <= MAX_PLAYERS else 0)

    def count(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_POINTS * 10

    if isinstance(points, list):  # saved before the era totals' row: add it, empty
        points = [era + [[0] * players] if isinstance(era, list) and len(era) == SCORING_STEPS
                  else era for era in points]
    if not (isinstance(points, list) and len(points) == eras and all(
            isinstance(era, list) and len(era) == ROWS and all(
                isinstance(row, list) and len(row) == players and all(count(v) for v in row)
                for row in era) for era in points)):
        raise ValueError(f"'scores.points' should be {eras} eras x {ROWS} rows (the "
                         f"{SCORING_STEPS} steps and the era total) x {players} players "
                         "of points")
    if not (isinstance(built, list) and len(built) == players
            and all(b is None or count(b) for b in built)):
        raise ValueError(f"'scores.buildings' should be {players} counts or nulls")
    return Sheet(points=tuple(tuple(tuple(row) for row in era) for era in points),
                 buildings=tuple(built))
