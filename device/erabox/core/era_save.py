"""Time of Empires' saved game read by the round engine (docs/architecture.md, step 4 of the
plan to one engine; docs/state-file.md, "What the round engine reads of a Time of Empires
state file").

A box updated mid-game from the era engine to the round engine finds the era engine's state
file (schema 1, written by `record.snapshot`, checked by `snapshot.loads`). `record_of`
turns that record, with the round profile and its players, into the round engine's own
record (`play_record.snapshot`'s format) at the same point of the game; `play_of` restores
it (`play_record.restore`: the same checks, the same "Resumed"). Pure: dicts in, a dict
out, no clock and no I/O.

What is read, and where it lands:

- `era` (the eras before it in `past`), `mode` as the era's variant (`realtime`, `intro`);
  the eras before it played the mode `modes` says (the box's `era_modes`), else this one's:
  neither format of the file keeps a past era's mode (tests/golden/state-v1, states/), only
  the current era's;
- `era_start_player` as the era's first seat (the start carried from era to era);
- `setup` (and `settings`, the settings menu over it: nearest safe point, the menu closed)
  without a guide step: the game's setup (Era I) or the era's setup (later eras), where NEXT
  still chooses the era's variant, as on the era engine's setup screen; with a guide step:
  the game setup's step (the same step: the round file begins it with the players step,
  `say = "setup_players"`; a round file without one takes the era engine's first step on
  its first) or the era preparation's step of
  round 1 (the variant is then the saved mode); with `guide_at_setup` and the guide on, that
  step walked at the setup;
- `lead_in`: the era engine sets the era up again (its setup: ERA starts the lead-in); the
  round engine comes back set up too, on the last step of round 1's preparation (NEXT
  starts the lead-in: the same ticks at the same instants). Its mode is not chosen again
  there: the round file chooses it at the era's setup, before the preparation, which the
  round engine would show again step by step (a round file with no phase before the
  countdown: held at the lead-in's start, NEXT hold starts it);
- `running` and `paused`: the action phase held (`resume = "paused"`) at the saved running
  time, the lead-in's ticks and start gong given and each era cue given counted as given
  (`cues_done`: a call recorded sounded is given and never sounds again; the call just
  recorded `sounded` owes its prompt whole, `prompt_s` of countdown time from the resume, as
  the era engine owes it: the record's `call_owed`). A call recorded "armed" (not yet handed
  to the mixer) comes back as the era engine's does: held at the call, not given, sounded
  when the table resumes;
- `intro_round` n: round n, on its last step (NEXT: the next round); `scholars`: the
  scholars' special round after round n;
- `scoring`: the points entered so far, each era's mapped onto the round file's
  categories: per step (the checklist's six steps are the first six categories, in order;
  destruction's points back to buildings, / 3), or era totals (each total in the first
  counted category worth its number, `ERA_TOTAL_CATEGORY`, the era's other categories 0
  for that player: the round file asks categories, not totals, and the next number asked
  is the first not entered; a category re-asked for a player whose total was entered adds
  to it; the era engine keeps an era's totals only, no split). The number being entered, not
  yet confirmed, is not carried. The standings after an era are the round engine's
  standings, Era III's too before its tie-break (`tie_break_after = "standings"`: the era
  engine shows them before it asks the buildings); the buildings asked for the tie-break
  land in the `buildings` category; `game_over` is the final ranking.

Never lost: a confirmed number; never sounded twice: a call recorded given or sounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from . import clock, prep
from . import points as era_points
from .eras import TOTAL_ID
from .guide import walk_steps
from .model import Mode
from .play import (
    SCHEMA_VERSION,
    SHOWN,
    Play,
    ShowPlay,
    Spot,
    State,
    entries,
    new_play,
    questions,
    screen,
)
from .play import PlayEffect as PlayEffect
from .profile import Profile, shown_steps

# The round files that read Time of Empires' state file (docs/state-file.md).
READS_TIME_OF_EMPIRES = frozenset({"time-of-empires", "time-of-empires-rounds"})
ERA_TOTAL_CATEGORY = "construction-bonus"  # where an era total entered as one number lands
BUILDINGS_CATEGORY = "buildings"  # the tie-break's count (the era engine's `buildings`)
STEPS = 6  # the era engine's checklist rows; row STEPS holds the era totals
DESTRUCTION_VP = 3


def reads_time_of_empires(profile: Profile) -> bool:
    """Does this round profile read Time of Empires' own state file?"""
    return profile.id in READS_TIME_OF_EMPIRES


