"""Victory points: the scoring checklist as the place to enter them, and the final ranking.

Pure, like the core: `entry_step(entry, sheet, event)` takes one button gesture and
returns the new entry, the new sheet and what happened. The machine keeps an `Entry` while an
era's scoring phase is open and the `Sheet` for the whole game.

Two ways to enter an era (`Entry.by_step`, the setting "Points entry"):
- era totals (the box's default): each player's points for the whole era, one number each, the
  table having added the checklist up on the board as it went;
- per step: for each step of the scoring checklist (docs/game.md), for each player in seating
  order, that player's points for the step. Destruction is asked as buildings in the destroyed
  buildings area (the screen shows them x3 in VP). Steps that give no points (leader cards,
  city sieges) are shown, not asked.
Then come the era's standings; after Era III's, the players tied for the most points (if any)
are asked their buildings on the central board, and the final ranking follows (still tied: a
shared victory).

Entering a number (no auto-repeat, which tables find risky):
    NEXT press: +1
    NEXT hold:  +5 at once, then +5 more for every `RAMP_S` it is held (the screen shows what
                letting go adds: +10, +15, ... up to +`RAMP_MAX`); chosen when let go
    NEXT+ERA pressed together and let go (a short chord): -1
    a dial turn: +1 / -1
    ERA press:  confirm, on to the next player or step
    ERA hold:   undo: clear the number; on 0, back to the previous one (its number to correct)
So any number up to `RAMP_MAX` + 2 takes at most 4 gestures: one hold to the nearest multiple
of 5, at most two +1 or -1, and ERA.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .config import Checklist
from .model import Button, Gesture, Input
from .rules import ERAS, MAX_PLAYERS, MIN_PLAYERS, SCORING_STEPS

HOLD_ADDS = 5  # NEXT hold adds this many points at once, and as many per `RAMP_S` held on
RAMP_S = 0.5  # seconds held past the hold threshold for each further +HOLD_ADDS
RAMP_MAX = 50  # a hold adds at most this much (a forgotten finger does not run away)
MAX_POINTS = 999  # per entry: more than any step gives; keeps the screen's digits in bounds
ERA_TOTAL = SCORING_STEPS  # the sheet's row for points entered as era totals

# [era - 1][row][player]: rows 0..5 the checklist's steps, row ERA_TOTAL the era totals
Points = tuple[tuple[tuple[int, ...], ...], ...]
ROWS = SCORING_STEPS + 1


class Stage(StrEnum):
    POINTS = "points"  # asking a player's points for a step
    SHOWN = "shown"  # a step that gives no points: shown, ERA goes on
    STANDINGS = "standings"  # the era's totals and places
    BUILDINGS = "buildings"  # after Era III: a player tied for first, their buildings


class Outcome(StrEnum):
    NONE = "none"  # the entry moved, nothing to report
    CONFIRMED = "confirmed"  # a player's points (or buildings) were recorded
    UNDONE = "undone"  # went back to an earlier number
    NEXT_ERA = "next_era"  # standings of Era I/II confirmed: prepare the next era
    GAME_OVER = "game_over"  # after Era III: the final ranking


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
    entered (saved too: a power cut comes back to it), `by_step` (False: era totals) and,
    while NEXT is held, when its hold began (`hold_since`, not saved: a cut ends the hold
    with its first +5)."""

    era: int
    index: int = 0
    tie: int | None = None
    value: int = 0
    by_step: bool = True
    hold_since: float | None = None
    checklist: Checklist = RULEBOOK  # the game's profile's (not saved: the config's)


@dataclass(frozen=True)
class Place:
    """One line of a ranking: `place` 1.. (equal places are shared), the player's index in
    seating order, their total and, if asked, their buildings."""

    place: int
    player: int
    total: int
    buildings: int | None = None


def blank(players: int, eras: int = ERAS) -> Sheet:
    """An empty sheet for `players` and a game of `eras` eras."""
    zeros = tuple(tuple(0 for _ in range(players)) for _ in range(ROWS))
    return Sheet(points=tuple(zeros for _ in range(eras)), buildings=(None,) * players)


def hold_adds(held_s: float) -> int:
    """What a NEXT hold adds when let go `held_s` seconds after its threshold."""
    steps = 1 + max(0, int(held_s / RAMP_S + 1e-9))
    return min(RAMP_MAX, HOLD_ADDS * steps)


