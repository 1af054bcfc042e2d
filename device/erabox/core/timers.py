"""What time does to a game: its timers (`Timer`), which are pending (`pending`), when the loop
must step it next (`next_deadline`), what each timer does when it fires (machine.py's `_FIRE`
table names these handlers), and the start and end of an era's clock that inputs share.

A real-time era's running time is zero at its anchor; each cue falls due at `anchor + cue.at`
(`timeline`). A cry or the end gong is first "armed" (recorded on disk `ARM_LEAD_S` before
it sounds), then "sounded" (recorded durably `SOUNDED_LEAD_S` before it is handed to the
mixer, so a slow card never makes the call wait): a power cut at any moment comes back without
sounding a call twice (record.py, docs/power-cuts.md).
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from enum import Enum, auto
from typing import Any

from . import points as scoring
from .game import EPS, Game, elapsed, sheet, start_player_index, timeline
from .model import (
    Effect,
    FlashCue,
    Mode,
    Music,
    MusicAction,
    Phase,
    PlaySound,
    Prompt,
    Save,
    ShowPrompt,
    Sound,
)
from .record import ARM_LEAD_S, snapshot, sounded_lead

SAVE_EVERY_S = 5.0  # while running, at least this often (less on a slow card: `save_every`)
SAVE_SLACK_S = 0.1  # ... a card whose two writes take this long still saves every 5 s


class Timer(Enum):
    """A deadline a game carries. At equal deadlines they fire in the order listed here."""

    ARM = auto()  # a cry or the end gong is due within ARM_LEAD_S: record it as about to sound
    AHEAD = auto()  # ... due within `sounded_lead`: record it as sounded, ahead of the call
    CUE = auto()  # the next entry of the real-time era's timeline
    LEAD_IN = auto()  # the lead-in's next tick, or after its last one the start gong
    PROMPT = auto()  # a prompt's time is up
    QUESTION = auto()  # an unanswered question closes itself
    SAVE = auto()  # the periodic save of a running era
    VOLUME = auto()  # the volume shown after a change is hidden again


def pending(game: Game) -> list[tuple[float, Timer]]:
    """Every pending deadline that changes the game, with what it is."""
    timers: list[tuple[float, Timer]] = []
    cfg = game.config
    if game.phase is Phase.LEAD_IN and game.lead_in_started is not None:
        timers.append((game.lead_in_started + game.lead_in_ticks, Timer.LEAD_IN))
    if game.phase is Phase.RUNNING and game.anchor is not None:
        cues = timeline(cfg)
        if game.cues_done < len(cues):
            cue = cues[game.cues_done]
            timers.append((game.anchor + cue.at, Timer.CUE))
            # A slow card's "sounded" record may go before the "armed" one would: then the
            # call needs no "armed" record (a cut before the first lands shows an older save).
            if (cue.recorded and game.armed != game.cues_done
                    and not recorded_ahead(game)):
                timers.append((game.anchor + cue.at - ARM_LEAD_S, Timer.ARM))
            if cue.recorded and not recorded_ahead(game):
                timers.append((game.anchor + cue.at - sounded_lead(game), Timer.AHEAD))
        if game.save_due is not None:
            timers.append((game.save_due, Timer.SAVE))
    for until, timer in ((game.question_until, Timer.QUESTION), (game.prompt_until, Timer.PROMPT),
                         (game.volume_until, Timer.VOLUME)):
        if until is not None:
            timers.append((until, timer))
    return timers


def next_deadline(game: Game, now: float) -> float | None:
    """When the loop must call `step(game, Tick(), t)` next, or None to wait for input only.

    Includes the next whole second of the displayed clock, so the screen changes exactly on
    the second.
    """
    deadlines = [d for d, _ in pending(game)]
    if game.phase is Phase.RUNNING and game.anchor is not None:
        left = game.config.realtime.length_s - (now - game.anchor)
        boundary = game.config.realtime.length_s - (math.ceil(left - EPS) - 1)
        deadlines.append(game.anchor + boundary)
    if game.entry is not None and game.entry.hold_since is not None:
        deadlines.append(_next_ramp_step(game.entry.hold_since, now))
    return min(deadlines) if deadlines else None


def _next_ramp_step(hold_since: float, now: float) -> float:
    """When the ramp of the NEXT hold begun at `hold_since` shows its next amount (the screen
    changes then; after `RAMP_MAX` it shows no more, and the moment is the next whole step)."""
    steps = math.floor((now - hold_since) / scoring.RAMP_S + EPS) + 1
    return hold_since + steps * scoring.RAMP_S



def lead_in_tick(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The lead-in's next second: a tick, or after the last one the start gong."""
    cfg = game.config
    if game.lead_in_ticks < cfg.realtime.lead_in_s:
        return replace(game, lead_in_ticks=game.lead_in_ticks + 1), (
            PlaySound(Sound.TICK, game.era),)
    assert game.lead_in_started is not None
    return begin_running(game, game.lead_in_started + cfg.realtime.lead_in_s)


