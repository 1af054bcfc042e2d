"""The scoring's event lines in Time of Empires' words (docs/simulate.md), for `era_lines.py`.

From the round engine's effects: a `points` line per number entered (`Entered`: the scoring
step's number, 1-based in the profile's categories, or null for an era's total), a
`buildings` line for a number that does not count toward the total (the tie-break's:
Time of Empires' buildings on the central board), a `standings` line after an era
(`Standings`; none when no score is kept: a profile without categories) and the final
`ranking` (`Ranked`, with each player's tie-break number where it was asked).
`EntryCount` counts the gestures of an era's scoring and their button time for its `entry`
line: a press 0.25 s (`TAP_S`), a hold the hold time plus what it was held past it
(`counted`); none when no score is kept.
Pure, like the rest of the core.
"""

from __future__ import annotations

from typing import Any

from . import scores
from .model import Gesture, Input
from .play import Entered, Play, PlayEffect, Ranked, Standings, State, era_number
from .profile import Profile

TAP_S = 0.25  # a press, counted as button time in `entry` lines (docs/simulate.md)

SCORING = (State.SCORING, State.STANDINGS)  # an era's scoring: its numbers and standings

Line = tuple[str, dict[str, Any]]


def score_line(effect: PlayEffect, play: Play) -> Line | None:
    """The line an effect of the scoring gives in Time of Empires' words (None: not one)."""
    profile, era = play.profile, era_number(play)
    if isinstance(effect, Entered):
        index = category_index(profile, effect.category)
        if index is not None and not profile.categories[index].counts:  # a tie-break's
            return "buildings", {"era": era, "player": effect.player,
                                 "buildings": effect.value}
        step = None if index is None or profile.entry == "totals" else index + 1
        return "points", {"era": era, "step": step, "player": effect.player,
                          "points": effect.points, "total": effect.total}
    if isinstance(effect, Standings) and profile.categories:  # (no score kept: none)
        return "standings", {"era": effect.era, "places": [
            {"place": place, "player": player, "total": total}
            for place, player, _, total in effect.places]}
    if isinstance(effect, Ranked):
        built = tie_numbers(play)
        places = [{"place": place, "player": player, "total": score}
                  | ({} if built.get(player) is None else {"buildings": built[player]})
                  for place, player, score, _, _ in effect.places]
        return "ranking", {"era": era, "places": places,
                           "winners": [p["player"] for p in places if p["place"] == 1]}
    return None


def category_index(profile: Profile, category: str) -> int | None:
    return next((i for i, c in enumerate(profile.categories) if c.id == category), None)


def tie_numbers(play: Play) -> dict[str, int | None]:
    """Each player's number for the first category that does not count toward the total
    (the tie-break's), in this era's sheet; None where it was not asked."""
    profile, sheet = play.profile, play.spot.sheet
    index = next((i for i, c in enumerate(profile.categories) if not c.counts and c.asked),
                 None)
    if index is None or index >= len(sheet):
        return {}
    return {player: None if sheet[index][seat] is None
            else scores.category_values(sheet, index, seat)
            for seat, player in enumerate(play.players)}


class EntryCount:
    """The gestures and button time of an era's scoring, for its `entry` line."""

    def __init__(self, hold_s: float) -> None:
        self._hold_s = hold_s
        self._counting: tuple[int, int, float] | None = None  # era, gestures, seconds
        self._held_at: float | None = None  # when the hold being timed fired

    def input(self, event: Input, t: float) -> None:
        if self._counting is None:
            return
        era, gestures, seconds = self._counting  # counted as the era engine counts them
        gestures, seconds, self._held_at = counted(event, t, gestures, seconds, self._held_at,
                                                   self._hold_s)
        self._counting = (era, gestures, seconds)

    def seen(self, play: Play) -> dict[str, Any] | None:
        """The play after a step: an era's scoring begins (counting from the next gesture)
        or ends (the fields of its `entry` line)."""
        scoring = play.spot.state in SCORING
        if scoring and self._counting is None and play.profile.categories:
            self._counting = (era_number(play), 0, 0.0)
        elif not scoring and self._counting is not None:
            era, gestures, seconds = self._counting
            self._counting = self._held_at = None
            return {"era": era, "gestures": gestures, "button_s": round(seconds, 2)}
        return None


def counted(event: Input, t: float, gestures: int, seconds: float, held_at: float | None,
            hold_s: float) -> tuple[int, float, float | None]:
    """An era's scoring's gestures and button time with `event` counted (`entry` lines): a
    press `TAP_S`, a hold its threshold and, on release, the time held on past it (`held_at`:
    when the hold being timed fired)."""
    if event.gesture is Gesture.RELEASE:
        return gestures, seconds + (t - held_at if held_at is not None else 0.0), None
    if event.gesture is Gesture.HOLD:
        return gestures + 1, seconds + hold_s, t
    return gestures + 1, seconds + TAP_S, held_at
