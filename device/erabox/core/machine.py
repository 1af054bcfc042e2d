"""The game as a pure state machine: `step(game, event, now) -> (game, effects)`.

The box has one job: run three eras of Time of Empires on time. Each era opens in `setup`,
where NEXT toggles its mode and ERA starts it:

    setup --ERA--> lead_in --(lead_in_s)--> running --(length_s)--> scoring --ERA--> setup ...
                   (real-time)              <--NEXT hold--> paused
    setup --ERA--> intro_round 1 --NEXT--> ... --> scholars --NEXT--> ... --> scoring
                   (introductory)            (after rounds 5 and 10)  (after round 15)
    scoring of Era III --ERA--> game_over

An era's setup opens on the preparation guide (prep.py; a setting turns it off): NEXT walks
its steps, ERA starts the era at once. Scoring is where victory points are entered (scores.py):
per step, per player; then the era's standings; after Era III the final ranking.

A real-time era keeps one anchor: the `now` at which its running time was zero, shifted
forward by every pause. Every cue's deadline is `anchor + cue_time`, so lateness never
accumulates however often the loop wakes. While paused the running time is held instead.

A `confirm` question (restart the era / new game) is drawn over whatever phase is underneath;
the phase keeps running, so a cue that falls due still fires (and closes the question).

Inputs with no entry in the table of `docs/behaviour.md` change nothing and return no effects.
Time only enters as `now` (seconds on any monotonic clock); the machine never reads a clock itself.
`next_deadline` tells a loop when to call `step(game, Tick(), now)` next.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from . import prep
from . import scores as scoring
from . import settings as settings_menu
from .config import Config
from .model import (
    Button,
    Effect,
    Event,
    FlashCue,
    Gesture,
    Input,
    Mode,
    Music,
    MusicAction,
    Phase,
    PlaySound,
    PrepareMusic,
    Prompt,
    Question,
    Save,
    SaveSettings,
    Scored,
    Screen,
    SetVolume,
    Show,
    ShowPrompt,
    Sound,
    Standings,
)
from .rules import ERAS, SCORING_STEPS

SCHEMA_VERSION = 1
QUESTION_TIMEOUT_S = 10.0  # an unanswered question closes itself
SAVE_EVERY_S = 5.0  # while running, at least this often
ARM_LEAD_S = 0.5  # a cry or the end gong is recorded on disk this long before it sounds
PAUSE_HINT_S = 3.0
RESUMED_PROMPT_S = 5.0
VOLUME_SHOWN_S = 2.0
VOLUME_STEP = 0.1
QUIET_LEVEL = 0.1  # at or below this volume every screen shows the quiet mark
UNDONE_SHOWN_S = 3.0
EPS = 1e-6  # float slack when comparing a deadline with `now`


@dataclass(frozen=True)
class Cue:
    """One entry of a real-time era's timeline, at `at` seconds of running time."""

    at: float
    sound: Sound
    ends_era: bool = False


@dataclass(frozen=True)
class Game:
    """The whole game state. Build the first one with `new_game(config)`."""

    config: Config
    phase: Phase  # never CONFIRM: a question is shown over `phase`
    era: int
    mode: Mode
    volume: float
    era_start_player: int = 0  # index into config.players of this era's first start player
    # real-time era
    anchor: float | None = None  # `now` at running time 0, shifted by pauses (running)
    held_elapsed: float | None = None  # running time while paused
    lead_in_started: float | None = None
    lead_in_ticks: int = 0  # lead-in ticks already played
    cues_done: int = 0  # entries of `timeline(config)` already fired
    armed: int | None = None  # the cue whose "about to sound" record was saved (see restore)
    # introductory era
    round: int | None = None
    # scoring
    scoring_step: int = 0
    # transient (not saved): question, prompt overlay, volume overlay, save clock
    question: Question | None = None
    question_until: float | None = None
    prompt: Prompt | None = None
    prompt_until: float | None = None
    prompt_left: float | None = None  # a scholar prompt's time left, held while paused
    volume_until: float | None = None
    save_due: float | None = None
    # settings chosen on the box: `config` is `base` (the file) with `settings` laid over it
    base: Config | None = None
    settings: settings_menu.Settings | None = None
    menu: settings_menu.Menu | None = None  # the settings menu, open over the new game's setup
    # the preparation guide: which of the era's steps (prep.steps) is shown over its setup
    guide: int | None = None
    # victory points: the game's score sheet, and where the entry is while an era is scored
    sheet: scoring.Sheet | None = None
    entry: scoring.Entry | None = None


def opening(game: Game, now: float) -> tuple[Effect, ...]:
    """What a fresh game hands the adapters before its first input: the volume, the first
    era's music to get ready, and the screen."""
    return (SetVolume(game.volume, music=game.config.audio.music_level),
            PrepareMusic(game.era, game.mode), Show(screen(game, now)))


