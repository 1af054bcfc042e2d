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
(its step within a phase may move with the guide's steps).

`[rounds] guide_at_setup`: with the guide on, its parts are not played in the rounds but
walked at the setup, before ERA starts round 1 (`walk_steps`: the game's setup's special
round before Era I, then the era's preparation): the profile played is the guide-off one,
the file's own kept beside it (`Profile.walk`) for the steps walked. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from .profile import Event, Phase, Profile, Special
from .profile_reader import NUMBER, Label, Step, filled, shown_steps

NO_VARIANT = ""  # no variant's id (an id is never empty): a phase set aside plays in none


def guided(profile: Profile, guide: bool) -> Profile:
    """The profile as played with the guide `guide` (on: the file's own; with
    `guide_at_setup`, the guide-off one walking the file's own guide at the setup)."""
    if profile.walk is not None:  # played already (`guide_at_setup`): the file's is kept
        return guided(profile.walk, guide)
    if guide and profile.guide_at_setup:
        return replace(guided(profile, False), walk=profile)
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



@dataclass(frozen=True)
class WalkStep:
    """One step of the guide walked at the setup: its part's id and label (the special
    round's or the phase's), its text, its place in its part (n, count); `number`: the
    number its text shows (its first `{name}`, filled), `setup`: a step of the game's setup
    (a special round before round 1), not of the era's round 1."""

    part: str
    title: Label
    text: Label
    position: tuple[int, int]
    number: int | None = None
    setup: bool = False


def walk_steps(profile: Profile, seats: int, variant: int, era: int | None
               ) -> tuple[WalkStep, ...]:
    """The guide walked at the setup of era `era` (None: a game without eras) in the variant
    `variant` (its index), for `seats` players: before the first era the special rounds of
    the guide set before round 1, then each phase of the guide the variant plays (round 1's
    steps) and the guide's own steps of round 1's other phases. None without
    `guide_at_setup` or with the guide off."""
    source = profile.walk
    if source is None:
        return ()
    ident = source.variants[variant].id
    parts: list[tuple[str, Label, tuple[Label, ...], bool]] = [
        (s.id, s.label, shown_steps(s.steps, seats, ident, 0, era), True)
        for s in source.specials if s.guide and 0 in s.after[variant] and era in (None, 1)]
    for phase in source.phases:
        if phase.in_variant(ident):
            shown = shown_steps(phase.steps, seats, ident, 1, era)
            parts.append((phase.id, phase.label, shown if phase.guide else tuple(
                s for s in shown if isinstance(s, Step) and s.guide), False))
    numbers = {"players": seats, **dict(source.eras[era - 1].numbers if era else ())}
    return tuple(WalkStep(part, label, filled(text, numbers), (n + 1, len(steps)),
                          _number(text, numbers), setup)
                 for part, label, steps, setup in parts for n, text in enumerate(steps))


def _number(text: Label, numbers: dict[str, int]) -> int | None:
    """The number a step's text shows: its first `{name}`'s (None without one)."""
    named = NUMBER.search(text.en)
    return None if named is None else numbers.get(named[1])


class _Spot(Protocol):  # what `walk_here` reads of a play's spot (play.Spot)
    @property
    def guide(self) -> int | None: ...
    @property
    def state(self) -> StrEnum: ...
    @property
    def variant(self) -> int: ...
    @property
    def past(self) -> tuple[object, ...]: ...


class _Play(Protocol):  # what `walk_here` reads of a play (play.Play, which uses it)
    @property
    def profile(self) -> Profile: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def spot(self) -> _Spot: ...


def walk_here(play: _Play) -> tuple[WalkStep, ...]:
    """The guide walked at this setup (`guide_at_setup`) while it shows there; else none."""
    spot, eras = play.spot, play.profile.eras
    if spot.guide is None or spot.state.value not in ("setup", "era_setup"):
        return ()
    era = len(spot.past) + 1 if eras else None
    return walk_steps(play.profile, len(play.players), spot.variant, era)