def is_era_record(saved: object) -> bool:
    """Is `saved` the era engine's record (no `kind`; its `phase`, `era` and `mode`)?"""
    return (isinstance(saved, dict) and "kind" not in saved
            and all(key in saved for key in ("phase", "era", "mode")))


def play_of(saved: dict[str, Any], profile: Profile, players: tuple[str, ...], now: float,
            modes: Sequence[str] = ()) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The round engine's play at the point of the era engine's record `saved`."""
    from .play_record import restore  # play_record imports nothing of this module

    play, effects = restore(record_of(saved, profile, players, modes), profile, players, now)
    value = _being_entered(saved, play)
    if value is None:
        return play, effects
    # the number on the screen at the cut, not yet confirmed, comes back on it (the era
    # engine saves it: `points.Entry.value`), where the play asks the same number
    play = replace(play, value=value)
    return play, tuple(ShowPlay(screen(play, now)) if isinstance(e, ShowPlay) else e
                       for e in effects)


def record_of(saved: dict[str, Any], profile: Profile, players: tuple[str, ...],
              modes: Sequence[str] = ()) -> dict[str, Any]:
    """The round engine's record (`play_record.snapshot`'s format) of the era engine's
    record `saved` (as `snapshot.loads` accepts it). Raises ValueError where it cannot be
    read: another era count, points saved for other players."""
    if not is_era_record(saved):
        raise ValueError("not a Time of Empires record")
    seats, era = len(players), int(saved["era"])
    if not 1 <= era <= max(1, len(profile.eras)):
        raise ValueError(f"era {era} in a game of {len(profile.eras)} eras")
    variants = [v.id for v in profile.variants]
    mode = str(saved["mode"])
    if mode not in variants:
        raise ValueError(f"the mode {mode!r} is not a variant of {profile.id!r}")
    variant = variants.index(mode)
    past_modes = [modes[i] if i < len(modes) and modes[i] in variants else mode
                  for i in range(era - 1)]
    past_variants = [variants.index(m) for m in past_modes]
    points, buildings = _points(saved, seats, len(profile.eras), era == 1 and saved[
        "phase"] in ("setup", "settings"))
    spot: dict[str, Any] = {
        "state": State.SETUP.value, "variant": variant,
        "first_seat": int(saved.get("era_start_player", 0)) % seats, "round": 0,
        "phase": _first_phase(profile, mode), "turn": 0, "step": 0, "special": 0, "event": 0,
        "event_step": 0, "events_done": [], "last_round": None, "entry": 0,
        "sheet": _blank(profile, seats),
        "past": [_full_sheet(profile, points[e], buildings, e + 1, e + 1 == len(profile.eras))
                 for e in range(era - 1)]}
    if profile.variant_per_era:
        spot["past_variants"] = past_variants
    record: dict[str, Any] = {
        "schema": SCHEMA_VERSION, "kind": "profile", "game": profile.id,
        "players": list(players), "drawn_seat": 0, "spot": spot, "history": [],
        "timer_left": None, "timer_done": False, "music_elapsed": None}
    _place(record, saved, profile, players, era, mode, points[era - 1], buildings)
    return record


def _place(record: dict[str, Any], saved: dict[str, Any], profile: Profile,
           players: tuple[str, ...], era: int, mode: str, points: list[list[int]],
           buildings: list[int | None]) -> None:
    """Where in the era the record is: the spot's state, round, phase, step and numbers."""
    spot, phase, seats = record["spot"], str(saved["phase"]), len(players)
    rounds = profile.era_rounds(spot["variant"], era - 1) or 1
    if phase in ("setup", "settings"):
        spot["state"] = State.SETUP.value if era == 1 else State.ERA_SETUP.value
        guide = saved.get("guide")
        if isinstance(guide, int) and not isinstance(guide, bool):
            _guide(spot, profile, seats, era, mode, guide)
    elif phase in ("lead_in", "running", "paused"):
        _action(record, saved, profile, phase, seats, era)
    elif phase == "intro_round":
        spot.update(state=State.ROUND.value, round=_round(saved, rounds))
        steps = shown_steps(profile.phases[spot["phase"]].steps, seats, mode, spot["round"],
                            era)
        spot["step"] = max(0, len(steps) - 1)
    elif phase == "scholars":
        special = _special(profile, lambda s: s.sound == "cry" and s.passes_start_player)
        spot.update(state=State.SPECIAL.value, round=_round(saved, rounds), special=special)
    else:  # scoring, game_over: the era's last round played
        spot["phase"] = _last_phase(profile, mode)
        spot["round"] = rounds
        _scoring(record, saved, profile, players, era, points, buildings)


