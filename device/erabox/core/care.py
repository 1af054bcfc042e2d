"""OLED care: shift, dim and (outside a game only) blank the picture so a static screen does
not burn in, without ever hiding a game in progress.

An SSD1306 burns in after about 100 hours of a bright static image, and a box waits on a
setup or scoring screen for as long as the table talks. Pure, like the core: the state is a
value, every function takes `now`, and `next_deadline` tells the loop when the look changes.

- In a game (from Era I's start to the final ranking: every era's setup, its rounds, the
  scholars, the scoring): after `DIM_AFTER_S` without a press the screen dims to
  `READABLE_CONTRAST`, still readable at the table, and it never goes dark. Every press acts:
  nothing at the table is ever swallowed by a sleeping screen.
- Outside a game (the "New game" setup and its guide before Era I, the settings menu, the final
  ranking): after `DIM_AFTER_S` the screen goes faint (`FAINT_CONTRAST`), after
  `BLANK_AFTER_S` dark. A press on a dark screen only wakes it: the press does not also act
  (nobody can see what it would do). A faint screen is still readable, so a press on it wakes
  it and acts as usual.
- While an era runs, is paused, counts in, or a question or prompt is open, the screen never
  dims: those screens are read at a glance, at any moment.
- Every `SHIFT_EVERY_S` the whole picture moves by one pixel, around a small square (0,0),
  (1,0), (1,1), (0,1), so no pixel stays lit in one place for hours. Screens keep a 2 px
  margin, so a shifted picture never loses a pixel.
- A new screen (another kind of screen, a question, a prompt) counts as activity too: a cue
  that ends an era lights the screen up again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .model import Phase, Screen

DIM_AFTER_S = 180.0  # three idle minutes
BLANK_AFTER_S = 900.0  # a quarter of an hour
SHIFT_EVERY_S = 120.0
SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))
# In a game: an eighth of full contrast, twice the lowest "screen brightness" the settings
# offer to play by (16): readable across a table in a lit room, an eighth of the wear.
READABLE_CONTRAST = 32
FAINT_CONTRAST = 8  # of 255, outside a game only: seen in a room, a fraction of the wear
OUTSIDE_A_GAME = frozenset({Phase.SETTINGS, Phase.GAME_OVER})
ALWAYS_BRIGHT = frozenset({Phase.RUNNING, Phase.PAUSED, Phase.LEAD_IN, Phase.CONFIRM})


class Level(StrEnum):
    BRIGHT = "bright"
    DIM = "dim"  # in a game: dimmed, still readable
    FAINT = "faint"  # outside a game: barely lit
    BLANK = "blank"  # outside a game: dark


@dataclass(frozen=True)
class Look:
    """How to show the current picture: brightness level and offset in pixels."""

    level: Level = Level.BRIGHT
    dx: int = 0
    dy: int = 0

    def contrast(self, bright: int) -> int:
        """The panel contrast for this look, given the chosen brightness (0..255)."""
        if self.level is Level.BRIGHT:
            return bright
        if self.level is Level.DIM:
            return min(bright, READABLE_CONTRAST)
        if self.level is Level.FAINT:
            return min(bright, FAINT_CONTRAST)
        return 0


@dataclass(frozen=True)
class Care:
    """Idle since `active_at` (last press or new screen); picture shifted since `start`."""

    active_at: float
    start: float
    key: tuple[object, ...] = ()  # what makes a screen "new" (kind, question, prompt, era)


def begin(now: float) -> Care:
    return Care(active_at=now, start=now)


def _key(screen: Screen) -> tuple[object, ...]:
    return (screen.kind, screen.era, screen.question, screen.prompt, screen.round,
            screen.scoring_step, screen.mode, screen.volume)


def _bright_always(screen: Screen) -> bool:
    return screen.kind in ALWAYS_BRIGHT or screen.prompt is not None


def in_a_game(screen: Screen) -> bool:
    """From Era I's start to the final ranking (the "New game" setup shows `new_game`)."""
    return screen.kind not in OUTSIDE_A_GAME and not screen.new_game


def level(care: Care, screen: Screen, now: float) -> Level:
    if _bright_always(screen):
        return Level.BRIGHT
    idle = now - care.active_at
    if idle < DIM_AFTER_S:
        return Level.BRIGHT
    if in_a_game(screen):
        return Level.DIM
    return Level.BLANK if idle >= BLANK_AFTER_S else Level.FAINT


def look(care: Care, screen: Screen, now: float) -> Look:
    """How `screen` is to be shown at `now`."""
    dx, dy = SHIFTS[int(max(0.0, now - care.start) // SHIFT_EVERY_S) % len(SHIFTS)]
    return Look(level(care, screen, now), dx, dy)


def on_screen(care: Care, screen: Screen, now: float) -> Care:
    """A screen model is about to be shown: a new kind of screen counts as activity."""
    key = _key(screen)
    if key != care.key:
        return replace(care, active_at=now, key=key)
    if _bright_always(screen):  # idle time does not pile up under a running clock
        return replace(care, active_at=now)
    return care


def on_press(care: Care, screen: Screen, now: float) -> tuple[Care, bool]:
    """A button was pressed. Returns the new care and whether the press should act
    (False: the screen was dark and the press only woke it; never in a game, whose screen is
    never dark)."""
    acts = level(care, screen, now) is not Level.BLANK
    return replace(care, active_at=now), acts


def next_deadline(care: Care, screen: Screen, now: float) -> float:
    """When the look changes next (the next shift, or dimming and blanking)."""
    shifts = int(max(0.0, now - care.start) // SHIFT_EVERY_S) + 1
    due = care.start + shifts * SHIFT_EVERY_S
    if not _bright_always(screen):
        for after in (DIM_AFTER_S,) if in_a_game(screen) else (DIM_AFTER_S, BLANK_AFTER_S):
            at = care.active_at + after
            if at > now:
                due = min(due, at)
    return due
