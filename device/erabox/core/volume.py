"""The box's volume in every game.

The volume is the box's, not the game's: every profile takes VOL+ and VOL- (a press or a
hold, anywhere, a question open or not): one step of `VOLUME_STEP` up or down (0 to 1),
`SetVolume` to the mixer, the new level shown for `VOLUME_SHOWN_S` (`Play.volume_until`;
Time of Empires' screens, `[game] lines = "eras"`, show it as `Screen.volume` and the quiet
mark at or below `QUIET_LEVEL`). The level is part of the play's record (`"volume"`, written
once the box knows it: `ProfileEngine` starts every play with the configured level) and
comes back after a power cut; a volume step is saved as any change is, not on disk before it
is heard (a lost step changes nothing at the table). `Play.volume` None: a play built
without the box (a record without a level), at the configured level; a step from it starts
at `AudioConfig.volume`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .config import AudioConfig
from .model import Button, Input, SetVolume
from .play import EPS, Play

VOLUME_BUTTONS = (Button.VOL_UP, Button.VOL_DOWN)
VOLUME_STEP = 0.1  # VOL+ or VOL- changes the level by this much (0 to 1)
VOLUME_SHOWN_S = 2.0  # the new level stays on the screen this long
QUIET_LEVEL = 0.1  # at or below this volume every screen shows the quiet mark


def change(play: Play, event: Input, now: float) -> tuple[Play, tuple[SetVolume, ...]]:
    """VOL+ or VOL-: one step up or down, to the mixer, shown for a while."""
    step_by = VOLUME_STEP if event.button is Button.VOL_UP else -VOLUME_STEP
    level = round(min(1.0, max(0.0, level_of(play) + step_by)), 2)
    return replace(play, volume=level, volume_until=now + VOLUME_SHOWN_S), (SetVolume(level),)


def hidden(play: Play, now: float) -> Play:
    """The volume shown after a change, hidden again once its time is up."""
    if play.volume_until is not None and play.volume_until <= now + EPS:
        return replace(play, volume_until=None)
    return play


def level_of(play: Play) -> float:
    return AudioConfig.volume if play.volume is None else play.volume


def shown(play: Play) -> int | None:
    """The volume in percent while it is shown after a change (None: not shown)."""
    return None if play.volume_until is None else round(level_of(play) * 100)


def quiet(play: Play) -> bool:
    """Muted or very quiet: the quiet mark on every screen."""
    return level_of(play) <= QUIET_LEVEL + EPS


def record(play: Play) -> dict[str, Any]:
    """The record's part: the level, once the box knows it."""
    return {} if play.volume is None else {"volume": play.volume}


def from_record(record: dict[str, Any]) -> float | None:
    """A record's level (None: a record written without one); ValueError if it is no level."""
    level = record.get("volume")
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 <= level <= 1:
        raise ValueError("'volume' should be a level from 0 to 1")
    return float(level)