def _guide(spot: dict[str, Any], profile: Profile, seats: int, era: int, mode: str,
           guide: int) -> None:
    """The era engine's guide step as the round file's: the game setup's, or round 1's."""
    steps = prep.steps(era, seats, Mode(mode), first=True)
    guide = max(0, min(guide, len(steps) - 1))
    own = sum(1 for s in steps if s.part is prep.Part.GAME)  # the era engine's game setup
    if profile.walk is not None:  # `guide_at_setup`: the same step, walked at the setup
        walk = walk_steps(profile, seats, spot["variant"], era)
        setup = sum(1 for w in walk if w.part in {s.id for s in profile.walk.specials})
        at = max(0, guide - max(0, own - setup)) if guide < own else setup + guide - own
        if walk:
            spot["guide"] = min(at, len(walk) - 1)
        return
    if guide < own:
        special = _special(profile, lambda s: 0 in s.after[spot["variant"]])
        shown = shown_steps(profile.specials[special].steps, seats, mode, 0, era)
        at = max(0, guide - max(0, own - len(shown)))  # its "set up for n players" first
        spot.update(state=State.SPECIAL.value, special=special, round=0,
                    step=min(at, len(shown) - 1))
        return
    shown = shown_steps(profile.phases[spot["phase"]].steps, seats, mode, 1, era)
    spot.update(state=State.ROUND.value, round=1, step=min(guide - own, len(shown) - 1))


def _action(record: dict[str, Any], saved: dict[str, Any], profile: Profile,
            phase: str, seats: int, era: int) -> None:
    """A real-time era's action phase, held at the running time the era engine saved; its
    lead-in not begun: the preparation's last step, where NEXT begins it."""
    spot = record["spot"]
    index = next((i for i, p in enumerate(profile.phases)
                  if p.timer_s is not None and p.in_variant(profile.variants[
                      spot["variant"]].id)), None)
    if index is None:
        raise ValueError("no countdown in the era's variant")
    action = profile.phases[index]
    timer = float(action.timer_s or 0)
    steps = shown_steps(action.steps, 1)
    spot.update(state=State.ROUND.value, round=1, phase=index, step=max(0, len(steps) - 1))
    listed = clock.cues(action)
    lead = sum(1 for c in listed if c.at <= 0)  # the lead-in's ticks and start gong
    mode = profile.variants[spot["variant"]].id
    first = _first_phase(profile, mode)
    if phase == "lead_in" and first != index:  # not begun: set up again, as the era engine
        # sets it up again (ERA begins its lead-in), on the last step of the preparation
        # that begins it (NEXT begins it)
        shown = shown_steps(profile.phases[first].steps, seats, mode, 1, era)
        spot.update(phase=first, step=max(0, len(shown) - 1))
        return
    if phase == "lead_in":  # no preparation before it: held at the lead-in's start
        record.update(timer_left=timer + action.lead_in_s, timer_paused=True)
        return
    done = int(saved.get("cues_done", 0))
    at = min(max(0.0, float(saved.get("elapsed") or 0.0)), timer)
    armed = saved.get("armed")
    if (phase == "running" and isinstance(armed, int) and not isinstance(armed, bool)
            and armed == done and lead + done < len(listed)):
        at = max(0.0, listed[lead + done].at)  # not handed to the mixer: held at the call
    given = min(lead + done, len(listed))
    if not clock.fits(action, given, at):
        raise ValueError(f"{done} cues done at {at:g} s do not fit the round file's "
                         "countdown")
    record.update(timer_left=round(timer - at, 3), timer_paused=True)
    if given:
        record["timer_cues"] = given
    sounded = saved.get("sounded")
    if (isinstance(sounded, int) and not isinstance(sounded, bool) and 0 <= sounded < done
            and listed[lead + sounded].call is not None
            and all(c.call is None for c in listed[lead + sounded + 1:given])):
        # the call just handed to the mixer: its prompt owed whole from the resume, as the
        # era engine owed it, not what was left of it
        record["call_owed"] = round(at + action.prompt_s, 3)