def ramp(entry: Entry, now: float) -> int | None:
    """While NEXT is held: what letting go now adds in all (shown on screen), else None."""
    return None if entry.hold_since is None else hold_adds(now - entry.hold_since)


def shown_value(entry: Entry, now: float) -> int:
    """The number on screen: the entry's, with what the NEXT being held would add."""
    extra = ramp(entry, now)
    return min(MAX_POINTS, entry.value + (0 if extra is None else extra - HOLD_ADDS))


def times(entry: Entry, players: int) -> int:
    """How many times the number being asked counts: the step's `multiply` (destruction: the
    buildings, 3 VP each), 1 anywhere else."""
    if stage(entry, players) is not Stage.POINTS:
        return 1
    step_index = where(entry, players)[0]
    return 1 if step_index is None or step_index >= len(entry.checklist.multiply) else \
        entry.checklist.multiply[step_index]


def in_buildings(entry: Entry, players: int) -> bool:
    """True where the number asked counts more than once, shown x`times` (destruction's
    buildings)."""
    return times(entry, players) != 1


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


def stage(entry: Entry, players: int) -> Stage:
    if entry.tie is not None:
        return Stage.BUILDINGS
    places = positions(players, entry.by_step, entry.checklist)
    if entry.index >= len(places):
        return Stage.STANDINGS
    return Stage.POINTS if places[entry.index][1] is not None else Stage.SHOWN


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


# --- sums and rankings --------------------------------------------------------------------------


def totals(sheet: Sheet, up_to_era: int | None = None) -> tuple[int, ...]:
    """Each player's points over eras 1..`up_to_era` (None: all of the sheet's; confirmed
    numbers only)."""
    last = len(sheet.points) if up_to_era is None else up_to_era
    return tuple(
        sum(row[p] for e in range(last) for row in sheet.points[e])
        for p in range(sheet.players)
    )


def standings(scores: tuple[int, ...]) -> tuple[Place, ...]:
    """Most points first; equal totals share a place (1, 1, 3), seating order among them."""
    order = sorted(range(len(scores)), key=lambda p: (-scores[p], p))
    return tuple(Place(1 + sum(1 for q in scores if q > scores[p]), p, scores[p]) for p in order)


def tied_for_first(scores: tuple[int, ...]) -> tuple[int, ...]:
    """The players sharing the most points, in seating order; () when one player leads."""
    if not scores:
        return ()
    best = max(scores)
    tied = tuple(p for p, s in enumerate(scores) if s == best)
    return tied if len(tied) > 1 else ()


def final_ranking(sheet: Sheet) -> tuple[Place, ...]:
    """The game's result (docs/game.md): most points wins; tied for first, most buildings on the
    central board; still tied, a shared victory (the same place 1). Other places share on
    equal points."""
    scores = totals(sheet)
    tied = set(tied_for_first(scores))

    def key(p: int) -> tuple[int, int]:
        built = sheet.buildings[p] if p in tied else None
        return (-scores[p], -(built or 0) if p in tied else 0)

    order = sorted(range(len(scores)), key=lambda p: (*key(p), p))
    return tuple(
        Place(1 + sum(1 for q in range(len(scores)) if key(q) < key(p)), p, scores[p],
              sheet.buildings[p] if p in tied else None)
        for p in order)


def winners(sheet: Sheet) -> tuple[int, ...]:
    """The players in first place of the final ranking (more than one: a shared victory)."""
    return tuple(place.player for place in final_ranking(sheet) if place.place == 1)


# --- the step function --------------------------------------------------------------------------


def _set(sheet: Sheet, era: int, step_index: int, player: int, value: int) -> Sheet:
    era_rows = list(sheet.points)
    rows = list(era_rows[era - 1])
    row = list(rows[step_index])
    row[player] = value
    rows[step_index] = tuple(row)
    era_rows[era - 1] = tuple(rows)
    return replace(sheet, points=tuple(era_rows))


def _set_buildings(sheet: Sheet, player: int, value: int | None) -> Sheet:
    built = list(sheet.buildings)
    built[player] = value
    return replace(sheet, buildings=tuple(built))


def _stored(sheet: Sheet, entry: Entry) -> int:
    step_index, player = where(entry, sheet.players)
    if step_index is None or player is None:
        return 0
    return sheet.points[entry.era - 1][step_index][player]


