"""A game profile's play across a power cut: `snapshot` writes a clock-free record,
`restore` reads it back at the same round, phase, step or number (or says what does not fit).
"""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from . import clock, scores, volume
from .config import SCORE_VARIANTS
from .deadlines import armed_left
from .guide import walk_here
from .model import (
    MusicAction,
    Prompt,
    ShowPrompt,
)
from .music import music_key, music_place, on_gong, phase_music
from .play import (
    EPS,
    HISTORY,
    RESUMED_PROMPT_S,
    SCHEMA_VERSION,
    Play,
    PlayEffect,
    ShowPlay,
    Spot,
    State,
    asked,
    call_words,
    countdown_elapsed,
    entries,
    new_play,
    save_every,
    screen,
)
from .profile import MAX_FINAL_TICKS, MAX_ROUNDS, Profile, shown_steps

MAX_MUSIC_S = 366 * 24 * 3600  # a phase's music place: a year of play is plenty
# a record's array: a list read from JSON, a tuple in an undo step's record (`_step_record`)
_ARRAY = (list, tuple)

# --- saving and restoring --------------------------------------------------------------------


def _spot_dict(spot: Spot) -> dict[str, Any]:
    return _spot_fields(spot, list(spot.events_done), _sheet_list(spot.sheet),
                        [_sheet_list(sheet) for sheet in spot.past], list(spot.past_variants))


def _spot_fields(spot: Spot, events_done: Sequence[str], sheet: Sequence[Any],
                 past: Sequence[Any], past_variants: Sequence[int]) -> dict[str, Any]:
    """A spot's record, its arrays given (lists, or the Spot's own tuples: `_step_record`)."""
    return {"state": spot.state.value, "variant": spot.variant, "first_seat": spot.first_seat,
            "round": spot.round, "phase": spot.phase, "turn": spot.turn, "step": spot.step,
            "special": spot.special, "event": spot.event, "event_step": spot.event_step,
            "events_done": events_done,
            "last_round": spot.last_round, "entry": spot.entry,
            "sheet": sheet
            } | ({} if spot.final_turn is None else {"final_turn": spot.final_turn}) | (
                {"past": past} if past else {}) | (
                {"past_variants": past_variants} if past_variants else {}) | (
                {} if spot.guide is None else {"guide": spot.guide})


def _sheet_list(sheet: scores.Sheet) -> list[list[list[int] | None]]:
    return [[None if v is None else list(v) for v in row] for row in sheet]


_KEPT = "_saved"  # an undo step's record, kept in its Spot's own __dict__ (`_step_record`)


def _step_record(spot: Spot) -> dict[str, Any]:
    """An undo step's record in a save's `history`: `_spot_dict`'s, written the same, but
    its arrays are the Spot's own tuples (JSON writes a tuple as an array), so no reader (a
    save's JSON, a test) can change what a later save writes. A step stays in the history
    unchanged (a Spot is frozen) for up to HISTORY saves: its record is built once and kept
    beside it, in the Spot's own `__dict__` (as `functools.cached_property` keeps a value on
    a frozen dataclass: no field, so no part of its equality, hash or `replace`), and a save
    costs what changed since the last, not the whole history again. Each save has its own
    copy of the record's keys (a reader may set or drop one)."""
    kept = vars(spot).get(_KEPT)
    if kept is None:
        kept = vars(spot)[_KEPT] = _spot_fields(spot, spot.events_done, spot.sheet,
                                                spot.past, spot.past_variants)
    return dict(kept)