def _scoring(record: dict[str, Any], saved: dict[str, Any], profile: Profile,
             players: tuple[str, ...], era: int, points: list[list[int]],
             buildings: list[int | None]) -> None:
    """The era's scoring: the numbers confirmed so far, the next one asked (or the
    standings, or the final ranking)."""
    spot, seats = record["spot"], len(players)
    last = era == len(profile.eras)
    entry = saved.get("entry") if isinstance(saved.get("entry"), dict) else None
    whole = _full_sheet(profile, points, buildings, era, last)
    if saved["phase"] == "game_over":
        spot.update(state=State.GAME_OVER.value, sheet=whole)
        return
    play = _play_at(profile, players, spot)
    order = entries(play)
    if entry is None:  # the numbers are not kept: the checklist's step, nothing entered
        step = min(max(0, int(saved.get("scoring_step", 0))), STEPS - 1)
        spot.update(state=State.SCORING.value, sheet=_blank(profile, seats),
                    entry=next((e for e, (c, _) in enumerate(order) if c >= step), 0))
        return
    index, by_step = int(entry.get("index", 0)), entry.get("by_step", True) is not False
    if by_step and profile.entry == "totals" and entry.get("tie") is None:
        # saved per step, the box now asking era totals (its settings file not the game's):
        # every total of the era asked again, from the first player
        index, by_step = 0, False
    if by_step and entry.get("tie") is None and index < _positions(profile, era, seats):
        sheet = [list(row) for row in _blank(profile, seats)]
        for e in range(index):  # the numbers before the one asked, entered
            c, seat = order[e]
            if seat != SHOWN:
                sheet[c][seat] = whole[c][seat] or [0]
        spot.update(state=State.SCORING.value, sheet=sheet, entry=index)
        return
    if not by_step:  # era totals: only the players before the one asked are entered
        for row in whole:
            row[min(index, seats):] = [None] * (seats - min(index, seats))
    spot.update(sheet=whole)  # the buildings: those asked so far (the others None)
    # the buildings after the standings (`tie_break_after`), as the era engine asks them
    asked = _first_open(profile, players, spot, after_standings=entry.get("tie") is not None)
    if asked is None:
        spot.update(state=State.STANDINGS.value)
    else:
        spot.update(state=State.SCORING.value, entry=asked)


def _being_entered(saved: dict[str, Any], play: Play) -> int | None:
    """The number the era engine's record was entering (not confirmed), if the play asks
    that same number: the same player's era total, checklist step or buildings."""
    entry, seats = saved.get("entry"), len(play.players)
    if play.spot.state is not State.SCORING or not isinstance(entry, dict):
        return None
    value, tie = entry.get("value"), entry.get("tie")
    order = entries(play)
    if (type(value) is not int or value == 0 or not 0 <= play.spot.entry < len(order)
            or not isinstance(saved.get("scores"), dict)
            or not (tie is None or type(tie) is int)):
        return None
    asked = era_points.Entry(era=int(saved["era"]), index=int(entry.get("index", 0)), tie=tie,
                             by_step=entry.get("by_step", True) is not False)
    try:
        book = era_points.sheet_from_dict(saved["scores"], seats, max(1, len(play.profile.eras)))
    except ValueError:
        return None
    row = era_points.where(asked, seats)[0]
    wanted = (BUILDINGS_CATEGORY if tie is not None else TOTAL_ID if not asked.by_step
              else play.profile.categories[row].id if row is not None and row < STEPS
              else None)
    category, seat = order[play.spot.entry]
    kind = play.profile.categories[category]
    if seat != era_points.asked_player(asked, book) or kind.id != wanted:
        return None
    return min(kind.most, max(kind.least, value))


def _first_open(profile: Profile, players: tuple[str, ...], spot: dict[str, Any],
                after_standings: bool) -> int | None:
    """The first number still to ask (not entered, and able to change the ranking): before
    the standings, one asked before them (not `late`); after them, any."""
    play = _play_at(profile, players, spot)
    sheet, ask = play.spot.sheet, questions(play)
    return next((e for e, (c, seat) in enumerate(ask.order)
                 if seat != SHOWN and sheet[c][seat] is None and ask.wanted(e)
                 and (after_standings or not ask.late(e))), None)