def _go_back(entry: Entry, sheet: Sheet) -> tuple[Entry, Sheet]:
    """Back to the previous position; a number there comes back to be corrected."""
    if entry.tie is not None:
        if entry.tie == 0:
            return replace(entry, tie=None, value=0), sheet
        entry = replace(entry, tie=entry.tie - 1)
        player = asked_player(entry, sheet)
        assert player is not None
        value = sheet.buildings[player] or 0
        return replace(entry, value=value), _set_buildings(sheet, player, None)
    if entry.index == 0:
        return replace(entry, value=0), sheet
    entry = replace(entry, index=entry.index - 1, value=0)
    step_index, player = where(entry, sheet.players)
    if step_index is None or player is None:
        return entry, sheet
    value = _stored(sheet, entry)
    value //= times(entry, sheet.players)
    return replace(entry, value=value), _set(sheet, entry.era, step_index, player, 0)


def _added(event: Input, hold_since: float | None, now: float) -> int | None:
    """What a gesture adds to the number being entered, or None if it is not an adding one;
    `hold_since`: when the NEXT hold this gesture may end began."""
    button, gesture = event.button, event.gesture
    if button is Button.NEXT:
        if gesture is Gesture.RELEASE:  # the hold's ramp, chosen now (its first +5 is in)
            return 0 if hold_since is None else hold_adds(now - hold_since) - HOLD_ADDS
        return HOLD_ADDS if gesture is Gesture.HOLD else 1
    if button is Button.BOTH and gesture is Gesture.PRESS:
        return -1
    if button in (Button.DIAL_UP, Button.DIAL_DOWN):
        return 1 if button is Button.DIAL_UP else -1
    return None


def entry_step(entry: Entry, sheet: Sheet, event: Input, now: float = 0.0
               ) -> tuple[Entry, Sheet, Outcome]:
    """One gesture during an era's scoring, at `now` (it times a NEXT hold's ramp). Unknown
    gestures change nothing."""
    button, gesture = event.button, event.gesture
    here = stage(entry, sheet.players)
    asking = here in (Stage.POINTS, Stage.BUILDINGS)
    holding = (button, gesture) == (Button.NEXT, Gesture.HOLD)
    # A hold's ramp ends with its release; any other gesture ends it too (adding nothing).
    since = entry.hold_since if (button, gesture) == (Button.NEXT, Gesture.RELEASE) else None
    entry = replace(entry, hold_since=now if holding and asking else None)
    add = _added(event, since, now) if asking else None
    if add is not None:
        return replace(entry, value=min(MAX_POINTS, max(0, entry.value + add))), sheet, \
            Outcome.NONE
    if gesture is Gesture.RELEASE:
        return entry, sheet, Outcome.NONE
    if button is not Button.ERA:
        return entry, sheet, Outcome.NONE
    if gesture is Gesture.HOLD:  # undo
        if asking and entry.value > 0:
            return replace(entry, value=0), sheet, Outcome.UNDONE
        back, sheet = _go_back(entry, sheet)
        return back, sheet, Outcome.UNDONE if back != entry else Outcome.NONE
    # ERA press: confirm and go on
    if here is Stage.POINTS:
        step_index, player = where(entry, sheet.players)
        assert step_index is not None and player is not None
        scale = times(entry, sheet.players)
        sheet = _set(sheet, entry.era, step_index, player, entry.value * scale)
        return replace(entry, index=entry.index + 1, value=0), sheet, Outcome.CONFIRMED
    if here is Stage.SHOWN:
        return replace(entry, index=entry.index + 1, value=0), sheet, Outcome.NONE
    if here is Stage.STANDINGS:
        if entry.era < len(sheet.points):  # the sheet has the game's eras
            return entry, sheet, Outcome.NEXT_ERA
        if tied_for_first(totals(sheet)):
            return replace(entry, tie=0, value=0), sheet, Outcome.NONE
        return entry, sheet, Outcome.GAME_OVER
    # BUILDINGS
    player = asked_player(entry, sheet)
    assert player is not None and entry.tie is not None
    sheet = _set_buildings(sheet, player, entry.value)
    if entry.tie + 1 < len(tied_for_first(totals(sheet))):
        return replace(entry, tie=entry.tie + 1, value=0), sheet, Outcome.CONFIRMED
    return entry, sheet, Outcome.GAME_OVER


# --- the saved game -----------------------------------------------------------------------------


def sheet_to_dict(sheet: Sheet) -> dict[str, object]:
    return {"points": [[list(row) for row in era] for era in sheet.points],
            "buildings": list(sheet.buildings)}


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