def snapshot(play: Play, now: float) -> dict[str, Any]:
    """A clock-free record of the play, enough for `restore` after a power cut. A countdown
    with calls or final ticks adds the cues it has given (`timer_cues`), a paused one
    `timer_paused`: a record of a countdown without them is as it always was."""
    left = None if play.timer_end is None else max(0.0, play.timer_end - now)
    if play.held_left is not None:
        left = play.held_left
    timer = play.profile.phases[play.spot.phase].timer_s
    due = clock.next_at(play.profile.phases[play.spot.phase], play.cues_done)
    if left is not None and timer is not None and due is not None:
        # a step woken late saves before it gives what fell due: the countdown cannot be
        # past a cue it has not given yet
        left = max(left, timer - due)
    if (at_call := armed_left(play)) is not None:  # recorded "armed": held at the call
        left = at_call
    music = None if play.music_since is None else round(music_place(play, now), 3)
    clock_part: dict[str, Any] = {}
    if left is not None and play.cues_done:
        clock_part["timer_cues"] = play.cues_done
    if play.held_left is not None:
        clock_part["timer_paused"] = True
    if left is not None and play.call_owed is not None:  # a prompt owed since a cut
        clock_part["call_owed"] = round(play.call_owed, 3)
    return {"schema": SCHEMA_VERSION, "kind": "profile", "game": play.profile.id,
            "players": list(play.players), "drawn_seat": play.drawn_seat,
            "spot": _spot_dict(play.spot), "history": [_step_record(s) for s in play.history],
            "timer_left": None if left is None else round(left, 3),
            "timer_done": play.timer_done, "music_elapsed": music} | clock_part | (
                volume.record(play)) | ({"take": play.take} if play.take != 1 else {}) | (
                _typed(play))


def _typed(play: Play) -> dict[str, Any]:
    """The number being entered at the scoring, not yet confirmed (a power cut comes back
    to it, as in Time of Empires' era): saved where it is not 0 (a record without it: 0)."""
    return {"value": play.value} if play.value and asked(play) is not None else {}


def _typed_from(record: dict[str, Any], play: Play) -> int:
    """A record's number being entered, within the bounds of the category asked."""
    if "value" not in record:
        return 0
    at = asked(play)
    if at is None:
        raise ValueError("'value' is saved only while a number is asked")
    category = play.profile.categories[at[0]]
    return _int(record, "value", category.least, category.most)


def _saved_part(play: Play) -> tuple[object, ...]:
    """What a save keeps, but the countdown's seconds (saved every `save_every` instead):
    its cues given from its start gong on (a call, a final tick: each saves, so a cut among
    the final ticks loses at most a second, as in Time of Empires' era), not its lead-in's
    ticks (a cut in the lead-in comes back at its last save)."""
    given = clock.given_from_start(play.profile.phases[play.spot.phase], play.cues_done)
    return (play.spot, play.history, play.drawn_seat, play.timer_done, play.timer_end is None,
            play.music_since is None, play.held_left is None, given, play.volume, play.take,
            play.value)