def new_game(config: Config, volume: float | None = None,
             settings: settings_menu.Settings | None = None) -> Game:
    """A fresh game: `setup` of Era I in its default mode, Era I start player = oldest player.

    `config` comes from the file; `settings` (chosen on the box) are laid over it.
    """
    effective = config if settings is None else settings_menu.apply(config, settings)
    return Game(
        config=effective,
        phase=Phase.SETUP,
        era=1,
        mode=era_mode(effective, 1),
        volume=effective.audio.volume if volume is None else volume,
        base=config,
        settings=settings,
        guide=0 if effective.guide else None,
        sheet=scoring.blank(len(effective.players)),
    )


era_mode = settings_menu.mode  # the mode an era is set up in


def base_config(game: Game) -> Config:
    """The config from the file, before the box's own settings."""
    return game.config if game.base is None else game.base


@cache  # the config is frozen: build each era's timeline once, not on every step
def timeline(config: Config) -> tuple[Cue, ...]:
    """The cues of a real-time era in firing order: scholar cries, final ticks, end gong."""
    rt = config.realtime
    cues = [Cue(at, Sound.CRY) for at in rt.scholar_cues_s]
    cues += [Cue(rt.length_s - k, Sound.TICK) for k in range(rt.final_ticks_s, 0, -1)
             if rt.length_s - k > 0]
    cues.append(Cue(rt.length_s, Sound.GONG, ends_era=True))
    # At equal times a cry comes before a tick; the end gong is last by construction.
    order = {Sound.CRY: 0, Sound.TICK: 1, Sound.GONG: 2}
    return tuple(sorted(cues, key=lambda c: (c.at, order[c.sound])))


# --- queries ----------------------------------------------------------------------------------


def elapsed(game: Game, now: float) -> float | None:
    """Running seconds of the current real-time era, or None outside one."""
    if game.phase is Phase.RUNNING and game.anchor is not None:
        return max(0.0, now - game.anchor)
    if game.phase is Phase.PAUSED:
        return game.held_elapsed
    return None


def start_player_index(game: Game) -> int:
    """Index of the current start player: the era's first, moved left once per scholar call
    that has been resolved (in the introductory era)."""
    index = game.era_start_player
    if game.mode is Mode.INTRO and game.round is not None:
        index += sum(1 for r in game.config.intro.scholar_after_rounds if r < game.round)
    return index % len(game.config.players)


def start_player(game: Game) -> str | None:
    """Colour of the start player, shown while an introductory era is set up or played."""
    if game.mode is Mode.INTRO and game.phase in (Phase.SETUP, Phase.INTRO_ROUND,
                                                  Phase.SCHOLARS):
        return game.config.players[start_player_index(game)]
    return None


def state_name(game: Game) -> Phase:
    """The state as `docs/behaviour.md` names it: `confirm` while a question is open,
    `settings` while the settings menu is."""
    if game.menu is not None:
        return Phase.SETTINGS
    return Phase.CONFIRM if game.question is not None else game.phase


def screen_kind(game: Game) -> Phase:
    """The kind of screen shown: the state's, or `prepare` while the preparation guide is
    shown in `setup` (the guide is part of the setup state: its state lines say `setup`)."""
    if game.menu is None and game.question is None and in_guide(game):
        return Phase.PREPARE
    return state_name(game)


def in_guide(game: Game) -> bool:
    """True while the preparation guide is shown over an era's setup."""
    return game.phase is Phase.SETUP and game.guide is not None


def sheet(game: Game) -> scoring.Sheet:
    """The game's score sheet (blank until points are entered)."""
    players = len(game.config.players)
    if game.sheet is None or game.sheet.players != players:
        return scoring.blank(players)
    return game.sheet


def guide_steps(game: Game) -> tuple[prep.PrepStep, ...]:
    """The preparation guide of the era being set up."""
    return prep.steps(game.era, len(game.config.players))


def describe(game: Game, now: float) -> dict[str, Any]:
    """The fields of a `state` event line (see docs/simulate.md)."""
    running = elapsed(game, now)
    return {
        "state": state_name(game).value,
        "era": game.era,
        "mode": game.mode.value,
        "round": game.round if game.phase in (Phase.INTRO_ROUND, Phase.SCHOLARS) else None,
        "start_player": start_player(game),
        "elapsed": None if running is None else round(running, 3),
    }


def screen(game: Game, now: float) -> Screen:
    """The screen model for this moment."""
    cfg = game.config
    running = elapsed(game, now)
    seconds_left = None
    if running is not None:
        seconds_left = max(0, math.ceil(cfg.realtime.length_s - running - EPS))
    countdown = None
    if game.phase is Phase.LEAD_IN and game.lead_in_started is not None:
        countdown = max(1, cfg.realtime.lead_in_s - int(now - game.lead_in_started + EPS))
    player = start_player(game)
    if game.phase is Phase.SCHOLARS:  # the screen names who starts next
        player = cfg.players[(start_player_index(game) + 1) % len(cfg.players)]
    menu: dict[str, Any] = {}
    if game.menu is not None:
        chosen = _current_settings(game)
        names = settings_menu.items(chosen)
        index = min(game.menu.item, len(names) - 1)
        menu = {"menu_item": names[index], "menu_value": settings_menu.value(chosen, names[index]),
                "menu_position": (index + 1, len(names)), "menu_note": game.menu.note}
    return Screen(
        **_guide_fields(game),
        **_score_fields(game),
        kind=screen_kind(game),
        era=game.era,
        mode=game.mode,
        new_game=game.phase is Phase.SETUP and game.era == 1,
        seconds_left=seconds_left,
        length_s=cfg.realtime.length_s,
        # Whole running seconds: the screen only changes on the second, so two moments within
        # the same second give equal screens (and the display skips the second one).
        elapsed=None if running is None else float(math.floor(running + EPS)),
        cue_marks=cfg.realtime.scholar_cues_s,
        countdown=countdown,
        round=game.round if game.phase in (Phase.INTRO_ROUND, Phase.SCHOLARS) else None,
        rounds=cfg.intro.rounds,
        start_player=player,
        scoring_step=_scoring_step(game) if game.phase is Phase.SCORING else None,
        question=game.question,
        prompt=game.prompt,
        volume=round(game.volume * 100) if game.volume_until is not None else None,
        language=cfg.language,
        quiet=game.volume <= QUIET_LEVEL + EPS,
        **menu,
    )


