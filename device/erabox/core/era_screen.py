"""A round profile's screens in Time of Empires' own model (`[game] lines = "eras"`).

Time of Empires' screens are drawn by ui/plans.py from `model.Screen`, a model older than the
round engine: a setup with its era and mode ("New game" before Era I), the lead-in's
countdown, the running clock (seconds left, the running time, the cue marks on the progress
bar), paused, the scholars' prompt over it, an introductory era's rounds and start player, the
scoring (the number asked, the running totals, the standings) and the final ranking. `screen`
builds that model from the round engine's play, so a profile in Time of Empires' words (the
same key as its event lines: its own round file) shows what the era engine shows, drawn by the
same code. Pure: the play and `now` in, a `Screen` out; the box's own facts the play does not
hold (its language, a hall's rule) handed in.

How the play's words map to the model's:

- the era: `era_number`; the mode: the variant's id (`realtime`, `intro`; another id: real
  time if the variant plays a countdown, else introductory); the eras: the profile's;
- the clock's numbers on every screen, as Time of Empires' config puts them there: the
  length and the calls' times of the profile's first countdown phase (`length_s`,
  `cue_marks`), the rounds of its first variant played in rounds (`rounds`);
- `setup` and `era_setup`: the setup (Era I's: "New game"); a countdown's lead-in: `lead_in`
  and its seconds; running: `running` (whole seconds left, rounded up, and run, rounded
  down); held: `paused`; a call's prompt up: `scholars` over the clock (the box's words, or
  the call's own `prompt_text`); a round of a variant without a countdown: `intro_round`,
  its round and start player; a special round after a round: `scholars`, its round and the
  player who starts next;
- the scoring: the number asked (`entry` "points", a `points = false` category "shown", the
  tie-break's count "buildings" after the last standings), its player and value (x the
  category's `multiply`: `value_vp`, `value_times`), the running totals with it, the
  checklist step (the category's place; the era totals and the standings: the last);
  `standings` the era's standings, by total; `game_over` the final ranking;
- a question: `confirm`, over the screen it was asked on;
- the play's prompt for a moment (`prompts`): "Back to round n" after an undo, "hold
  NEXT to pause" (shown where NEXT hold is the pause: its words), "Resumed".

Not derived (the play does not hold them; tools/one_engine_screens.py compares every
screen of the golden scripts with the era engine's, recorded before its removal):
the guide's steps as the era engine keys them (`guide_step`, `guide_n`: the round file words
its steps itself). The box's settings menu, open over the setup, is laid over this screen by
`menu.screen` (`ProfileEngine`), in every game.

The box's volume on every screen (`volume`): the level in percent while it is shown
after VOL+/VOL-, the quiet mark at or below 10 %. A question is asked over the screen it was
asked on, the running clock counting on under it (`deadlines`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from . import clock, rules, scores, volume
from .eras import TOTAL_ID
from .guide import walk_here
from .model import Mode, Phase, Prompt, Question, Screen
from .play import (
    EPS,
    SCHOLARS,
    SHOWN,
    Play,
    State,
    asked,
    call_words,
    countdown_elapsed,
    era_number,
    next_start_player,
    ramp,
    ranking,
    shown_value,
    start_player,
    whole_sheet,
)
from .play import standings as era_standings
from .profile import Label, Profile
from .profile import Phase as RoundPhase
from .profile_reader import Step


def screen(play: Play, now: float, *, language: str | None = None,
           hall_held: bool = False) -> Screen:
    """Time of Empires' screen model for the play at `now` (`language`: the box's;
    `hall_held`: a hall holds this paused era, the table may not resume it alone)."""
    profile = play.profile
    timed = countdown(profile)
    base = Screen(kind=Phase.SETUP, era=min(era_number(play), max(1, len(profile.eras))),
                  mode=mode(play), eras=len(profile.eras) or rules.ERAS,
                  length_s=rules.ERA_LENGTH_S if timed is None or timed.timer_s is None
                  else float(timed.timer_s),
                  cue_marks=() if timed is None else clock.marks(timed),
                  rounds=intro_rounds(play), language=language,
                  prompt=None if play.prompt is Prompt.PAUSE_HINT
                  and profile.pause != "next_hold" else play.prompt,  # its words: NEXT hold
                  volume=volume.shown(play), quiet=volume.quiet(play))
    shown = _position(play, base, now, hall_held)
    if play.question_until is not None:
        question = Question.RESTART_ERA if play.restart_asked else Question.NEW_GAME
        return replace(shown, kind=Phase.CONFIRM, question=question)
    return shown


def _position(play: Play, base: Screen, now: float, hall_held: bool) -> Screen:
    """The screen of where the play is (a question aside)."""
    spot = play.spot
    if spot.state in (State.SETUP, State.ERA_SETUP):
        new_game = spot.state is State.SETUP
        shown = replace(base, new_game=new_game, start_player=_intro_player(play, base))
        walk = walk_here(play)
        if walk:  # the guide walked at the setup: its part and place (its keys: not held)
            step = walk[min(spot.guide or 0, len(walk) - 1)]
            # a special round walked at the setup is the game's setup; a phase, the era's
            game = any(special.id == step.part for special in play.profile.specials)
            return replace(shown, kind=Phase.PREPARE, guide_position=step.position,
                           guide_part="game" if game else "era", **_guide_words(play, step.text))
        return shown
    if spot.state is State.ROUND:
        return _round(play, base, now, hall_held)
    if spot.state is State.SPECIAL:
        later = next_start_player(play) if play.profile.specials[
            spot.special].passes_start_player else start_player(play)
        return replace(base, kind=Phase.SCHOLARS, round=spot.round,
                       start_player=later if base.mode is Mode.INTRO else None)
    if spot.state in (State.SCORING, State.STANDINGS):
        return _scoring(play, base, now)
    if spot.state is State.GAME_OVER:
        if not play.profile.categories:  # the score kept on paper: no ranking to show
            return replace(base, kind=Phase.GAME_OVER)
        places = tuple((line.place, play.players[line.seat], line.score,
                        _buildings(play, line.seat)) for line in ranking(play))
        return replace(base, kind=Phase.GAME_OVER, entry="ranking", places=places,
                       totals=_totals(play))
    return base  # an event: Time of Empires has none


def _round(play: Play, base: Screen, now: float, hall_held: bool) -> Screen:
    """A round: the countdown's lead-in, running or paused, or an introductory round."""
    spot = play.spot
    at = countdown_elapsed(play, now)
    if at is None:
        if base.mode is Mode.REALTIME:  # a real-time era's preparation: still its setup
            return replace(base, new_game=False)
        return replace(base, kind=Phase.INTRO_ROUND, round=spot.round,
                       start_player=start_player(play))
    phase = play.profile.phases[spot.phase]
    if at < -EPS:  # the lead-in: its seconds to the start gong
        return replace(base, kind=Phase.LEAD_IN, countdown=max(1, math.ceil(-at - EPS)))
    length = float(phase.timer_s or 0.0)
    paused = play.held_left is not None
    shown = replace(base, kind=Phase.PAUSED if paused else Phase.RUNNING,
                    seconds_left=max(0, math.ceil(length - at - EPS)),
                    elapsed=float(math.floor(at + EPS)), hall_held=paused and hall_held)
    return _call(play, shown, now)