def arm_next_cue(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The next cry or end gong is due within `ARM_LEAD_S`: it is recorded as about to sound.

    On disk before the cue sounds (the loop waits for this write): a cut from here on comes
    back at the cue instead of sounding it a second time."""
    game = replace(game, armed=game.cues_done)
    return game, (Save(snapshot(game, now), durable=True),)


def record_ahead(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The next cry or end gong is due within `sounded_lead`: its "sounded" record (the
    era's scoring, for the end gong), as `fire_cue` will leave the game at the cue's time, goes
    on disk now. The loop waits for it until the cue's time at most, so the call is never late
    for its record; a cut before the call goes out then shows it instead of sounding it."""
    game, record, due = _with_record_ahead(game, now)
    return game, (Save(record, durable=True, by=due),)


def ahead_if_due(game: Game, now: float) -> Game:
    """A press that starts or resumes the era within `sounded_lead` of its next call: the
    call's "sounded" record is what the press's own save writes (the loop waits for that save
    before anything the press does), so the call is never sounded without it."""
    cues = timeline(game.config)
    if game.phase is not Phase.RUNNING or game.anchor is None or game.cues_done >= len(cues):
        return game
    cue = cues[game.cues_done]
    if not cue.recorded or game.anchor + cue.at - sounded_lead(game) > now + EPS:
        return game
    return _with_record_ahead(game, now)[0]


def _with_record_ahead(game: Game, now: float) -> tuple[Game, dict[str, Any], float]:
    """The game carrying the next call's "sounded" record: the record `fire_cue` saves at the
    call's time, which every save writes from now until the call (see record.snapshot)."""
    assert game.anchor is not None
    due = game.anchor + timeline(game.config)[game.cues_done].at
    _, effects = fire_cue(game, max(due, now))
    record = next(e.snapshot for e in effects if isinstance(e, Save))
    game = replace(game, sounded_ahead=(game.cues_done, game.anchor,
                                        json.dumps(record, sort_keys=True)))
    return game, record, due


def recorded_ahead(game: Game) -> bool:
    """The next call's "sounded" record is on disk already (written by `record_ahead` since
    the era last started or resumed)."""
    ahead = game.sounded_ahead
    return ahead is not None and ahead[0] == game.cues_done and ahead[1] == game.anchor


def periodic_save(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """A running era's save, every `SAVE_EVERY_S`.

    The next is due from this one's due time, not from `now`: saves stay on the clock's second
    boundaries (one wake-up serves both) instead of drifting by the loop's lateness."""
    due = (game.save_due or now) + save_every(game)
    if due <= now:  # the loop was held up for longer than a save period
        due = now + save_every(game)
    return replace(game, save_due=due), (Save(snapshot(game, now)),)


def save_every(game: Game) -> float:
    """The running era's save period: `SAVE_EVERY_S` less the whole seconds two durable
    writes take on this card (a save may wait behind one being written), at least 1 s, so a
    cut loses at most `SAVE_EVERY_S` + `SAVE_SLACK_S` of running time on a slow card too."""
    return max(1.0, SAVE_EVERY_S - math.ceil(2.0 * game.write_s - SAVE_SLACK_S - EPS))


def close_question(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """An unanswered question closes itself (nothing changes)."""
    return replace(game, question=None, question_until=None), ()


def close_prompt(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """A prompt's time is up. A scholar prompt shown for its whole time is no longer owed."""
    return replace(game, prompt=None, prompt_until=None, sounded=None), ()


def hide_volume(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The volume shown after a change is hidden again."""
    return replace(game, volume_until=None), ()


def fire_cue(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The era's next cue sounds: a tick, a scholar cry (with its prompt) or the end gong
    (the era's scoring)."""
    index = game.cues_done
    cue = timeline(game.config)[index]
    game = replace(game, cues_done=index + 1, armed=None, sounded_ahead=None)
    file = "" if cue.call is None else game.config.realtime.call(cue.call).file
    sound: tuple[Effect, ...] = (PlaySound(cue.sound, game.era, file),)
    if not cue.recorded:
        return game, sound
    # A gong or a cry is a cue the table must act on: it closes any open question.
    game = replace(game, question=None, question_until=None)
    if cue.ends_era:
        assert game.anchor is not None
        game = enter_scoring(game)
        after: tuple[Effect, ...] = (FlashCue(cue.sound),
                                     Music(MusicAction.STOP, game.era, Mode.REALTIME, cue.at))
    else:
        until = now + game.config.realtime.scholar_prompt_s
        game = replace(game, prompt=Prompt.SCHOLARS, prompt_until=until, prompt_left=None,
                       sounded=index)
        own = None if cue.call is None else game.config.realtime.call(cue.call).prompt
        after = (FlashCue(cue.sound), ShowPrompt(Prompt.SCHOLARS, own and own[0]))
    # The "sounded" record (the era's scoring, for the end gong) is on disk already: the AHEAD
    # timer, always due before the cue, wrote it (`record_ahead`); this save only repeats it in
    # the background. A cut from then on comes back silent, showing the call instead of
    # sounding it a second time (docs/power-cuts.md).
    return game, (Save(snapshot(game, now)), *sound, *after)


def begin_running(game: Game, at: float) -> tuple[Game, tuple[Effect, ...]]:
    """The start gong: running time zero is `at` (the scheduled time, not when we woke)."""
    game = replace(game, phase=Phase.RUNNING, anchor=at, held_elapsed=None, lead_in_started=None,
                   lead_in_ticks=0, cues_done=0, armed=None, sounded=None,
                   sounded_ahead=None, save_due=at + save_every(game),
                   question=None, question_until=None)
    return arm_if_due(game, at), (PlaySound(Sound.GONG, game.era), FlashCue(Sound.GONG),
                                  Music(MusicAction.START, game.era, Mode.REALTIME, 0.0))


def arm_if_due(game: Game, now: float) -> Game:
    """Arm the next cry or end gong at once when it is due within `ARM_LEAD_S` (the era
    started or resumed just before it): the save that records this step carries it."""
    cues = timeline(game.config)
    if game.anchor is None or game.cues_done >= len(cues):
        return game
    cue = cues[game.cues_done]
    if cue.recorded and game.anchor + cue.at - ARM_LEAD_S <= now + EPS:
        return replace(game, armed=game.cues_done)
    return game


def enter_scoring(game: Game) -> Game:
    """The era is over. The start player who ends an introductory era starts the next one."""
    return replace(game, phase=Phase.SCORING, era_start_player=start_player_index(game),
                   anchor=None, held_elapsed=None, cues_done=0, armed=None, sounded=None,
                   sounded_ahead=None, round=None,
                   scoring_step=0, prompt=None, prompt_until=None, prompt_left=None,
                   save_due=None, entry=_new_entry(game), sheet=sheet(game))


def _new_entry(game: Game) -> scoring.Entry | None:
    """The entry of an era's points, or None when the table keeps score on paper."""
    if not game.config.keep_score:
        return None
    return scoring.Entry(era=game.era, by_step=game.config.points_entry == "steps",
                         checklist=game.config.checklist)


def pause_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The era pauses: its running time is held (NEXT held, or a hall's order)."""
    held = elapsed(game, now) or 0.0
    # Disarmed: a paused era's next cue is not about to sound (resuming arms it again).
    game = replace(game, phase=Phase.PAUSED, anchor=None, held_elapsed=held, save_due=None,
                   armed=None, sounded_ahead=None)
    if game.prompt is Prompt.PAUSE_HINT:  # "hold NEXT to pause" is done: it paused
        game = replace(game, prompt=None, prompt_until=None)
    if game.prompt is Prompt.SCHOLARS and game.prompt_until is not None:
        # The prompt lasts `scholar_prompt_s` of RUNNING time: it stays up, its clock held.
        game = replace(game, prompt_left=max(0.0, game.prompt_until - now), prompt_until=None)
    return game, (Music(MusicAction.PAUSE, game.era, Mode.REALTIME, held),)


def resume_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The era resumes from its held running time: running time zero is `now - held`."""
    held = game.held_elapsed or 0.0
    # The table is back at it: an owed scholar prompt (see restore) has been seen.
    game = replace(game, phase=Phase.RUNNING, anchor=now - held, held_elapsed=None,
                   save_due=now + save_every(game), sounded=None)
    if game.prompt is Prompt.RESUMED:
        game = replace(game, prompt=None, prompt_until=None)
    if game.prompt is Prompt.SCHOLARS and game.prompt_left is not None:
        game = replace(game, prompt_until=now + game.prompt_left, prompt_left=None)
    return ahead_if_due(arm_if_due(game, now), now), (
        Music(MusicAction.RESUME, game.era, Mode.REALTIME, held),)