def _scoring_step(game: Game) -> int:
    """The checklist step the scoring is at (the last one once the standings show)."""
    if game.entry is None:
        return game.scoring_step
    at, _ = scoring.where(game.entry, len(game.config.players))
    return SCORING_STEPS - 1 if at is None else at


def _guide_fields(game: Game) -> dict[str, Any]:
    if game.phase is not Phase.SETUP or game.guide is None:
        return {}
    steps = guide_steps(game)
    index = min(game.guide, len(steps) - 1)
    return {"guide_step": steps[index].key, "guide_n": steps[index].n,
            "guide_position": (index + 1, len(steps))}


def _places(game: Game, places: tuple[scoring.Place, ...]
            ) -> tuple[tuple[int, str, int, int | None], ...]:
    players = game.config.players
    return tuple((p.place, players[p.player], p.total, p.buildings) for p in places)


def _score_fields(game: Game) -> dict[str, Any]:
    players = game.config.players
    book = sheet(game)
    if game.phase is Phase.GAME_OVER:
        return {"entry": "ranking", "places": _places(game, scoring.final_ranking(book)),
                "totals": tuple(zip(players, scoring.totals(book), strict=True))}
    if game.phase is not Phase.SCORING or game.entry is None:
        return {}
    entry = game.entry
    stage = scoring.stage(entry, len(players))
    asked = scoring.asked_player(entry, book)
    sums = list(scoring.totals(book))
    if asked is not None and stage is scoring.Stage.POINTS:
        sums[asked] += entry.value  # the running total shows the number being entered
    fields: dict[str, Any] = {
        "entry": stage.value,
        "player": None if asked is None else players[asked],
        "value": entry.value if stage in (scoring.Stage.POINTS, scoring.Stage.BUILDINGS)
        else None,
        "totals": tuple(zip(players, sums, strict=True)),
    }
    if stage is scoring.Stage.STANDINGS:
        fields["places"] = _places(game, scoring.standings(scoring.totals(book)))
    return fields


def next_deadline(game: Game, now: float) -> float | None:
    """When the loop must call `step(game, Tick(), t)` next, or None to wait for input only.

    Includes the next whole second of the displayed clock, so the screen changes exactly on
    the second.
    """
    deadlines = [d for d, _ in _timers(game)]
    if game.phase is Phase.RUNNING and game.anchor is not None:
        left = game.config.realtime.length_s - (now - game.anchor)
        boundary = game.config.realtime.length_s - (math.ceil(left - EPS) - 1)
        deadlines.append(game.anchor + boundary)
    return min(deadlines) if deadlines else None


# --- the step function --------------------------------------------------------------------------


