"""The game as a value: `Game` (everything the box knows about the game under way), how a
fresh one is made, and the questions asked of it (the running time, the start player, the
state's name, the era's cues).

Everything here is pure and clock-free. The transitions are in machine.py, the screen model
in view.py, the record kept across power cuts in record.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from . import points as scoring
from . import prep
from . import settings as settings_menu
from .config import SCORE_VARIANTS, Config
from .model import (
    Effect,
    FlashCue,
    Mode,
    Phase,
    PrepareSounds,
    Prompt,
    Question,
    Sound,
)
from .rules import SCORING_STEPS

EPS = 1e-6  # float slack when comparing a deadline with `now`


@dataclass(frozen=True)
class Cue:
    """One entry of a real-time era's timeline, at `at` seconds of running time."""

    at: float
    sound: Sound
    ends_era: bool = False
    call: int | None = None  # a timed call: which one of the era (`RealtimeConfig.call`)

    @property
    def recorded(self) -> bool:
        """A cue the table acts on, with its own records: a timed call or the end gong."""
        return self.call is not None or self.ends_era


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
    # (cue, anchor, record): the "sounded" record of the next call, on disk ahead of the call;
    # every save until the call goes out writes it (see record.snapshot, timers.record_ahead)
    sounded_ahead: tuple[int, float, str] | None = None
    # how long the card takes to make a save durable, as the box measured it (seconds; set by
    # the driver, `record.with_write_time`): the "sounded" lead and the save period follow it
    write_s: float = 0.0
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
    # which version of the era scores this game plays (1..SCORE_VARIANTS; saved): each new
    # game the next, unless the setting `score_variant` fixes one (`score_variant` below)
    variant: int = 1


def new_game(config: Config, volume: float | None = None,
             settings: settings_menu.Settings | None = None, variant: int = 1) -> Game:
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
        sheet=scoring.blank(len(effective.players), effective.eras),
        variant=variant,
    )


def score_variant(game: Game) -> int:
    """The version of the era scores the game plays: the one the setting fixes, else the
    game's own (each new game the next, `next_variant`)."""
    return game.config.audio.score_variant or game.variant


def next_variant(game: Game) -> int:
    """The variant a new game after `game` plays: the next one, round after the last."""
    return game.variant % SCORE_VARIANTS + 1


era_mode = settings_menu.mode  # the mode an era is set up in


def base_config(game: Game) -> Config:
    """The config from the file, before the box's own settings."""
    return game.config if game.base is None else game.base


@cache  # the config is frozen: build each era's timeline once, not on every step
def timeline(config: Config) -> tuple[Cue, ...]:
    """The cues of a real-time era in firing order: timed calls (the scholar cries), final
    ticks, end gong."""
    rt = config.realtime
    cues = [Cue(at, rt.call(n).sound, call=n) for n, at in enumerate(rt.scholar_cues_s)]
    cues += [Cue(rt.length_s - k, Sound.TICK) for k in range(rt.final_ticks_s, 0, -1)
             if rt.length_s - k > 0]
    cues.append(Cue(rt.length_s, Sound.GONG, ends_era=True))
    # At equal times a call comes before a tick; the end gong is last by construction.
    return tuple(sorted(cues, key=lambda c: (c.at, 2 if c.ends_era else 0 if c.recorded else 1)))


def prepare_sounds(config: Config) -> tuple[Effect, ...]:
    """The timed calls' own sound files to decode before an era can start (none: nothing)."""
    files = tuple(dict.fromkeys(c.file for c in config.realtime.calls if c.file))
    return (PrepareSounds(files),) if files else ()


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
    """True while the preparation guide is shown over an era's setup (a game whose profile
    lists no steps for it has none)."""
    return game.phase is Phase.SETUP and game.guide is not None and bool(guide_steps(game))


def sheet(game: Game) -> scoring.Sheet:
    """The game's score sheet (blank until points are entered)."""
    players = len(game.config.players)
    if game.sheet is None or game.sheet.players != players:
        return scoring.blank(players, game.config.eras)
    return game.sheet


def guide_steps(game: Game) -> tuple[prep.PrepStep, ...]:
    """The preparation guide of the era being set up (before Era I: the game's setup first),
    for its mode."""
    return prep.steps(game.era, len(game.config.players), game.mode, first=True,
                      numbers=game.config.prep)


def scoring_step_at(game: Game) -> int:
    """The checklist step the scoring is at (the last one once the standings show)."""
    if game.entry is None:
        return game.scoring_step
    at, _ = scoring.where(game.entry, len(game.config.players))
    return SCORING_STEPS - 1 if at is None or at >= SCORING_STEPS else at


def current_settings(game: Game) -> settings_menu.Settings:
    """The settings chosen on the box, or the config's own where none were chosen."""
    if game.settings is not None:
        return game.settings
    return settings_menu.defaults(base_config(game))


def without_led(game: Game, effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """`effects` as this game lets them out: no flash of the cue LED when it is switched off."""
    if not game.config.cue_led:  # switched off in the settings
        return tuple(e for e in effects if not isinstance(e, FlashCue))
    return effects
