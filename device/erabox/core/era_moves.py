"""A game of eras between its eras, for `machine.py`: an era's scoring done (the
standings, or the final ranking), ERA on the standings (the next era's round 1), and with
`[rounds] variant_per_era` the next era's own setup in between, where NEXT chooses the
variant that era plays and ERA starts it:

    scoring --> standings --ERA--> the era's setup (NEXT: variant) --ERA--> its round 1

With `[rounds] guide_at_setup` and the guide on, each setup first walks the guide's steps
(`guide.walk_steps`): NEXT the next step (after the last, the setup), NEXT hold
skips them, ERA starts round 1 at once, as Time of Empires' era engine shows its guide.

Each era's variant is kept in the play (`Spot.past_variants`, the current one's
`Spot.variant`) and in its saved record; the standings and the ranking say them.
Pure, like the rest of the core.
"""

from __future__ import annotations

from dataclasses import replace

from . import opening, scores
from .game_config import opening_variant
from .guide import walk_here
from .play import (
    Play,
    PlayEffect,
    Ranked,
    Spot,
    Standings,
    State,
    _places,
    last_era,
    late,
    late_entry,
    moved,
    next_entry,
    next_era_seat,
    standings,
)

Moved = tuple[Play, tuple[PlayEffect, ...]]


def era_variants(play: Play) -> tuple[int, ...]:
    """The variant each era so far played, the current one's last (`variant_per_era`: each
    era's own; else the game's, the same in every era)."""
    spot = play.spot
    past = spot.past_variants or (spot.variant,) * len(spot.past)
    return (*past, spot.variant)


def first_phase(play: Play) -> int:
    """A round's first phase in the variant played (a phase's `variants` may skip some)."""
    return play.profile.first_phase(play.spot.variant) or 0


def start_gong(play: Play) -> tuple[PlayEffect, ...]:
    """The gong as round 1 starts; none with `start_gong = false` (`[rounds]`, or the
    variant's own), nor yet with `"after_preparation"` (`opening.py`)."""
    return opening.start_gong(play)


def next_asked(play: Play, sheet: scores.Sheet, start: int) -> int | None:
    """The next entry asked from `start` on (`next_entry`); the scoring before the last
    era's standings stops where the entries asked after them begin (`late`)."""
    found = next_entry(play, sheet, start)
    if found is not None and late(play, found) and not (start and late(play, start - 1)):
        return None
    return found


def era_done(play: Play, spot: Spot, effects: tuple[PlayEffect, ...] = ()) -> Moved:
    """An era's scoring is done: the standings (a game of eras, before its last era, or
    after it with `last_standings`), else the final ranking (with the scoring's categories,
    its `Ranked` line). With `variant_per_era` they say the variant(s) played."""
    profile = play.profile
    standing = play.spot.state is not State.STANDINGS and profile.last_standings and not (
        play.spot.state is State.SCORING and late(play, play.spot.entry))  # asked after them
    if not last_era(play) or standing:  # `last_standings`: after the last era too
        after = moved(play, replace(spot, state=State.STANDINGS))
        variant = profile.variants[spot.variant].id if profile.variant_per_era else None
        return after, (*effects, Standings(len(spot.past) + 1, standings(after), variant))
    after = moved(play, replace(spot, state=State.GAME_OVER))
    scored = play.spot.state is State.SCORING or (
        play.spot.state is State.STANDINGS and bool(profile.categories))
    variants = tuple(profile.variants[v].id for v in era_variants(after)
                     ) if profile.variant_per_era else ()
    ranked: tuple[PlayEffect, ...] = (Ranked(_places(after), variants),) if scored else ()
    return after, (*effects, *ranked)


def next_era(play: Play, now: float) -> Moved:
    """ERA on the standings: the gong (`start_gong`), the next era's round 1, started by the
    seat the start rule gives after the last round played; its scoring starts on a blank
    sheet. With `variant_per_era` the next era's setup first, on the first variant (as the
    game's setup opens), the era just played keeping its own."""
    spot = play.spot
    if last_era(play):  # the last era's standings (`last_standings`): the final ranking,
        # or first the entries asked after them (`tie_break_after = "standings"`)
        entry = late_entry(play)
        if entry is not None:
            return moved(play, replace(spot, state=State.SCORING, entry=entry)), ()
        return era_done(play, spot)
    era = replace(spot, state=State.ROUND, round=1, phase=first_phase(play), turn=0, step=0,
                  entry=0,
                  first_seat=next_era_seat(play), past=(*spot.past, spot.sheet),
                  sheet=scores.blank(play.profile, len(play.players)))
    if play.profile.variant_per_era:  # (`guide_at_setup`: its guide walked there first)
        variant = opening_variant(play.profile, len(era.past) + 1)  # `variant_from_setting`
        setup = replace(era, state=State.ERA_SETUP, round=0, variant=variant,
                        phase=play.profile.first_phase(variant) or 0,
                        past_variants=(*era_variants(play),),
                        guide=None if play.profile.walk is None else 0)
        return moved(play, setup), ()
    return moved(play, era), start_gong(play)


def next_era_variant(play: Play, now: float) -> Moved:
    """NEXT at an era's setup: the next variant for this era (after the last, the first)."""
    spot = play.spot
    variant = (spot.variant + 1) % len(play.profile.variants)
    return replace(play, spot=replace(spot, variant=variant,
                                      phase=play.profile.first_phase(variant) or 0)), ()


def begin_era(play: Play, now: float) -> Moved:
    """ERA at an era's setup: the gong (`start_gong`), the era's round 1 in its variant."""
    spot = replace(play.spot, state=State.ROUND, round=1, phase=first_phase(play), turn=0,
                   step=0, guide=None)
    return moved(play, spot), start_gong(play)


def walk_next(play: Play, now: float) -> Moved:
    """NEXT on a step of the guide walked at the setup (`guide_at_setup`): the next one;
    after the last, the setup itself (where NEXT chooses the variant)."""
    following = (play.spot.guide or 0) + 1
    walked = following if following < len(walk_here(play)) else None
    return replace(play, spot=replace(play.spot, guide=walked)), ()


def walk_skip(play: Play, now: float) -> Moved:
    """NEXT hold on a step of the guide walked at the setup: skip the rest, to the setup."""
    return replace(play, spot=replace(play.spot, guide=None)), ()