def step(game: Game, event: Event, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Advance to `now` (firing every due cue in order), then apply `event`."""
    before = game
    game, effects = _advance(game, now)
    if isinstance(event, Input):
        advanced = game
        game, more = _on_input(game, event, now)
        record = snapshot(game, now)
        if _press_key(record) != _press_key(snapshot(advanced, now)):
            # A press that changes the game (a round, a phase, a scholar call) is on disk
            # before anyone hears or sees it: a cut before that shows nothing happened, a cut
            # after it comes back with the change made (docs/power-cuts.md).
            rest: tuple[Effect, ...] = tuple(
                e for e in _after(before, game, now) if not isinstance(e, Save))
            first: tuple[Effect, ...] = (Save(record, durable=True),)
            return game, _without_led(game, effects + first + more + rest)
        effects += more
    effects = _without_led(game, effects)
    after = _after(before, game, now)
    saved = [e.snapshot for e in effects if isinstance(e, Save)]
    if saved:  # the step already saved this very record (an armed cue): not twice
        after = tuple(e for e in after if not (isinstance(e, Save) and e.snapshot == saved[-1]))
    return game, effects + after


def _without_led(game: Game, effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    if not game.config.cue_led:  # switched off in the settings
        return tuple(e for e in effects if not isinstance(e, FlashCue))
    return effects


def restore(
    snapshot: dict[str, Any], config: Config, now: float,
    settings: settings_menu.Settings | None = None,
) -> tuple[Game, tuple[Effect, ...]]:
    """The game after a restart, from a saved snapshot (see `snapshot.py` for validation).

    A real-time era comes back paused at its saved running time; an introductory era at the
    same round and start player; either way "Resumed" is shown.

    A snapshot that says a cry or the end gong was ARMED (recorded `ARM_LEAD_S` before its
    time) and not yet done was cut in the window where nobody can know whether the cue
    sounded: the era comes back AT that cue, the cue counted as given, its prompt shown
    (the scholar prompt; for the end gong the scoring screen), and nothing sounded again. So
    a scholar call is never lost and never doubled (docs/power-cuts.md).
    """
    phase = Phase(snapshot["phase"])
    mode = Mode(snapshot["mode"])
    era = int(snapshot["era"])
    base = config
    if settings is not None:
        config = settings_menu.apply(base, settings)
    game = Game(
        config=config,
        base=base,
        settings=settings,
        phase=phase,
        era=era,
        mode=mode,
        volume=float(snapshot["volume"]),
        era_start_player=int(snapshot["era_start_player"]) % len(config.players),
        round=snapshot.get("round"),
        scoring_step=min(max(0, int(snapshot.get("scoring_step", 0))), SCORING_STEPS),
    )
    players = len(config.players)
    saved_scores = snapshot.get("scores")
    book = scoring.blank(players)
    if isinstance(saved_scores, dict):
        try:
            book = scoring.sheet_from_dict(saved_scores, players)
        except ValueError:  # players changed since: the points no longer fit the table
            book = scoring.blank(players)
    game = replace(game, sheet=book)
    guide = snapshot.get("guide")
    if phase is Phase.SETUP and isinstance(guide, int) and not isinstance(guide, bool):
        game = replace(game, guide=max(0, min(guide, len(guide_steps(game)) - 1)))
    if phase is Phase.SCORING:
        # Back on the same player and step; only the number being entered is lost.
        saved = snapshot.get("entry")
        index = saved.get("index", 0) if isinstance(saved, dict) else 0
        tie = saved.get("tie") if isinstance(saved, dict) else None
        index = min(max(0, int(index)), len(scoring.positions(players)))
        entry = scoring.Entry(era=era, index=index, tie=tie if isinstance(tie, int) else None)
        if entry.tie is not None and not (
                era == ERAS and 0 <= entry.tie < len(scoring.tied_for_first(
                    scoring.totals(book)))):
            entry = replace(entry, tie=None)
        game = replace(game, entry=entry)
    effects: list[Effect] = [SetVolume(game.volume)]
    if phase is Phase.LEAD_IN:  # the era had not begun: set it up again
        game = replace(game, phase=Phase.SETUP)
    elif phase is Phase.RUNNING and _armed_cue(snapshot, config) is not None:
        return _restore_at_armed_cue(game, snapshot, now)
    elif phase in (Phase.RUNNING, Phase.PAUSED):
        held = min(max(0.0, float(snapshot["elapsed"])), config.realtime.length_s)
        # `elapsed` is saved rounded to the millisecond, so a cue less than that after it may
        # not have fired yet: only cues clearly before it count as done here; `cues_done`
        # says whether a cue at the saved time itself already fired.
        done = sum(1 for c in timeline(config) if c.at < held - 1e-3 and not c.ends_era)
        done = max(done, min(int(snapshot.get("cues_done", 0)), len(timeline(config)) - 1))
        game = replace(game, phase=Phase.PAUSED, held_elapsed=held, cues_done=done)
    elif phase in (Phase.INTRO_ROUND, Phase.SCHOLARS):
        effects.append(Music(MusicAction.RESUME, era, mode, 0.0))
    game = replace(game, prompt=Prompt.RESUMED, prompt_until=now + RESUMED_PROMPT_S)
    if game.phase not in (Phase.SCORING, Phase.GAME_OVER):  # this era's music is to come
        effects.insert(1, PrepareMusic(era, mode))
    effects.append(ShowPrompt(Prompt.RESUMED))
    effects.append(Show(screen(game, now)))
    return game, tuple(effects)


def _armed_cue(snapshot: dict[str, Any], config: Config) -> int | None:
    """The cue a snapshot armed and had not yet recorded as done, if any."""
    armed, done = snapshot.get("armed"), snapshot.get("cues_done", 0)
    cues = timeline(config)
    if isinstance(armed, int) and armed == done and 0 <= armed < len(cues):
        return armed
    return None


def _restore_at_armed_cue(game: Game, saved: dict[str, Any],
                          now: float) -> tuple[Game, tuple[Effect, ...]]:
    config = game.config
    index = _armed_cue(saved, config)
    assert index is not None
    cue = timeline(config)[index]
    effects: list[Effect] = [SetVolume(game.volume), FlashCue(cue.sound)]
    if cue.ends_era:
        game = replace(_enter_scoring(replace(game, phase=Phase.RUNNING)),
                       prompt=Prompt.RESUMED, prompt_until=now + RESUMED_PROMPT_S)
        effects.append(ShowPrompt(Prompt.RESUMED))
    else:
        # Paused: the prompt keeps its `scholar_prompt_s` of running time for the resume.
        game = replace(game, phase=Phase.PAUSED, held_elapsed=cue.at, cues_done=index + 1,
                       prompt=Prompt.SCHOLARS, prompt_until=None,
                       prompt_left=config.realtime.scholar_prompt_s)
        effects.insert(1, PrepareMusic(game.era, game.mode))  # this era's music is to come
        effects.append(ShowPrompt(Prompt.SCHOLARS))
    effects.append(Show(screen(game, now)))
    # Record at once that the cue was given, so a second cut cannot give it again.
    effects.append(Save(snapshot(game, now)))
    return game, _without_led(game, tuple(effects))


def snapshot(game: Game, now: float) -> dict[str, Any]:
    """A clock-free record of the game, enough for `restore` after a power cut."""
    running = elapsed(game, now)
    return {
        "schema": SCHEMA_VERSION,
        "phase": game.phase.value,
        "era": game.era,
        "mode": game.mode.value,
        "round": game.round,
        "era_start_player": game.era_start_player,
        "start_player": start_player(game),  # for people reading the file
        "elapsed": None if running is None else round(running, 3),
        "cues_done": game.cues_done,
        "armed": game.armed if game.armed == game.cues_done else None,
        "scoring_step": _scoring_step(game),
        "volume": game.volume,
        "guide": game.guide if game.phase is Phase.SETUP else None,
        "scores": scoring.sheet_to_dict(sheet(game)),
        # where the entry is (the number being entered is not kept: a power cut loses it)
        "entry": None if game.entry is None or game.phase is not Phase.SCORING
        else {"index": game.entry.index, "tie": game.entry.tie},
    }


# --- timers -----------------------------------------------------------------------------------


def _timers(game: Game) -> list[tuple[float, str]]:
    """Every pending deadline that changes the game, with what it is."""
    timers: list[tuple[float, str]] = []
    cfg = game.config
    if game.phase is Phase.LEAD_IN and game.lead_in_started is not None:
        timers.append((game.lead_in_started + game.lead_in_ticks, "lead_in"))
    if game.phase is Phase.RUNNING and game.anchor is not None:
        cues = timeline(cfg)
        if game.cues_done < len(cues):
            cue = cues[game.cues_done]
            timers.append((game.anchor + cue.at, "cue"))
            if cue.sound is not Sound.TICK and game.armed != game.cues_done:
                timers.append((game.anchor + cue.at - ARM_LEAD_S, "arm"))
        if game.save_due is not None:
            timers.append((game.save_due, "save"))
    for until, name in ((game.question_until, "question"), (game.prompt_until, "prompt"),
                        (game.volume_until, "volume")):
        if until is not None:
            timers.append((until, name))
    return timers


def _advance(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Fire every timer due at `now`, earliest first."""
    effects: tuple[Effect, ...] = ()
    for _ in range(10_000):  # a bound, not a poll: each pass retires one timer
        due = [(d, name) for d, name in _timers(game) if d <= now + EPS]
        if not due:
            return game, effects
        _, name = min(due)
        game, more = _fire(game, name, now)
        effects += more
    raise RuntimeError("timers did not settle")  # unreachable: every _fire retires its timer


def _fire(game: Game, name: str, now: float) -> tuple[Game, tuple[Effect, ...]]:
    cfg = game.config
    if name == "lead_in":
        if game.lead_in_ticks < cfg.realtime.lead_in_s:
            return replace(game, lead_in_ticks=game.lead_in_ticks + 1), (
                PlaySound(Sound.TICK, game.era),)
        assert game.lead_in_started is not None
        return _begin_running(game, game.lead_in_started + cfg.realtime.lead_in_s)
    if name == "cue":
        return _fire_cue(game, now)
    if name == "arm":
        # On disk before the cue sounds (the loop waits for this write): a cut from here on
        # comes back at the cue instead of sounding it a second time.
        game = replace(game, armed=game.cues_done)
        return game, (Save(snapshot(game, now), durable=True),)
    if name == "save":
        # From the due time, not from `now`: saves stay on the clock's second boundaries (one
        # wake-up serves both) instead of drifting by the loop's lateness.
        due = (game.save_due or now) + SAVE_EVERY_S
        if due <= now:  # the loop was held up for longer than a save period
            due = now + SAVE_EVERY_S
        return replace(game, save_due=due), (Save(snapshot(game, now)),)
    if name == "question":
        return replace(game, question=None, question_until=None), ()
    if name == "prompt":
        return replace(game, prompt=None, prompt_until=None), ()
    return replace(game, volume_until=None), ()  # "volume"


def _fire_cue(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    cue = timeline(game.config)[game.cues_done]
    game = replace(game, cues_done=game.cues_done + 1, armed=None)
    effects: tuple[Effect, ...] = (PlaySound(cue.sound, game.era),)
    if cue.sound is Sound.TICK:
        return game, effects
    # A gong or a cry is a cue the table must act on: it closes any open question.
    game = replace(game, question=None, question_until=None)
    effects += (FlashCue(cue.sound),)
    if cue.ends_era:
        assert game.anchor is not None
        game = _enter_scoring(game)
        effects += (Music(MusicAction.STOP, game.era, Mode.REALTIME, cue.at),)
        return game, effects
    until = now + game.config.realtime.scholar_prompt_s
    return replace(game, prompt=Prompt.SCHOLARS, prompt_until=until), effects + (
        ShowPrompt(Prompt.SCHOLARS),)


def _begin_running(game: Game, at: float) -> tuple[Game, tuple[Effect, ...]]:
    """The start gong: running time zero is `at` (the scheduled time, not when we woke)."""
    game = replace(game, phase=Phase.RUNNING, anchor=at, held_elapsed=None, lead_in_started=None,
                   lead_in_ticks=0, cues_done=0, armed=None, save_due=at + SAVE_EVERY_S,
                   question=None, question_until=None)
    return _arm_if_due(game, at), (PlaySound(Sound.GONG, game.era), FlashCue(Sound.GONG),
                                   Music(MusicAction.START, game.era, Mode.REALTIME, 0.0))


def _arm_if_due(game: Game, now: float) -> Game:
    """Arm the next cry or end gong at once when it is due within `ARM_LEAD_S` (the era
    started or resumed just before it): the save that records this step carries it."""
    cues = timeline(game.config)
    if game.anchor is None or game.cues_done >= len(cues):
        return game
    cue = cues[game.cues_done]
    if cue.sound is not Sound.TICK and game.anchor + cue.at - ARM_LEAD_S <= now + EPS:
        return replace(game, armed=game.cues_done)
    return game


def _enter_scoring(game: Game) -> Game:
    """The era is over. The start player who ends an introductory era starts the next one."""
    return replace(game, phase=Phase.SCORING, era_start_player=start_player_index(game),
                   anchor=None, held_elapsed=None, cues_done=0, armed=None, round=None,
                   scoring_step=0, prompt=None, prompt_until=None, prompt_left=None,
                   save_due=None, entry=scoring.Entry(era=game.era), sheet=sheet(game))


# --- inputs -----------------------------------------------------------------------------------


def _on_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    button, gesture = event.button, event.gesture
    if button in (Button.VOL_UP, Button.VOL_DOWN):
        step_by = VOLUME_STEP if button is Button.VOL_UP else -VOLUME_STEP
        level = round(min(1.0, max(0.0, game.volume + step_by)), 2)
        return replace(game, volume=level, volume_until=now + VOLUME_SHOWN_S), (
            SetVolume(level),)
    if game.menu is not None:
        return _menu_input(game, event, now)
    if button is Button.BOTH:
        if gesture is Gesture.HOLD:
            return _ask(game, Question.NEW_GAME, now), ()
        return game, ()
    if game.question is not None:
        return _answer(game, event, now)
    if game.phase is Phase.SETUP and game.guide is not None:
        return _guide_input(game, event, now)
    if game.phase is Phase.SCORING:
        return _scoring_input(game, event, now)
    handler = _TABLE.get((game.phase, button, gesture))
    if handler is None:  # "-" in docs/behaviour.md's table: nothing happens
        return game, ()
    return handler(game, now)


def _answer(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    closed = replace(game, question=None, question_until=None)
    if (event.button, event.gesture) == (Button.NEXT, Gesture.PRESS):
        return closed, ()
    if (event.button, event.gesture) != (Button.ERA, Gesture.PRESS):
        return game, ()
    stop = _stop_music(game, now)
    fresh = new_game(base_config(game), volume=game.volume, settings=game.settings)
    if game.question is Question.NEW_GAME:
        return fresh, stop
    # Restart this era: back to its setup, with the start player it began with.
    return replace(fresh, era=game.era, era_start_player=game.era_start_player,
                   mode=era_mode(fresh.config, game.era), sheet=sheet(game)), stop


def _stop_music(game: Game, now: float) -> tuple[Effect, ...]:
    if game.phase in (Phase.RUNNING, Phase.PAUSED, Phase.INTRO_ROUND, Phase.SCHOLARS):
        return (Music(MusicAction.STOP, game.era, game.mode, elapsed(game, now) or 0.0),)
    return ()


def _ask(game: Game, question: Question, now: float) -> Game:
    return replace(game, question=question, question_until=now + QUESTION_TIMEOUT_S)


def _toggle_mode(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    mode = Mode.INTRO if game.mode is Mode.REALTIME else Mode.REALTIME
    return replace(game, mode=mode), ()


def _start_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    game = replace(game, guide=None)
    if game.mode is Mode.INTRO:
        game = replace(game, phase=Phase.INTRO_ROUND, round=1)
        return game, (PlaySound(Sound.GONG, game.era), FlashCue(Sound.GONG),
                      Music(MusicAction.START, game.era, Mode.INTRO, 0.0))
    if game.config.realtime.lead_in_s == 0:
        return _begin_running(game, now)
    game = replace(game, phase=Phase.LEAD_IN, lead_in_started=now, lead_in_ticks=1)
    return game, (PlaySound(Sound.TICK, game.era),)


def _cancel_lead_in(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return replace(game, phase=Phase.SETUP, lead_in_started=None, lead_in_ticks=0), ()


def _pause_hint(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    if game.prompt is Prompt.SCHOLARS:  # the scholar call matters more than a hint
        return game, ()
    # Screen only: the event stream's prompts are the table's (scholars, resumed).
    return replace(game, prompt=Prompt.PAUSE_HINT, prompt_until=now + PAUSE_HINT_S), ()


def _pause(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    held = elapsed(game, now) or 0.0
    # Disarmed: a paused era's next cue is not about to sound (resuming arms it again).
    game = replace(game, phase=Phase.PAUSED, anchor=None, held_elapsed=held, save_due=None,
                   armed=None)
    if game.prompt is Prompt.SCHOLARS and game.prompt_until is not None:
        # The prompt lasts `scholar_prompt_s` of RUNNING time: it stays up, its clock held.
        game = replace(game, prompt_left=max(0.0, game.prompt_until - now), prompt_until=None)
    return game, (Music(MusicAction.PAUSE, game.era, Mode.REALTIME, held),)


def _resume(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    held = game.held_elapsed or 0.0
    game = replace(game, phase=Phase.RUNNING, anchor=now - held, held_elapsed=None,
                   save_due=now + SAVE_EVERY_S)
    if game.prompt is Prompt.RESUMED:
        game = replace(game, prompt=None, prompt_until=None)
    if game.prompt is Prompt.SCHOLARS and game.prompt_left is not None:
        game = replace(game, prompt_until=now + game.prompt_left, prompt_left=None)
    return _arm_if_due(game, now), (Music(MusicAction.RESUME, game.era, Mode.REALTIME, held),)


def _ask_restart_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return _ask(game, Question.RESTART_ERA, now), ()


def _next_round(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    intro = game.config.intro
    r = game.round or 1
    if r >= intro.rounds:
        game = _enter_scoring(game)
        return game, (PlaySound(Sound.GONG, game.era), FlashCue(Sound.GONG),
                      Music(MusicAction.STOP, game.era, Mode.INTRO, 0.0))
    if r in intro.scholar_after_rounds:
        return replace(game, phase=Phase.SCHOLARS), (PlaySound(Sound.CRY, game.era),
                                                     FlashCue(Sound.CRY))
    return replace(game, round=r + 1), ()


def _scholars_done(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Everyone appointed; the box went left: the next round, with the new start player."""
    return replace(game, phase=Phase.INTRO_ROUND, round=(game.round or 1) + 1), ()


def _undone(game: Game, now: float) -> Game:
    """Say what an undo did ("back to round 6") for a moment (screen only, like the hint)."""
    return replace(game, prompt=Prompt.UNDONE, prompt_until=now + UNDONE_SHOWN_S)


def _undo_round(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    r = game.round or 1
    if r <= 1:
        return game, ()
    if r - 1 in game.config.intro.scholar_after_rounds:
        return _undone(replace(game, phase=Phase.SCHOLARS, round=r - 1), now), ()
    return _undone(replace(game, round=r - 1), now), ()


def _undo_scholars(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return _undone(replace(game, phase=Phase.INTRO_ROUND), now), ()


def _next_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    if game.era >= ERAS:
        game = replace(game, phase=Phase.GAME_OVER, scoring_step=0, entry=None)
        ranking = _places(game, scoring.final_ranking(sheet(game)))
        return game, (Standings(game.era, True, ranking),)
    return replace(game, phase=Phase.SETUP, era=game.era + 1,
                   mode=era_mode(game.config, game.era + 1), scoring_step=0, entry=None,
                   guide=0 if game.config.guide else None), ()


# --- the preparation guide (prep.py) and the entry of points (scores.py) --------------------


def _guide_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """NEXT: the next step (after the last, the setup screen); hold NEXT: straight to the
    setup screen (to change the mode); ERA: start the era at once, as without the guide."""
    assert game.guide is not None
    key = (event.button, event.gesture)
    if key == (Button.NEXT, Gesture.PRESS):
        following = game.guide + 1
        return replace(game, guide=following if following < len(guide_steps(game)) else None), ()
    if key == (Button.NEXT, Gesture.HOLD):
        return replace(game, guide=None), ()
    if key == (Button.ERA, Gesture.PRESS):
        return _start_era(game, now)
    if key == (Button.ERA, Gesture.HOLD):
        return _open_menu(game, now)
    return game, ()


def _scoring_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """A gesture while an era is scored: see scores.py for the buttons."""
    players = game.config.players
    old = game.entry or scoring.Entry(era=game.era)
    asked = scoring.asked_player(old, sheet(game))
    step_at, _ = scoring.where(old, len(players))
    entry, book, outcome = scoring.entry_step(old, sheet(game), event)
    game = replace(game, entry=entry, sheet=book)
    effects: list[Effect] = []
    last_tied = (outcome is scoring.Outcome.GAME_OVER
                 and scoring.stage(old, len(players)) is scoring.Stage.BUILDINGS)
    if outcome in (scoring.Outcome.NEXT_ERA, scoring.Outcome.GAME_OVER) and not last_tied:
        return _next_era(game, now)
    if (outcome is scoring.Outcome.CONFIRMED or last_tied) and asked is not None:
        if step_at is None:  # the tie-break: buildings on the central board
            value = book.buildings[asked] or 0
        else:
            value = book.points[game.era - 1][step_at][asked]
        effects.append(Scored(game.era, None if step_at is None else step_at + 1,
                              players[asked], value, scoring.totals(book)[asked]))
    standings = scoring.Stage.STANDINGS
    if (scoring.stage(entry, len(players)) is standings
            and scoring.stage(old, len(players)) is not standings):
        effects.append(Standings(game.era, False,
                                 _places(game, scoring.standings(scoring.totals(book)))))
    if last_tied:  # the last tied player's buildings, then the final ranking
        game, more = _next_era(game, now)
        effects.extend(more)
    return game, tuple(effects)


def _fresh_game(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return new_game(base_config(game), volume=game.volume, settings=game.settings), ()


# --- the settings menu (see settings.py) ----------------------------------------------------------


def _current_settings(game: Game) -> settings_menu.Settings:
    if game.settings is not None:
        return game.settings
    return settings_menu.defaults(base_config(game))


def _open_menu(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Hold ERA on the "New game" setup: only before Era I, so no game changes under way."""
    if game.era != 1:
        return game, ()
    return replace(game, menu=settings_menu.Menu()), ()


def _menu_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    assert game.menu is not None
    if event.button in (Button.VOL_UP, Button.VOL_DOWN, Button.BOTH):
        return game, ()  # the menu has its own volume item
    base = base_config(game)
    before = _current_settings(game)
    menu, chosen = settings_menu.menu_step(game.menu, before, settings_menu.palette(base),
                                           settings_menu.defaults(base), event)
    game = replace(game, menu=menu)
    if chosen == before:
        return game, ()
    # Applies at once: the new game is set up again with what was chosen.
    config = settings_menu.apply(base, chosen)
    game = replace(game, config=config, settings=chosen, mode=era_mode(config, 1),
                   era_start_player=0, sheet=scoring.blank(len(config.players)))
    if not config.guide:
        game = replace(game, guide=None)
    elif chosen.guide != before.guide:  # switched on: the guide opens at its first step
        game = replace(game, guide=0)
    elif game.guide is not None:
        game = replace(game, guide=min(game.guide, len(guide_steps(game)) - 1))
    effects: list[Effect] = []
    if chosen.volume != before.volume:
        game = replace(game, volume=chosen.volume)
        effects.append(SetVolume(chosen.volume))
    if chosen.music_level != before.music_level:
        effects.append(SetVolume(game.volume, music=chosen.music_level))
    effects.append(SaveSettings(settings_menu.to_dict(chosen)))
    return game, tuple(effects)


_Handler = Callable[[Game, float], tuple[Game, tuple[Effect, ...]]]
P, H = Gesture.PRESS, Gesture.HOLD
N, E = Button.NEXT, Button.ERA

# The table of docs/behaviour.md. A missing entry is a "-": nothing happens.
_TABLE: dict[tuple[Phase, Button, Gesture], _Handler] = {
    (Phase.SETUP, N, P): _toggle_mode,
    (Phase.SETUP, E, P): _start_era,
    (Phase.SETUP, E, H): _open_menu,
    (Phase.LEAD_IN, E, H): _cancel_lead_in,
    (Phase.RUNNING, N, P): _pause_hint,
    (Phase.RUNNING, N, H): _pause,
    (Phase.RUNNING, E, H): _ask_restart_era,
    (Phase.PAUSED, N, P): _resume,
    (Phase.PAUSED, N, H): _resume,
    (Phase.PAUSED, E, H): _ask_restart_era,
    (Phase.INTRO_ROUND, N, P): _next_round,
    (Phase.INTRO_ROUND, N, H): _undo_round,
    (Phase.INTRO_ROUND, E, H): _ask_restart_era,
    (Phase.SCHOLARS, N, P): _scholars_done,
    (Phase.SCHOLARS, N, H): _undo_scholars,
    (Phase.GAME_OVER, E, H): _fresh_game,
}


# --- after every step -----------------------------------------------------------------------


def _save_key(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "elapsed"}


def _press_key(record: dict[str, Any]) -> dict[str, Any]:
    """What a press must have on disk before its effects: all but the clock and the volume
    (a lost volume step changes nothing at the table)."""
    return {k: v for k, v in record.items() if k not in ("elapsed", "volume")}


def _after(before: Game, game: Game, now: float) -> tuple[Effect, ...]:
    """Save whenever anything worth keeping changed; always hand out the current screen
    (adapters skip unchanged screens)."""
    effects: list[Effect] = []
    if game.phase is Phase.SETUP and (before.phase is not Phase.SETUP or before.era != game.era
                                      or before.mode != game.mode):
        # an era's setup screen opened (or its mode changed): its start gong may come at any
        # moment, so the audio side gets that music ready now
        effects.append(PrepareMusic(game.era, game.mode))
    record = snapshot(game, now)
    if _save_key(record) != _save_key(snapshot(before, now)):
        effects.append(Save(record))
    effects.append(Show(screen(game, now)))
    return tuple(effects)