def _call(play: Play, shown: Screen, now: float) -> Screen:
    """A call's prompt over the clock: the box's "Appoint scholars!", or its own words."""
    words = call_words(play, now)
    if words is None:
        return shown
    if words == SCHOLARS:
        return replace(shown, prompt=Prompt.SCHOLARS)
    return replace(shown, prompt=Prompt.SCHOLARS, prompt_text=(words.en, words.ja))


def _scoring(play: Play, base: Screen, now: float) -> Screen:
    """The scoring: the number asked, or the era's standings."""
    profile, spot = play.profile, play.spot
    if not profile.categories:  # the score kept on paper: the scoring asks nothing
        return replace(base, kind=Phase.SCORING)
    by_step = profile.entry != "totals"
    sums = list(_sums(play))
    shown = replace(base, kind=Phase.SCORING, era_total=not by_step,
                    scoring_step=rules.SCORING_STEPS - 1)
    if spot.state is State.STANDINGS:
        places = tuple((place, colour, total, None)
                       for place, colour, _era, total in era_standings(play))
        return replace(shown, entry="standings", places=places,
                       totals=tuple(zip(play.players, sums, strict=True)))
    at = asked(play)
    assert at is not None
    category = profile.categories[at[0]]
    # the checklist's step: the category's place (the era totals, a tie-break: the last)
    shown = replace(shown, scoring_step=min(at[0] if by_step else rules.SCORING_STEPS,
                                            rules.SCORING_STEPS - 1))
    if at[1] == SHOWN:  # a category that gives no points: shown, ERA goes on
        return replace(shown, entry="shown", totals=tuple(zip(play.players, sums, strict=True)))
    value = shown_value(play, now)
    times = category.multiply
    if category.counts:  # the running total shows the number being entered
        sums[at[1]] += value * times
    entry = "points" if category.counts or category.id == TOTAL_ID else "buildings"
    return replace(shown, entry=entry, player=play.players[at[1]], value=value,
                   totals=tuple(zip(play.players, sums, strict=True)), ramp=ramp(play, now),
                   value_vp=value * times if times != 1 else None,
                   value_times=times if times != 1 else None)


