"""`[buttons] restart_era = true`: ERA hold in an era's play asks "Restart the era?", as Time
of Empires' ERA hold on a running era (docs/profiles.md, "The buttons"):

    round / special round / event --ERA hold--> "Restart the era?" --ERA--> the era's setup
                                                                  --NEXT--> back (or 10 s)
    a countdown still in its lead-in --ERA hold--> the era's setup (nothing played: no question)

Yes goes back to where the era was started from, its points discarded: before Era I the game's
setup; with `variant_per_era` the era's own setup; else the standings of the era before, where
ERA starts it again. The setup opens as it does (its first variant, or the one the box's mode
setting names: `variant_from_setting`), its start player kept (ERA gives it again); the music
and countdown stop (leaving the phase stops them); a restart is not undone. An event that can
start still starts with ERA hold; undo then is NEXT hold (NEXT hold still pauses a countdown
with `pause = "next_hold"`: undo where none runs). Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import scores
from .game_config import opening_variant
from .model import Button, Gesture
from .play import EPS, Play, PlayEffect, Spot, State, moved, startable

Moved = tuple[Play, tuple[PlayEffect, ...]]
PLAYING = (State.ROUND, State.SPECIAL, State.EVENT)  # an era's play: where ERA hold asks


def asks(play: Play, button: Button, gesture: Gesture) -> bool:
    """Does this gesture ask "Restart the era?" here (no event can start with it)?"""
    return (play.profile.restart_era and play.spot.state in PLAYING
            and (button, gesture) == (Button.ERA, Gesture.HOLD) and startable(play) is None)


def in_lead_in(play: Play, now: float) -> bool:
    """The era's countdown is still in its lead-in (running or paused), before its start gong:
    nothing of the era is played yet, so ERA hold goes back to its setup without asking, as
    Time of Empires' ERA hold cancels its lead-in."""
    timer = play.profile.phases[play.spot.phase].timer_s
    if timer is None or play.spot.state not in PLAYING:
        return False
    left = play.held_left if play.timer_end is None else play.timer_end - now
    return left is not None and left > timer + EPS


def undoes(play: Play, button: Button, gesture: Gesture) -> bool:
    """NEXT hold undoes in a game whose ERA hold restarts, where it pauses no countdown, within
    the era (back to its setup is the restart); before the era's first step it does nothing."""
    counting = play.timer_end is not None or play.held_left is not None
    return (play.profile.restart_era and play.spot.state in PLAYING
            and (button, gesture) == (Button.NEXT, Gesture.HOLD)
            and not (play.profile.pause == "next_hold" and counting
                     and play.spot.state is not State.SPECIAL))


def ask(play: Play, now: float, timeout: float) -> Moved:
    """"Restart the era?"; in the lead-in, before anything of the era is played, back to its
    setup at once (`in_lead_in`)."""
    if in_lead_in(play, now):
        return restart(play)
    return replace(play, question_until=now + timeout, restart_asked=True), ()


def restart(play: Play) -> Moved:
    """ERA on "Restart the era?": the era's setup again, its points discarded."""
    spot, profile = play.spot, play.profile
    base = Spot(variant=spot.variant, first_seat=spot.first_seat, past=spot.past,
                past_variants=spot.past_variants, events_done=spot.events_done,
                sheet=scores.blank(profile, len(play.players)))
    opens = opening_variant(profile, len(spot.past) + 1)  # as the era's setup opens
    if not spot.past:  # Era I (or a game without eras): the game's setup
        again = replace(base, state=State.SETUP, variant=opens)
    elif profile.variant_per_era:  # the era's own setup
        again = replace(base, state=State.ERA_SETUP, variant=opens,
                        phase=profile.first_phase(opens) or 0)
    else:  # the standings of the era before: ERA starts this one again
        again = replace(base, state=State.STANDINGS, sheet=spot.past[-1], past=spot.past[:-1])
    return replace(moved(play, again), history=(), question_until=None, restart_asked=False), ()


def undo_within(undo: Callable[[Play, float], Moved]) -> Callable[[Play, float], Moved]:
    """`undo`, where it stays in the era's play (`undoes`)."""
    def within(play: Play, now: float) -> Moved:
        if not play.history or play.history[-1].state not in PLAYING:
            return play, ()
        return undo(play, now)
    return within
