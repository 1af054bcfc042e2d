"""A game profile's number entry at the scoring: what a gesture adds to the number asked.

NEXT press +1, NEXT hold +5, a dial turn +-1, within the category's bounds (`least`, `most`).
With `[scoring] entry = "totals"` (Time of Empires' era totals, core/points.py), and with
`entry = "setting"` asking each category (`Profile.ramp`, as its per-step entry), also the
hold's ramp (+5 more for every `RAMP_S` NEXT is held on, up to `RAMP_MAX`, added when let
go) and NEXT+ERA pressed together and let go (a short chord): -1. Pure, as the core is;
`machine.py` confirms and goes on. `by_setting`: `entry = "setting"` as the box's
"Points entry" says.
"""

from __future__ import annotations

from dataclasses import replace

from .eras import ERA_TOTAL, GAME_TOTAL, era_totals
from .model import Button, Gesture
from .play import HOLD_ADDS, Play, PlayEffect, asked, hold_adds
from .profile import Profile

Moved = tuple[Play, tuple[PlayEffect, ...]]


def add(play: Play, amount: int) -> Moved:
    """`amount` added to the number asked, kept within its category's bounds."""
    at = asked(play)
    assert at is not None
    category = play.profile.categories[at[0]]
    return replace(play, value=min(category.most, max(category.least, play.value + amount))), ()


def plus_one(play: Play, now: float) -> Moved:
    return add(play, 1)


def plus_five(play: Play, now: float) -> Moved:
    return add(play, HOLD_ADDS)


def dial(play: Play, button: Button) -> Moved | None:
    """A dial turn: +1 / -1 (None: not a dial's)."""
    if button not in (Button.DIAL_UP, Button.DIAL_DOWN):
        return None
    return add(play, 1 if button is Button.DIAL_UP else -1)


def totals_gesture(play: Play, button: Button, gesture: Gesture, now: float
                   ) -> tuple[Play, Moved | None]:
    """`entry = "totals"` (or `Profile.ramp`): the ramp and the chord. Every gesture ends a
    NEXT hold's ramp (its release adds what the screen showed; anything else adds nothing
    more); a NEXT hold starts one. Returns the play and, where the gesture is done with,
    what it gives."""
    held, play = play.hold_since, replace(play, hold_since=None)
    if (button, gesture) == (Button.NEXT, Gesture.RELEASE) and held is not None:
        return play, add(play, hold_adds(now - held) - HOLD_ADDS)
    if (button, gesture) == (Button.BOTH, Gesture.PRESS):
        return play, add(play, -1)
    if (button, gesture) == (Button.NEXT, Gesture.HOLD):
        play = replace(play, hold_since=now)
    return play, None


def by_setting(profile: Profile, points_entry: str) -> Profile:
    """`[scoring] entry = "setting"`: the profile as the box's "Points entry" says it
    (`points_entry`: "totals" the era totals, as `entry = "totals"`; "steps" each category,
    as `entry = "categories"`, with the era totals' hold ramp and -1 chord, as the era
    engine's per-step entry); any other profile as it is."""
    if profile.entry != "setting":
        return profile
    if points_entry != "totals":  # each category, entered as Time of Empires' steps are
        return replace(profile, entry="categories", ramp=True)
    label = ERA_TOTAL if profile.eras else GAME_TOTAL
    return replace(profile, entry="totals", categories=era_totals(profile.categories, label))