def _sums(play: Play) -> tuple[int, ...]:
    """Each player's points so far: the eras before this one's and the numbers confirmed in
    this one (a number not yet entered counts nothing, and hides no earlier era's)."""
    sheets = (*play.spot.past, play.spot.sheet)
    eras = [scores.totals(play.profile, sheet) or (0,) * len(play.players) for sheet in sheets]
    return tuple(sum(era[seat] for era in eras) for seat in range(len(play.players)))


def _totals(play: Play) -> tuple[tuple[str, int], ...]:
    return tuple(zip(play.players, _sums(play), strict=True))


def _buildings(play: Play, seat: int) -> int | None:
    """A player tied for the most points: their count in the first tie-break's categories,
    as the final ranking shows it (None: not tied for the most, or not asked)."""
    sums = _sums(play)
    if sums[seat] != max(sums) or sums.count(max(sums)) < 2 or not play.profile.tie_breaks:
        return None
    ids = play.profile.tie_breaks[0].categories
    sheet = whole_sheet(play)
    values = [sheet[c][seat] for c, category in enumerate(play.profile.categories)
              if category.id in ids]
    if any(v is None for v in values):
        return None
    return sum(sum(v or ()) for v in values)


def _guide_words(play: Play, text: Label) -> dict[str, Any]:
    """A guide step's own words on the box (its `say`: one of Time of Empires' guide texts)
    and the number it shows (the players, or the era's wonders or bonus token VP)."""
    say = text.say if isinstance(text, Step) else ""
    if not say:
        return {}
    number = next(row.n for row in rules.SETUP_STEPS + rules.PREP_STEPS if row.say == say)
    era = min(era_number(play), max(1, len(play.profile.eras)))
    numbers = {"players": len(play.players),
               **dict(play.profile.eras[era - 1].numbers if play.profile.eras else ())}
    return {"guide_step": say, "guide_n": numbers.get(number) if number else None}


def _intro_player(play: Play, base: Screen) -> str | None:
    """The start player an introductory era's setup shows (none in real time)."""
    return start_player(play) if base.mode is Mode.INTRO else None


def mode(play: Play) -> Mode:
    """The variant played as Time of Empires' mode: its id, or whether it plays a countdown."""
    variant = play.profile.variants[play.spot.variant]
    if variant.id in (Mode.REALTIME.value, Mode.INTRO.value):
        return Mode(variant.id)
    return Mode.REALTIME if _variant_countdown(play.profile, variant.id) else Mode.INTRO


def countdown(profile: Profile) -> RoundPhase | None:
    """The profile's first countdown phase (its length and calls are the clock's numbers)."""
    return next((p for p in profile.phases if p.timer_s is not None), None)


def _variant_countdown(profile: Profile, variant: str) -> bool:
    return any(p.timer_s is not None and (not p.variants or variant in p.variants)
               for p in profile.phases)


def intro_rounds(play: Play) -> int:
    """The rounds of an era played in rounds: the variant's, or the first such variant's."""
    profile = play.profile
    era = min(era_number(play), max(1, len(profile.eras))) - 1
    order = [play.spot.variant, *range(len(profile.variants))]
    for index in order:
        if not _variant_countdown(profile, profile.variants[index].id):
            return profile.era_rounds(index, era) or rules.INTRO_ROUNDS
    return rules.INTRO_ROUNDS

