"""The game as a pure state machine: `step(game, event, now) -> (game, effects)`.

The box has one job: run three eras of Time of Empires on time. Each era opens in `setup`,
where NEXT toggles its mode and ERA starts it:

    setup --ERA--> lead_in --(lead_in_s)--> running --(length_s)--> scoring --ERA--> setup ...
                   (real-time)              <--NEXT hold--> paused
    setup --ERA--> intro_round 1 --NEXT--> ... --> scholars --NEXT--> ... --> scoring
                   (introductory)            (after rounds 5 and 10)  (after round 15)
    scoring of Era III --ERA--> game_over

An era's setup opens on the preparation guide (prep.py; a setting turns it off): NEXT walks
its steps, ERA starts the era at once. Scoring is where victory points are entered (points.py):
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

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from . import points as scoring
from . import prep
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
from .rules import DESTRUCTION_VP, ERAS, SCORING_STEPS

SCHEMA_VERSION = 1
QUESTION_TIMEOUT_S = 10.0  # an unanswered question closes itself
SAVE_EVERY_S = 5.0  # while running, at least this often
ARM_LEAD_S = 0.5  # a cry or the end gong is recorded on disk this long before it sounds
SAVED_TIME_SLACK_S = 2e-3  # `elapsed` is saved rounded to the millisecond
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
    sounded: int | None = None  # the cry handed to the mixer whose prompt the table is owed
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
    return (SetVolume(game.volume), PrepareMusic(game.era, game.mode), Show(screen(game, now)))


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
    """The preparation guide of the era being set up (before Era I: the game's setup first),
    for its mode."""
    return prep.steps(game.era, len(game.config.players), game.mode, first=True)


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
        **_score_fields(game, now),
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
        scoring_step=_scoring_step(game) if game.phase is Phase.SCORING
        and game.entry is not None else None,
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
    return SCORING_STEPS - 1 if at is None or at >= SCORING_STEPS else at


def _guide_fields(game: Game) -> dict[str, Any]:
    if game.phase is not Phase.SETUP or game.guide is None:
        return {}
    steps = guide_steps(game)
    index = min(game.guide, len(steps) - 1)
    return {"guide_step": steps[index].key, "guide_n": steps[index].n,
            "guide_position": prep.position(steps, index),
            "guide_part": steps[index].part.value}


def _places(game: Game, places: tuple[scoring.Place, ...]
            ) -> tuple[tuple[int, str, int, int | None], ...]:
    players = game.config.players
    return tuple((p.place, players[p.player], p.total, p.buildings) for p in places)


def _score_fields(game: Game, now: float) -> dict[str, Any]:
    players = game.config.players
    book = sheet(game)
    if game.phase is Phase.GAME_OVER:
        if not game.config.keep_score:  # kept on paper: no ranking to show
            return {}
        return {"entry": "ranking", "places": _places(game, scoring.final_ranking(book)),
                "totals": tuple(zip(players, scoring.totals(book), strict=True))}
    if game.phase is not Phase.SCORING or game.entry is None:
        return {}
    entry = game.entry
    stage = scoring.stage(entry, len(players))
    asked = scoring.asked_player(entry, book)
    sums = list(scoring.totals(book))
    value = scoring.shown_value(entry, now)
    buildings = scoring.in_buildings(entry, len(players))
    if asked is not None and stage is scoring.Stage.POINTS:
        # the running total shows the number being entered
        sums[asked] += value * (DESTRUCTION_VP if buildings else 1)
    fields: dict[str, Any] = {
        "entry": stage.value,
        "player": None if asked is None else players[asked],
        "value": value if stage in (scoring.Stage.POINTS, scoring.Stage.BUILDINGS) else None,
        "totals": tuple(zip(players, sums, strict=True)),
        "ramp": scoring.ramp(entry, now),
        "era_total": not entry.by_step,
        "value_vp": value * DESTRUCTION_VP if buildings else None,
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
    if game.entry is not None and game.entry.hold_since is not None:
        deadlines.append(_next_ramp_step(game.entry.hold_since, now))
    return min(deadlines) if deadlines else None


def _next_ramp_step(hold_since: float, now: float) -> float:
    """When the ramp of the NEXT hold begun at `hold_since` shows its next amount (the screen
    changes then; after `RAMP_MAX` it shows no more, and the moment is the next whole step)."""
    steps = math.floor((now - hold_since) / scoring.RAMP_S + EPS) + 1
    return hold_since + steps * scoring.RAMP_S


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
    same round and start player; either way "Resumed" is shown. Around a cry or the end gong
    (docs/power-cuts.md, the table of windows):

    - "armed" (the cue was due within `ARM_LEAD_S` and had not been handed to the mixer): the
      era comes back paused AT the cue, which sounds the moment the table resumes;
    - "sounded" (saved durably just before the cry was handed to the mixer): the cry is not
      sounded again; the scholar prompt it owes the table is shown, silently, and saved again,
      so any number of further cuts show it again until the table resumes. For the end gong
      the "sounded" record is the era's scoring, which comes back as it is.

    A snapshot of Era I's setup saved under other settings than `settings` (a cut between the
    two files' writes) comes back as that setup freshly made with `settings`: either the whole
    change or none of it, never half.
    """
    if _settings_changed_under(snapshot, settings):
        game = new_game(config, settings=settings)
        return game, opening(game, now)
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
        # Back on the same player and step, with the number being entered.
        saved = snapshot.get("entry")
        saved = saved if isinstance(saved, dict) else {}
        by_step = saved.get("by_step", True)  # files from before era totals: per step
        by_step = by_step if isinstance(by_step, bool) else True
        index = min(max(0, int(saved.get("index", 0))),
                    len(scoring.positions(players, by_step)))
        tie = saved.get("tie")
        value = saved.get("value", 0)
        value = min(max(0, value), scoring.MAX_POINTS) if _int(value) else 0
        entry = scoring.Entry(era=era, index=index, tie=tie if isinstance(tie, int) else None,
                              value=value, by_step=by_step)
        if entry.tie is not None and not (
                era == ERAS and 0 <= entry.tie < len(scoring.tied_for_first(
                    scoring.totals(book)))):
            entry = replace(entry, tie=None)
        game = replace(game, entry=entry if config.keep_score else None)
    effects: list[Effect] = [SetVolume(game.volume)]
    prompt = Prompt.RESUMED
    if phase is Phase.LEAD_IN:  # the era had not begun: set it up again
        game = replace(game, phase=Phase.SETUP)
    elif phase in (Phase.RUNNING, Phase.PAUSED):
        game, prompt = _restore_realtime(game, snapshot, now)
    elif phase in (Phase.INTRO_ROUND, Phase.SCHOLARS):
        effects.append(Music(MusicAction.RESUME, era, mode, 0.0))
    if prompt is Prompt.RESUMED:
        game = replace(game, prompt=Prompt.RESUMED, prompt_until=now + RESUMED_PROMPT_S)
    if game.phase not in (Phase.SCORING, Phase.GAME_OVER):  # this era's music is to come
        effects.insert(1, PrepareMusic(era, mode))
    effects.append(ShowPrompt(prompt))
    effects.append(Show(screen(game, now)))
    if game.phase is Phase.PAUSED:
        # What the table is owed (a cue to sound on resume, a prompt to show) is on disk as
        # this restart shows it, however many cuts follow.
        effects.append(Save(_record(game, now)))
    return game, _without_led(game, tuple(effects))


def _restore_realtime(game: Game, saved: dict[str, Any], now: float) -> tuple[Game, Prompt]:
    """A running or paused era comes back paused: at its armed cue, with its owed scholar
    prompt, or at its saved running time (the loader checked these against the cue list)."""
    config = game.config
    cues = timeline(config)
    done = min(int(saved.get("cues_done", 0)), len(cues) - 1)
    held = min(max(0.0, float(saved["elapsed"])), config.realtime.length_s)
    armed = _armed_cue(saved, config)
    if armed is not None:  # not handed to the mixer: back at the cue, sounded on resume
        held = cues[armed].at
    game = replace(game, phase=Phase.PAUSED, held_elapsed=held, cues_done=done)
    sounded = saved.get("sounded")
    if _int(sounded) and sounded == done - 1 and _is_call(cues[sounded]):
        # Handed to the mixer (or about to be): never sounded again; its prompt is owed,
        # with its whole `scholar_prompt_s` of running time for the resume.
        return replace(game, sounded=sounded, prompt=Prompt.SCHOLARS, prompt_until=None,
                       prompt_left=config.realtime.scholar_prompt_s), Prompt.SCHOLARS
    return game, Prompt.RESUMED


def _armed_cue(snapshot: dict[str, Any], config: Config) -> int | None:
    """The cue a running snapshot armed and had not yet handed to the mixer, if any."""
    armed, done = snapshot.get("armed"), snapshot.get("cues_done", 0)
    cues = timeline(config)
    if (snapshot.get("phase") == Phase.RUNNING.value and _int(armed) and armed == done
            and 0 <= armed < len(cues)):
        return int(armed)
    return None


def _is_call(cue: Cue) -> bool:
    """A cue the table acts on and that has its own records: a cry or the end gong."""
    return cue.sound is not Sound.TICK


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def settings_digest(settings: settings_menu.Settings | None) -> str | None:
    """A short fingerprint of the settings a snapshot was made under (None: the config's)."""
    if settings is None:
        return None
    text = json.dumps(settings_menu.to_dict(settings), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _settings_changed_under(snapshot: dict[str, Any],
                            settings: settings_menu.Settings | None) -> bool:
    """True for Era I's setup saved under settings other than those on disk now: the settings
    change was cut between its two writes (older snapshots have no fingerprint: no check)."""
    return ("settings" in snapshot and snapshot["settings"] != settings_digest(settings)
            and snapshot.get("phase") == Phase.SETUP.value and snapshot.get("era") == 1)


def cue_problem(snapshot: dict[str, Any], config: Config) -> str | None:
    """What makes a well-typed snapshot inconsistent with the era's cue list, or None.

    A real-time era's record must fit its timeline: every cue clearly before `elapsed` done,
    none clearly after it; "armed" only on the next cue, a call due within `ARM_LEAD_S`, while
    running; "sounded" only on the cry just done. Outside a running era neither is set.
    """
    armed, sounded = snapshot.get("armed"), snapshot.get("sounded")
    phase = snapshot.get("phase")
    if phase not in (Phase.RUNNING.value, Phase.PAUSED.value):
        if armed is not None or sounded is not None:
            return f"a cue is armed or sounded in {phase}, outside a running era"
        return None
    cues = timeline(config)
    done = snapshot.get("cues_done", 0)
    at = min(float(snapshot["elapsed"]), config.realtime.length_s)
    slack = SAVED_TIME_SLACK_S
    if not _int(done) or done > len(cues) - 1:
        return f"{done} cues done in an era of {len(cues)} (the last one ends it)"
    before = sum(1 for c in cues if c.at < at - slack)
    upto = sum(1 for c in cues if c.at <= at + slack)
    if not before <= done <= upto:
        return (f"{done} cues done at {at:g} s running time, the era's cue list says "
                f"{before}" + ("" if before == upto else f" to {upto}"))
    if armed is not None and not (phase == Phase.RUNNING.value and armed == done
                                  and _is_call(cues[done])
                                  and cues[done].at - at <= ARM_LEAD_S + slack):
        return f"cue {armed} is armed at {at:g} s, it is not the next call due"
    if sounded is not None and not (_int(sounded) and sounded == done - 1
                                    and _is_call(cues[sounded])
                                    and not cues[sounded].ends_era):
        return f"cue {sounded} is recorded sounded, it is not the cry just done"
    return None


def snapshot(game: Game, now: float) -> dict[str, Any]:
    """A clock-free record of the game, enough for `restore` after a power cut."""
    running = elapsed(game, now)
    cues = timeline(game.config)
    if running is not None and game.phase is Phase.RUNNING and game.cues_done < len(cues):
        # A step woken late saves before firing what fell due: the era cannot be past a cue
        # it has not given yet.
        running = min(running, cues[game.cues_done].at)
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
        "sounded": game.sounded,
        "scoring_step": _scoring_step(game),
        "volume": game.volume,
        "guide": game.guide if game.phase is Phase.SETUP else None,
        "scores": scoring.sheet_to_dict(sheet(game)),
        # where the entry is, and the number being entered (a hold's ramp is not kept)
        "entry": None if game.entry is None or game.phase is not Phase.SCORING
        else {"index": game.entry.index, "tie": game.entry.tie, "value": game.entry.value,
              "by_step": game.entry.by_step},
        "settings": settings_digest(game.settings),
    }


def _record(game: Game, now: float) -> dict[str, Any]:
    """`snapshot`, for `restore`, whose parameter of that name hides the function."""
    return snapshot(game, now)


def snapshot_at_stop(game: Game, now: float) -> dict[str, Any]:
    """The record a clean stop saves: as `snapshot`, but no cue armed. The box knows the cue
    has not sounded, so the restart comes back at the saved running time and the cue sounds
    at its own time after the table resumes."""
    return snapshot(replace(game, armed=None), now)


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
    if name == "prompt":  # a scholar prompt shown for its whole time is no longer owed
        return replace(game, prompt=None, prompt_until=None, sounded=None), ()
    return replace(game, volume_until=None), ()  # "volume"


def _fire_cue(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    index = game.cues_done
    cue = timeline(game.config)[index]
    game = replace(game, cues_done=index + 1, armed=None)
    sound: tuple[Effect, ...] = (PlaySound(cue.sound, game.era),)
    if cue.sound is Sound.TICK:
        return game, sound
    # A gong or a cry is a cue the table must act on: it closes any open question.
    game = replace(game, question=None, question_until=None)
    if cue.ends_era:
        assert game.anchor is not None
        game = _enter_scoring(game)
        after: tuple[Effect, ...] = (FlashCue(cue.sound),
                                     Music(MusicAction.STOP, game.era, Mode.REALTIME, cue.at))
    else:
        until = now + game.config.realtime.scholar_prompt_s
        game = replace(game, prompt=Prompt.SCHOLARS, prompt_until=until, prompt_left=None,
                       sounded=index)
        after = (FlashCue(cue.sound), ShowPrompt(Prompt.SCHOLARS))
    # The "sounded" record (the era's scoring, for the end gong) is on disk before the sound is
    # handed to the mixer: a cut from here on comes back silent, showing the call instead of
    # sounding it a second time (docs/power-cuts.md).
    return game, (Save(snapshot(game, now), durable=True), *sound, *after)


def _begin_running(game: Game, at: float) -> tuple[Game, tuple[Effect, ...]]:
    """The start gong: running time zero is `at` (the scheduled time, not when we woke)."""
    game = replace(game, phase=Phase.RUNNING, anchor=at, held_elapsed=None, lead_in_started=None,
                   lead_in_ticks=0, cues_done=0, armed=None, sounded=None,
                   save_due=at + SAVE_EVERY_S,
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
                   anchor=None, held_elapsed=None, cues_done=0, armed=None, sounded=None,
                   round=None,
                   scoring_step=0, prompt=None, prompt_until=None, prompt_left=None,
                   save_due=None, entry=_new_entry(game), sheet=sheet(game))


def _new_entry(game: Game) -> scoring.Entry | None:
    """The entry of an era's points, or None when the table keeps score on paper."""
    if not game.config.keep_score:
        return None
    return scoring.Entry(era=game.era, by_step=game.config.points_entry == "steps")


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
        if game.phase is Phase.SCORING and game.question is None:  # a short chord: -1
            return _scoring_input(game, event, now)
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
    if game.prompt is Prompt.PAUSE_HINT:  # "hold NEXT to pause" is done: it paused
        game = replace(game, prompt=None, prompt_until=None)
    if game.prompt is Prompt.SCHOLARS and game.prompt_until is not None:
        # The prompt lasts `scholar_prompt_s` of RUNNING time: it stays up, its clock held.
        game = replace(game, prompt_left=max(0.0, game.prompt_until - now), prompt_until=None)
    return game, (Music(MusicAction.PAUSE, game.era, Mode.REALTIME, held),)


def _resume(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    held = game.held_elapsed or 0.0
    # The table is back at it: an owed scholar prompt (see restore) has been seen.
    game = replace(game, phase=Phase.RUNNING, anchor=now - held, held_elapsed=None,
                   save_due=now + SAVE_EVERY_S, sounded=None)
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
        if not game.config.keep_score:  # kept on paper: the box has no ranking to give
            return game, ()
        ranking = _places(game, scoring.final_ranking(sheet(game)))
        return game, (Standings(game.era, True, ranking),)
    return replace(game, phase=Phase.SETUP, era=game.era + 1,
                   mode=era_mode(game.config, game.era + 1), scoring_step=0, entry=None,
                   guide=0 if game.config.guide else None), ()


# --- the preparation guide (prep.py) and the entry of points (points.py) --------------------


def _guide_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """NEXT: the next step (after the last, the setup screen); hold NEXT: skip the guide,
    straight to the setup screen (to change the mode); ERA: start the era at once, as without
    the guide."""
    assert game.guide is not None
    key = (event.button, event.gesture)
    steps = guide_steps(game)
    if key == (Button.NEXT, Gesture.PRESS):
        following = game.guide + 1
        return replace(game, guide=following if following < len(steps) else None), ()
    if key == (Button.NEXT, Gesture.HOLD):
        return replace(game, guide=None), ()
    if key == (Button.ERA, Gesture.PRESS):
        return _start_era(game, now)
    if key == (Button.ERA, Gesture.HOLD):
        return _open_menu(game, now)
    return game, ()


def _scoring_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """A gesture while an era is scored: see points.py for the buttons. Score kept on paper:
    ERA goes on to the next era (after Era III: the end of the game)."""
    players = game.config.players
    if game.entry is None:
        if (event.button, event.gesture) == (Button.ERA, Gesture.PRESS):
            return _next_era(game, now)
        return game, ()
    old = game.entry
    asked = scoring.asked_player(old, sheet(game))
    step_at, _ = scoring.where(old, len(players))
    entry, book, outcome = scoring.entry_step(old, sheet(game), event, now)
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
        step = None if step_at is None or step_at >= SCORING_STEPS else step_at + 1
        effects.append(Scored(game.era, step, players[asked], value,
                              scoring.totals(book)[asked], buildings=step_at is None))
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