def restore(record: dict[str, Any], profile: Profile, players: tuple[str, ...],
            now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The play after a restart, back at the same round, phase, step or number, "Resumed"
    shown (a call's prompt up at the cut instead, owed whole: `_owed_prompt`); a countdown
    goes on from what it had left (held, `resume = "paused"`), a phase's music from where it
    was (from its start in a record without its place; the era's before "Resumed"). Raises
    ValueError naming what does not fit (another game, other players, a field out of
    range)."""
    if not isinstance(record, dict) or record.get("kind") != "profile":
        raise ValueError("not a saved game profile")
    if type(record.get("schema")) is not int or record.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"'schema' should be {SCHEMA_VERSION}")
    if record.get("game") != profile.id:
        raise ValueError(f"saved for the game {record.get('game')!r}, not {profile.id!r}")
    if record.get("players") != list(players):
        raise ValueError("saved with other players")
    play = new_play(profile, players, _int(record, "drawn_seat", 0, len(players) - 1))
    history = record.get("history")
    if not isinstance(history, list):
        raise ValueError("'history' should be a list")
    spot = _spot_from(record.get("spot"), play)
    past = tuple(_spot_from(s, play) for s in history[-HISTORY:])
    left = record.get("timer_left")
    if left is not None and (isinstance(left, bool) or not isinstance(left, int | float)
                             or not 0 <= left <= 24 * 3600 + MAX_FINAL_TICKS):
        raise ValueError("'timer_left' should be seconds or null")
    done = record.get("timer_done", False)
    if not isinstance(done, bool):
        raise ValueError("'timer_done' should be true or false")
    cues, paused = _countdown_from(record, profile, spot, left)
    owed = _owed_from(record, profile, spot, cues)
    music = record.get("music_elapsed")
    if music is not None and (isinstance(music, bool) or not isinstance(music, int | float)
                              or not 0 <= music <= MAX_MUSIC_S):
        raise ValueError("'music_elapsed' should be seconds or null")
    running = left is not None and spot.state is not State.SETUP
    # `resume = "paused"`: a countdown played comes back held, as Time of Empires' era (not
    # under an event: ERA resumes it in its phase); a cue owed sounds once the table resumes
    paused |= (running and not done and spot.state is State.ROUND
               and profile.phases[spot.phase].resume == "paused")
    play = replace(play, spot=spot, history=past, timer_done=done, cues_done=cues,
                   volume=volume.from_record(record),
                   take=_int(record, "take", 1, SCORE_VARIANTS) if "take" in record else 1,
                   value=_typed_from(record, replace(play, spot=spot)),
                   timer_end=now + left if running and not paused and left is not None
                   else None,
                   held_left=left if running and paused else None,
                   call_owed=owed if running else None,
                   save_due=None if left is None or paused else now + save_every(play),
                   prompt=Prompt.RESUMED, prompt_until=now + RESUMED_PROMPT_S)
    shown = _owed_prompt(play, now) if running else None
    if shown is not None:  # a call's prompt was up at the cut: it comes back instead
        play = replace(play, call_owed=shown[0], prompt=None, prompt_until=None)
    said = ShowPrompt(Prompt.RESUMED) if shown is None else shown[1]
    effects: tuple[PlayEffect, ...] = ()
    if on_gong(play):  # its music on the countdown's time: where the countdown comes back
        if music_key(play, now) is not None:  # (held: resumed with it, as the era's music)
            at = max(0.0, countdown_elapsed(play, now) or 0.0)
            play = replace(play, music_since=now - at)
            if play.held_left is None:
                effects = (phase_music(play, MusicAction.RESUME, at),)
    elif (key := music_key(play, now)) is not None:  # its phase's, or its era's
        elapsed = float(music or 0.0)
        play = replace(play, music_since=now - elapsed, save_due=now + save_every(play))
        effects = (phase_music(play, MusicAction.RESUME, elapsed),)
        if key[2] < 0:  # the era's (`music_from = "era"`): it comes back with the era, before
            # "Resumed" shows, as Time of Empires' introductory era comes back
            return play, (*effects, said, ShowPlay(screen(play, now)))
    return play, (said, *effects, ShowPlay(screen(play, now)))


def _owed_prompt(play: Play, now: float) -> tuple[float, ShowPrompt] | None:
    """A countdown's call whose prompt was up when the power failed (a cut at the call, in
    its record's lead before it, or while its prompt shows): never sounded again, its prompt
    comes back instead of "Resumed", owed whole (`prompt_s` of countdown time from where the
    countdown comes back: `call_owed`, saved with it), as Time of Empires' era owes its
    scholar prompt. None when no call's prompt is up there."""
    at = countdown_elapsed(play, now)
    words = call_words(play, now)
    if at is None or words is None:
        return None
    phase = play.profile.phases[play.spot.phase]
    call = phase.calls[clock.shown_call(phase, play.cues_done, at + EPS, play.call_owed) or 0]
    owed = round(max(at, 0.0) + phase.prompt_s, 3)
    return owed, ShowPrompt(Prompt.SCHOLARS, None if call.box_prompt else words.en)


def _countdown_from(record: dict[str, Any], profile: Profile, spot: Spot, left: Any
                    ) -> tuple[int, bool]:
    """The countdown's cues given and whether it is paused: they must fit its seconds left
    (a call given is one whose record is on disk; one not given sounds at its time)."""
    paused = record.get("timer_paused", False)
    if not isinstance(paused, bool) or (paused and left is None):
        raise ValueError("'timer_paused' should be true or false, and true only with "
                         "'timer_left'")
    if "timer_cues" not in record:
        return 0, paused
    phase = profile.phases[spot.phase]
    cues = _int(record, "timer_cues", 0, len(clock.cues(phase)))
    if left is None or phase.timer_s is None or not clock.fits(phase, cues,
                                                               phase.timer_s - left):
        raise ValueError("'timer_cues' does not fit the countdown's seconds left")
    return cues, paused


def _owed_from(record: dict[str, Any], profile: Profile, spot: Spot, cues: int
               ) -> float | None:
    """`call_owed`: a call's prompt owed whole at a power cut (a Time of Empires state file
    read, core/era_save.py), shown until that many seconds into the countdown,
    after a call given and within one `prompt_s` of the countdown's time left."""
    owed = record.get("call_owed")
    if owed is None:
        return None
    phase = profile.phases[spot.phase]
    end = clock.prompt_end(phase, cues)
    left = record.get("timer_left")
    slack = clock.SAVED_SLACK_S
    if (isinstance(owed, bool) or not isinstance(owed, int | float) or end is None
            or phase.timer_s is None or not isinstance(left, int | float)
            or not end - slack <= owed <= phase.timer_s - left + phase.prompt_s + slack):
        raise ValueError("'call_owed' should be the seconds into the countdown a call's "
                         "prompt shows until, after a call given")
    return float(owed)


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"'{key}' should be a whole number from {low} to {high}")
    return value


def _spot_from(data: Any, play: Play) -> Spot:
    profile, seats = play.profile, len(play.players)
    if not isinstance(data, dict):
        raise ValueError("a saved spot should be an object")
    try:
        state = State(str(data.get("state")))
    except ValueError:
        raise ValueError("'state' is not a state of a game profile") from None
    variant = _int(data, "variant", 0, len(profile.variants) - 1)
    past = data.get("past", [])  # a game of eras: the eras before this one's numbers
    if not isinstance(past, _ARRAY) or len(past) > max(0, len(profile.eras) - 1):
        raise ValueError(f"'past' should list at most {max(0, len(profile.eras) - 1)} eras' "
                         "numbers")
    if state is State.STANDINGS and len(past) + 1 >= max(1, len(profile.eras)) and not (
            profile.last_standings and len(past) + 1 == len(profile.eras)):
        raise ValueError("the standings come after an era before the last only")
    if state is State.ERA_SETUP and not (profile.variant_per_era and past):
        raise ValueError("an era's setup comes after an era, in a game that chooses its "
                         "variant era by era only")
    chosen = _past_variants(data, profile, variant, len(past))
    last = profile.era_rounds(variant, len(past)) or MAX_ROUNDS
    phase = _int(data, "phase", 0, len(profile.phases) - 1)
    if state in (State.ROUND, State.EVENT) and not profile.phases[phase].in_variant(
            profile.variants[variant].id):
        raise ValueError(f"'phase' {phase} is not played in the variant "
                         f"'{profile.variants[variant].id}'")
    special = _int(data, "special", 0, max(0, len(profile.specials) - 1))
    event = _int(data, "event", 0, max(0, len(profile.events) - 1))
    ids = [e.id for e in profile.events]
    done = data.get("events_done")
    if not isinstance(done, _ARRAY) or any(d not in ids for d in done) or len(set(done)) != len(
            done):
        raise ValueError("'events_done' should list events of this game")
    last_round = data.get("last_round")
    if last_round is not None:
        last_round = _int(data, "last_round", 1, last)
    sheet = _sheet_from(data.get("sheet"), profile, seats)
    earlier = tuple(_sheet_from(p, profile, seats) for p in past)
    era_play = replace(play, spot=replace(play.spot, past=earlier))  # its scoring's entries
    final = None if data.get("final_turn") is None else _int(data, "final_turn", 1,
                                                               2 * seats - 1)
    spot = Spot(state=state, variant=variant, first_seat=_int(data, "first_seat", 0, seats - 1),
                round=_int(data, "round", 0 if state in (State.SETUP, State.ERA_SETUP) or (
                    state is State.SPECIAL and 0 in profile.specials[special].after[variant])
                    else 1, last),
                phase=phase, turn=_int(data, "turn", 0, seats - 1 if final is None else final),
                step=0, special=special, event=event, events_done=tuple(done),
                last_round=last_round, final_turn=final,
                entry=_int(data, "entry", 0, max(0, len(entries(era_play)) - 1)), sheet=sheet,
                past=earlier, past_variants=chosen)
    if (state is State.SPECIAL and not profile.specials) or (state is State.EVENT and not ids):
        raise ValueError(f"this game has no {state.value}s")
    era = len(past) + 1 if profile.eras else None
    case = (seats, profile.variants[variant].id, spot.round, era)  # the steps shown there
    if state is State.SPECIAL:
        high = len(shown_steps(profile.specials[special].steps, *case))
    elif state in (State.ROUND, State.EVENT):
        high = len(shown_steps(profile.phases[phase].steps, *case))
    else:  # the scoring and the ranking keep the step play left: a phase's or a special's
        high = max([len(shown_steps(p.steps, seats)) for p in profile.phases]
                   + [len(shown_steps(s.steps, seats)) for s in profile.specials])
    event_steps = 1
    if profile.events:  # an event's steps in its round; out of it, those with so many players
        event_steps = len(shown_steps(profile.events[event].steps,
                                      *(case if state is State.EVENT else case[:1])))
    if profile.eras and state is State.SCORING and not entries(era_play):
        raise ValueError("this era's scoring asks no number")
    spot = replace(spot, step=_int(data, "step", 0, high - 1),
                   event_step=_int(data, "event_step", 0, event_steps - 1))
    return _walked(data, replace(play, spot=spot))


def _walked(data: dict[str, Any], play: Play) -> Spot:
    """`guide`: the step of the guide walked at a setup (`guide_at_setup`), one it has."""
    if data.get("guide") is None:
        return play.spot
    walk = walk_here(replace(play, spot=replace(play.spot, guide=0)))
    if not walk:
        raise ValueError("'guide' is a step of the guide walked at a setup, with the guide on")
    return replace(play.spot, guide=_int(data, "guide", 0, len(walk) - 1))


def _past_variants(data: dict[str, Any], profile: Profile, variant: int, eras: int
                   ) -> tuple[int, ...]:
    """`variant_per_era`: the variant each era before this one played; a record written
    before they were kept played one variant, the game's, in every era."""
    if not profile.variant_per_era:
        return ()
    listed = data.get("past_variants", [variant] * eras)
    if not isinstance(listed, _ARRAY) or len(listed) != eras or not all(
            isinstance(v, int) and not isinstance(v, bool)
            and 0 <= v < len(profile.variants) for v in listed):
        raise ValueError(f"'past_variants' should list the variant (0 to "
                         f"{len(profile.variants) - 1}) of each of the {eras} eras played")
    return tuple(listed)


def _sheet_from(data: Any, profile: Profile, seats: int) -> scores.Sheet:
    def values(v: Any) -> bool:
        return v is None or (isinstance(v, _ARRAY) and all(
            isinstance(x, int) and not isinstance(x, bool) and -999 <= x <= 999 for x in v))

    if not (isinstance(data, _ARRAY) and len(data) == len(profile.categories) and all(
            isinstance(row, _ARRAY) and len(row) == seats and all(values(v) for v in row)
            for row in data)):
        raise ValueError(f"'sheet' should be {len(profile.categories)} categories x {seats} "
                         "players of entered numbers")
    return tuple(tuple(None if v is None else tuple(v) for v in row) for row in data)
