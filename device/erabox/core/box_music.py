"""The sound of a round game that plays the box's own era music (`box_music = true`,
`music_keys.py`), as Time of Empires' era engine gives it to the sound.

The sound (`audio_plan.AudioPlan`) chooses an era's music by the era and its mode: the config's
`[eraN]` music (a loop, or a publisher's track that holds the era's cues, so that the box's
cues of that era are left out), the era music of the box's own game profile, the mastered
score and its takes in real time, the box's loop. So, in a game with box music:

- each cue (`PlaySound`) names the era played (the era engine's do), not era 0;
- each era's setup gets that era's music ready (`PrepareMusic`: the era, its mode, the score's
  take), and again when the variant chosen there changes the mode, and when the play starts
  or comes back.

A game without box music is left as it is. Pure: effects in, effects out.
"""

from __future__ import annotations

from dataclasses import replace

from .model import Mode, PlaySound, PrepareMusic, SetVolume
from .play import Play, PlayEffect, State, era_number
from .profile import Profile

QUIET = (State.SCORING, State.STANDINGS, State.GAME_OVER)  # no era's music to come


def uses_box_music(profile: Profile) -> bool:
    """Does some phase of `profile` play the box's own era music?"""
    return any(p.music is not None and p.music.box for p in profile.phases)


def era_mode(play: Play) -> Mode:
    """The mode of the era played: real time when its variant plays the box's music on a
    countdown's running time (`music_from = "gong"`), else introductory."""
    variant = play.profile.variants[play.spot.variant].id
    return Mode.REALTIME if any(
        p.music is not None and p.music.box and p.music_from == "gong"
        and p.timer_s is not None and p.in_variant(variant)
        for p in play.profile.phases) else Mode.INTRO


def wanted(play: Play, fixed: int) -> PrepareMusic | None:
    """The music to get ready at this point of the play (None: no era's music is to come):
    the scores' take the config fixes (`score_variant`), else the play's (`Play.take`)."""
    if play.spot.state in QUIET:
        return None
    return PrepareMusic(era_number(play), era_mode(play), fixed or play.take)


def box_effects(before: Play | None, play: Play, effects: tuple[PlayEffect, ...], fixed: int
                ) -> tuple[PlayEffect, ...]:
    """`effects` of a move from `before` (None: the play starts or comes back) to `play`, with
    the box's era music's: each cue of the era played, the era's music readied first.
    `fixed`: the config's version of the box's scores (`score_variant`; 0: each game the
    next, `Play.take`), as `PrepareMusic.variant`."""
    if not uses_box_music(play.profile):
        return effects
    era = era_number(play)
    out = tuple(replace(e, era=era) if isinstance(e, PlaySound) and e.era == 0 else e
                for e in effects)
    ready = wanted(play, fixed)
    if ready is not None and (before is None or wanted(before, fixed) != ready):
        first = 1 if out and isinstance(out[0], SetVolume) else 0  # the volume first, as ToE's
        out = (*out[:first], ready, *out[first:])
    return out
