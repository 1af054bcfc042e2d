"""The box's first-game guide in a round game: `guide = true` on a `[[phase]]` or a
`[[special]]` round marks it as the guide's, played only while the guide is on (the config's
`guide`, which Time of Empires' settings menu sets). With the guide off the game is played as
if that phase or special round were not in the file: a round goes from the phase before it to
the one after, and ERA at the setup goes straight to round 1's first phase left (a countdown's
lead-in at once, as Time of Empires' era engine starts an era without its preparation guide).

A step (`{ en = ..., ja = ..., guide = true }`) is the guide's too: not shown with the guide
off (every round, variant and player count keeps a step without it: the parser checks).

The profile played is the file's with those parts set aside (`guided`); the phases' and special
rounds' places (indexes) are kept, so a saved play finds its phase with the guide on or off
(its step within a phase may move with the guide's steps). Pure.
"""

from __future__ import annotations

from dataclasses import replace

from .profile import Event, Phase, Profile, Special
from .profile_reader import Label, Step

NO_VARIANT = ""  # no variant's id (an id is never empty): a phase set aside plays in none


def guided(profile: Profile, guide: bool) -> Profile:
    """The profile as played with the guide `guide` (on: the file's own)."""
    parts: list[Phase | Special | Event] = [*profile.phases, *profile.specials, *profile.events]
    marked = [p.guide for p in parts if not isinstance(p, Event)] + [
        s.guide for p in parts for s in p.steps if isinstance(s, Step)]
    if guide or not any(marked):
        return profile  # a game without the guide's parts is the file's own either way
    phases = tuple(replace(p, variants=(NO_VARIANT,)) if p.guide else replace(
        p, steps=_unguided(p.steps)) for p in profile.phases)
    specials = tuple(replace(s, after=tuple(() for _ in s.after)) if s.guide else replace(
        s, steps=_unguided(s.steps)) for s in profile.specials)
    events = tuple(replace(e, steps=_unguided(e.steps)) for e in profile.events)
    return replace(profile, phases=phases, specials=specials, events=events)


def _unguided(steps: tuple[Label, ...]) -> tuple[Label, ...]:
    """The steps shown with the guide off (the parser keeps one at least in every case)."""
    return tuple(s for s in steps if not (isinstance(s, Step) and s.guide))