def _play_at(profile: Profile, players: tuple[str, ...], spot: dict[str, Any]) -> Play:
    """A play at the era of `spot` with its sheets, for the entries' order."""
    def sheet(rows: Any) -> Any:
        return tuple(tuple(None if v is None else tuple(v) for v in row) for row in rows)

    play = new_play(profile, players)
    past = tuple(sheet(p) for p in spot["past"])
    return Play(profile=profile, players=players, spot=Spot(
        state=State.SCORING, variant=spot["variant"], first_seat=spot["first_seat"],
        round=spot["round"], phase=spot["phase"], sheet=sheet(spot["sheet"]), past=past,
        past_variants=tuple(spot.get("past_variants", ()))), drawn_seat=play.drawn_seat)


def _positions(profile: Profile, era: int, seats: int) -> int:
    """How many numbers and shown steps the era engine's per-step entry has."""
    return sum(seats if c.asked else 1 for c in profile.categories[:STEPS] if c.in_era(era))


def _full_sheet(profile: Profile, points: list[list[int]], buildings: list[int | None],
                era: int, last: bool) -> list[list[list[int] | None]]:
    """An era's sheet with every number entered: each checklist row in its category (the
    destruction's points as buildings), the era total in `ERA_TOTAL_CATEGORY`; with the
    era totals asked (`entry = "totals"`, or "setting" and the box's "Points entry" totals)
    the whole era in their row (`TOTAL_ID`), the checklist's rows not asked."""
    seats = len(buildings)
    totals = profile.entry == "totals"
    total = _category(profile, TOTAL_ID if totals else ERA_TOTAL_CATEGORY)
    sheet: list[list[list[int] | None]] = []
    for c, category in enumerate(profile.categories):
        row: list[list[int] | None] = []
        for seat in range(seats):
            if not category.asked or not category.in_era(era):
                row.append(None)
            elif category.id == BUILDINGS_CATEGORY:
                value = buildings[seat] if last else None
                row.append(None if value is None else [value])
            else:
                value = (points[c][seat] // category.multiply if c < STEPS
                         and category.multiply > 1 else points[c][seat] if c < STEPS else 0)
                if c == total and totals:  # every row of the era in its total
                    value = sum(points[r][seat] for r in range(STEPS + 1))
                elif c == total:  # the era total, and what a multiplied row cannot hold
                    value += points[STEPS][seat] + sum(_rest(profile, points, seat))
                row.append([value])
        sheet.append(row)
    return sheet


def _rest(profile: Profile, points: list[list[int]], seat: int) -> list[int]:
    """Points a multiplied category cannot hold (never with the era engine's entry): they
    go to the era total's category, so that none is lost."""
    return [points[c][seat] % category.multiply for c, category in
            enumerate(profile.categories[:STEPS]) if category.multiply > 1]


def _points(saved: dict[str, Any], seats: int, eras: int, fresh: bool
            ) -> tuple[list[list[list[int]]], list[int | None]]:
    """The era engine's points [era][row][seat] and buildings; a fresh Era I's setup saved
    for other seats (a settings change) reads as no points."""
    blank = [[[0] * seats for _ in range(STEPS + 1)] for _ in range(max(1, eras))]
    data = saved.get("scores")
    if not isinstance(data, dict):
        return blank, [None] * seats
    try:  # as the era engine reads them (a file from before the era totals too)
        book = era_points.sheet_from_dict(data, seats, max(1, eras))
    except ValueError:
        if fresh:
            return blank, [None] * seats
        raise ValueError("the points were saved for other players") from None
    return [[list(row) for row in era] for era in book.points], list(book.buildings)


def _blank(profile: Profile, seats: int) -> list[list[list[int] | None]]:
    return [[None] * seats for _ in profile.categories]


def _category(profile: Profile, category_id: str) -> int:
    return next((c for c, cat in enumerate(profile.categories) if cat.id == category_id), -1)


def _special(profile: Profile, test: Any) -> int:
    index = next((i for i, s in enumerate(profile.specials) if test(s)), None)
    if index is None:
        raise ValueError(f"{profile.id!r} has no such special round")
    return index


def _first_phase(profile: Profile, mode: str) -> int:
    return next((i for i, p in enumerate(profile.phases) if p.in_variant(mode)), 0)


def _last_phase(profile: Profile, mode: str) -> int:
    return max((i for i, p in enumerate(profile.phases) if p.in_variant(mode)), default=0)


def _round(saved: dict[str, Any], rounds: int) -> int:
    value = saved.get("round")
    return min(max(1, value if isinstance(value, int) and not isinstance(value, bool)
                   else 1), rounds)
