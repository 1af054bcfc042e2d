"""How a round game's era opens, for `machine.py` and `music.py`: its start
gong, and the music of a phase with `music_from = "era"` (docs/profiles.md).

- The gong as round 1 starts: `[rounds] start_gong`, or the variant's own `[[variant]]
  start_gong` in its place. `"after_preparation"`: round 1 starts in silence, and the gong
  sounds as NEXT leaves its preparation (the first steps of its first phase that only round
  1 shows, `until_round = 1`) onto the first step every round shows, as Time of Empires'
  introductory era strikes its gong after its setup has shown the preparation.
- A phase's music `music_from = "era"` starts with the era's play (round 1, after its
  preparation with `"after_preparation"`: with that gong), and goes on across its rounds,
  its special rounds and the phases that play the same music, until the era's scoring, as
  Time of Empires loops an introductory era's music through the era.

Pure: plays in, effects out.
"""

from __future__ import annotations

from .model import FlashCue, PlaySound, Sound
from .play import Play, PlayEffect, State, step_era
from .profile_reader import Step, shown_steps

AFTER_PREPARATION = "after_preparation"


def gong_rule(play: Play) -> bool | str:
    """The start gong of the variant played: its own `start_gong`, else `[rounds]`'."""
    own = play.profile.variants[play.spot.variant].start_gong
    return play.profile.start_gong if own is None else own


def start_gong(play: Play) -> tuple[PlayEffect, ...]:
    """The gong as round 1 starts (none with `start_gong = false`, nor yet with
    `"after_preparation"`: `opening_gong` sounds it)."""
    return (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG)) if gong_rule(play) is True else ()


def preparation(play: Play) -> int:
    """The steps of round 1's preparation: the first steps of its first phase (its first
    turn) that only round 1 shows (`until_round = 1`)."""
    profile, spot = play.profile, play.spot
    if spot.phase != profile.first_phase(spot.variant) or spot.turn:
        return 0
    shown = shown_steps(profile.phases[spot.phase].steps, len(play.players),
                        profile.variants[spot.variant].id, 1, step_era(play))
    count = 0
    for step in shown:
        if not isinstance(step, Step) or step.until_round > 1:
            break
        count += 1
    return count


def preparing(play: Play) -> bool:
    """Is play in round 1's preparation, before the era's `"after_preparation"` gong?"""
    spot = play.spot
    return (gong_rule(play) == AFTER_PREPARATION and spot.state is State.ROUND
            and spot.round == 1 and spot.step < preparation(play))


def opening_gong(before: Play, after: Play) -> tuple[PlayEffect, ...]:
    """The `"after_preparation"` gong of a move from `before` to `after`: as NEXT leaves
    round 1's preparation, or as round 1 starts when it has none."""
    spot = after.spot
    if gong_rule(after) != AFTER_PREPARATION or spot.state is not State.ROUND or (
            spot.round != 1 or preparing(after)):
        return ()
    was = before.spot
    opening = preparing(before) or was.state in (State.SETUP, State.ERA_SETUP,
                                                 State.STANDINGS) or (
        was.state is State.SPECIAL and was.round == 0)
    return (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG)) if opening else ()
