"""A game profile played by the real box: the `Driver` of `erabox run --game`.

`Box` (app.py) runs whichever driver the composition root chose through the same few calls
(`GameDriver` below): start, step, input, power cut, shutdown, and the reads the loop needs
(the next deadline, the screen, a save now, the contrast). `erabox.driver.Driver` plays Time
of Empires; `PlayDriver` plays a profile's pure machine (`core/profile_machine.py`), with the
same rules for its effects: a save that must be on disk first is, then sound (the gong, the
cry), the LED, the saves, the screen, the event stream.

The saved record says its kind: a profile's play is `"kind": "profile"` with its game's id,
a Time of Empires game has no kind. A record of the other kind, of another game, or with
other players is moved aside with one log line naming why, and a fresh play begins.

The start player of a "random" profile is drawn here (the core cannot draw): for a fresh play,
kept in the saved record; and a spare draw the play keeps for a new game ("New game?"),
drawn again as soon as a new game has taken it.
"""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from erabox.adapters.settings_file import SettingsFile
from erabox.core.config import Config, ConfigError
from erabox.core.jsontext import json_object
from erabox.core.model import (
    FlashCue,
    Input,
    Mode,
    Music,
    MusicAction,
    Phase,
    Save,
    Screen,
    Steer,
    Tick,
)
from erabox.core.profile import Profile, ProfileError
from erabox.core.profile_events import PlayRecorder
from erabox.core.profile_machine import step
from erabox.core.profile_play import (
    ChooseGame,
    Entered,
    Play,
    PlayEffect,
    PlayScreen,
    Ranked,
    ShowPlay,
    new_play,
    next_deadline,
    prepare_sounds,
    screen,
)
from erabox.core.profile_record import restore, snapshot
from erabox.core.record import card_lead
from erabox.core.settings import apply as apply_settings
from erabox.ports import AudioPort, LedPort, RecordStore
from erabox.profile_file import error_place, missing_music

log = logging.getLogger("erabox")

DURABLE_WAIT_S = 0.4  # as `erabox.driver.DURABLE_WAIT_S`
Profiled = ShowPlay | Entered | Ranked | ChooseGame  # the profile machine's own effects


class GameDriver(Protocol):
    """What `Box` asks of the game it runs (Time of Empires' `Driver`, or `PlayDriver`)."""

    t0: float
    switch_to: str | None  # another game wanted: a profile's name, "" Time of Empires
    missing_files: list[str]  # the game's own sound files that cannot be read (marked)

    @property
    def state(self) -> Any: ...

    def start(self, now: float, fresh: bool = False) -> None: ...

    def step(self, event: Input | Tick | Steer, now: float, due: float | None = None) -> None: ...

    def input(self, event: Input, now: float) -> None: ...

    def power_cut(self, now: float) -> None: ...

    def shutdown(self, now: float) -> None: ...

    def next_deadline(self, now: float) -> float | None: ...

    def screen(self, now: float) -> Any: ...

    def care_screen(self, shown: object) -> Screen | None: ...

    def save_now(self, now: float) -> None: ...

    @property
    def contrast(self) -> int: ...

    @property
    def language(self) -> str: ...


def system_draw(players: int) -> int:
    """The start player of a "random" profile: a seat drawn from the system's randomness."""
    return random.SystemRandom().randrange(players)


def care_view(shown: PlayScreen) -> Screen:
    """What OLED care reads of a profile's screen: a running countdown, a question or a
    prompt keeps it bright (like a running era); a new step, turn or round is activity."""
    if shown.kind == "confirm":
        kind = Phase.CONFIRM
    elif shown.timer_left is not None and not shown.timer_done:
        kind = Phase.RUNNING
    elif shown.kind == "game_over":
        kind = Phase.GAME_OVER
    else:
        kind = Phase.INTRO_ROUND
    where = shown.position[0] if shown.position is not None else None
    return Screen(kind=kind, era=1, mode=Mode.INTRO, round=shown.round, prompt=shown.prompt,
                  scoring_step=where)


class PlayDriver:
    """A profile's play and what applying its effects means; the caller owns the clock.

    Times given to the event stream are `now - t0` (`t0`: when the box was ready).
    """

    def __init__(
        self,
        config: Config,
        profile: Profile,
        *,
        state: RecordStore,
        audio: AudioPort | None = None,
        led: LedPort | None = None,
        show: Callable[[PlayScreen, float], None] | None = None,
        events: PlayRecorder | None = None,
        draw: Callable[[int], int] = system_draw,
        t0: float = 0.0,
    ) -> None:
        self.config = config
        self.profile = profile
        self._state = state
        self.audio = audio
        self.led = led
        self.show = show
        self.events = events
        self.draw = draw
        self.t0 = t0
        self.players = config.players
        self.play: Play = new_play(profile, self.players)  # replaced by `start`
        self.switch_to: str | None = None  # "": ERA held at setup, the box's menu wanted
        self.missing_files = missing_music(profile)  # said in the log, marked on the screen

    @property
    def state(self) -> RecordStore:
        return self._state

    # --- the play's life --------------------------------------------------------------------

    def start(self, now: float, fresh: bool = False) -> None:
        """Come back from the saved play, or start a fresh one (the start player drawn);
        `fresh`: a fresh one whatever was saved."""
        saved = None if fresh else self._state.load_as(self.parse)
        effects: tuple[PlayEffect, ...]
        if saved is None:
            self.play = new_play(self.profile, self.players, self.draw(len(self.players)))
            effects = (ShowPlay(screen(self.play, now)),)
        else:
            self.play, effects = restore(saved, self.profile, self.players, now)
            spot = self.play.spot
            log.info("resumed the saved play of %s: %s, round %s", self.profile.id,
                     spot.state.value, spot.round)
        self._spare()
        self.apply((*prepare_sounds(self.profile), *effects), now)  # own sounds decoded first
        if self.events is not None:
            self.events.play(self.play, now - self.t0)

    def _spare(self) -> None:
        """A "random" profile's play holds the next draw, for a new game to take."""
        if self.profile.start_rule == "random" and self.play.spare_seat is None:
            self.play = replace(self.play, spare_seat=self.draw(len(self.players)))

    def parse(self, text: str) -> dict[str, Any]:
        """The saved text as a record of this game's play, or `ValueError` saying why not."""
        record = json_object(text)
        if record.get("kind") != "profile":
            raise ValueError(f"it holds a Time of Empires game, not a play of {self.profile.id}")
        if record.get("game") != self.profile.id:
            raise ValueError(f"it holds a play of {str(record.get('game'))[:40]!r}, "
                             f"not of {self.profile.id!r}")
        try:
            restore(record, self.profile, self.players, 0.0)  # every field checked
        except (TypeError, KeyError, AttributeError, IndexError) as exc:
            raise ValueError(f"a value of the wrong type ({exc})") from None
        return record

    def step(self, event: Input | Tick | Steer, now: float, due: float | None = None) -> None:
        if isinstance(event, Steer):  # a hall steers Time of Empires' running clock only
            return
        self.play, effects = step(self.play, event, now)
        self._spare()
        self.apply(effects, now)
        if self.events is not None:
            self.events.play(self.play, now - self.t0)

    def input(self, event: Input, now: float) -> None:
        if self.events is not None:
            self.events.input(event, now - self.t0)

    def power_cut(self, now: float) -> None:
        """A script's `restart`: silence, forget, and come back from what was saved."""
        if self.audio is not None:
            self.audio.apply((Music(MusicAction.STOP, 0, Mode.INTRO, 0.0),), now)
        self._state.flush()
        self.start(now)

    def shutdown(self, now: float) -> None:
        self._state.save(snapshot(self.play, now))
        self._state.close()

    # --- what the loop reads ------------------------------------------------------------------

    def next_deadline(self, now: float) -> float | None:
        return next_deadline(self.play, now)

    def screen(self, now: float) -> PlayScreen:
        return screen(self.play, now)

    def care_screen(self, shown: object) -> Screen | None:
        return care_view(shown) if isinstance(shown, PlayScreen) else None

    def save_now(self, now: float) -> None:
        self._state.save(snapshot(self.play, now))

    @property
    def contrast(self) -> int:
        return self.config.display.contrast

    @property
    def language(self) -> str:
        return self.config.language

    # --- effects ------------------------------------------------------------------------------

    def apply(self, effects: tuple[PlayEffect, ...], now: float) -> None:
        """As `Driver.apply`: a durable save is on disk (bounded wait) before what follows."""
        start = 0
        for index, effect in enumerate(effects):
            if isinstance(effect, Save) and effect.durable:
                self._apply_part(effects[start:index], now)
                self._state.save(effect.snapshot)
                wait = self.durable_wait()
                if not self._state.flush(timeout=wait):
                    log.warning("a save that must be on disk first took longer than %g s; "
                                "going on without it", wait)
                start = index + 1
        self._apply_part(effects[start:], now)

    def durable_wait(self) -> float:
        """How long a press's record may take before its sound goes out: as Time of Empires'
        driver, at least `DURABLE_WAIT_S`, and on a card measured slower as long as its writes
        take (`record.sounded_lead` of the store's `write_s`), so a slow card does not let a cut
        after a special round's cry bring the round back to be called again."""
        write_s = getattr(self._state, "write_s", 0.0)  # a store that does not measure: 0
        return max(DURABLE_WAIT_S, card_lead(write_s if isinstance(write_s, float) else 0.0))

    def _apply_part(self, effects: tuple[PlayEffect, ...], now: float) -> None:
        if not effects:
            return
        if self.audio is not None:
            # the gong and the cry (the profile's own effects are not sound)
            self.audio.apply([e for e in effects if not isinstance(e, Profiled)], now)
        for effect in effects:
            if isinstance(effect, FlashCue) and self.led is not None:
                self.led.flash()
            elif isinstance(effect, Save):
                self._state.save(effect.snapshot)
            elif isinstance(effect, ChooseGame):
                self.switch_to = ""
        shows = [e for e in effects if isinstance(e, ShowPlay)]
        if shows and self.show is not None:
            self.show(shows[-1].screen, now)
        if self.events is not None:
            self.events.effects(effects, now - self.t0)


# --- which game the box plays at start -----------------------------------------------------


@dataclass(frozen=True)
class Start:
    """The game the box plays at start (`game_to_play`): `profile` (None: Time of Empires),
    the config it runs with (the box's settings laid over the file), and `refused`: the game
    that was to be played cannot be: Time of Empires' settings menu opens, its screen saying
    why and what to change; `played` is then the file's config, the game marked in it as
    the menu needs (`mark_refused`)."""

    profile: Profile | None
    played: Config
    refused: bool = False


def game_to_play(args: argparse.Namespace, config: Config, settings_file: SettingsFile,
                  find: Callable[[str], Profile]) -> Start:
    """Which game plays, one rule for the command line, the settings menu and the config:
    `--game` for this run; else the game chosen in the settings menu, once "Game" was ever
    changed there; else the config's `game`; else Time of Empires. The box's settings
    (players, seats, oldest, language, ...) apply to every game. One log line says which
    game plays and why.

    A game that cannot be played (its file broken or gone, not for this many players): with
    `--game`, `ConfigError`/`ProfileError` (exit 2, naming what to change); else a warning and
    `refused` (the box starts on Time of Empires' settings menu, which says so)."""
    chosen = settings_file.load(config)
    played = config if chosen is None else apply_settings(config, chosen)
    if getattr(args, "game", None):
        name, why = config.game, "given with --game"  # "" when it named the box's own game
    elif chosen is not None and chosen.game_chosen:
        name, why = chosen.game, "chosen in the settings menu"
    elif config.game:
        name, why = config.game, f"set in the config ({config.source}: game)"
    else:
        name, why = "", "no other game chosen in the settings menu or set in the config"
    if not name:
        log.info("playing Time of Empires: %s", why)
        return Start(None, played)
    try:
        profile = find(name)
        check_players(profile, played.players, players_from(chosen))
    except (ProfileError, ConfigError) as exc:
        if getattr(args, "game", None):
            raise
        log.warning("cannot play %r, %s: %s; the settings menu opens on Time of Empires to "
                    "choose players or another game", name, why, exc)
        return Start(None, mark_refused(config, name, exc), refused=True)
    log.info("playing %s: %s", profile.id, why)
    return Start(profile, played)


def players_from(chosen: object) -> str:
    """Where the players came from, as an error says what to change."""
    return "the settings menu's Players" if chosen is not None else "`players` in the config"


def mark_refused(config: Config, name: str, problem: Exception) -> Config:
    """`config` with the game `name` marked as the menu shows a game that cannot be played:
    not for this many players (`PlayersError`: its player counts), else broken (a file given
    by its path, gone, or broken since the start: where the message says)."""
    players = tuple(g for g in config.game_players if g[0] != name)
    broken = tuple(g for g in config.broken_games if g[0] != name)
    if isinstance(problem, PlayersError):
        return replace(config, game_players=(*players, (name, problem.fewest, problem.most)),
                       broken_games=broken)
    return replace(config, game_players=players,
                   broken_games=(*broken, (name, error_place(str(problem), name))))


def chosen_game(name: str, config: Config, find: Callable[[str], Profile] | None
                ) -> Profile:
    """The profile the settings menu chose, checked against `config`'s players (the menu's);
    `ProfileError` or `ConfigError` saying why it cannot be played."""
    if find is None:
        raise ProfileError("this box cannot look games up")
    profile = find(name)
    check_players(profile, config.players, "the settings menu's Players")
    log.info("playing %s: chosen in the settings menu (%s)", profile.id, profile.source)
    return profile


def check_players(profile: Profile, players: tuple[str, ...],
                  players_from: str = "`players` in the config") -> None:
    """A profile is for so many players: `players` must fit (`ConfigError` if not, naming
    where they came from: `players_from`, what to change)."""
    if not profile.min_players <= len(players) <= profile.max_players:
        span = (str(profile.min_players) if profile.min_players == profile.max_players
                else f"{profile.min_players} to {profile.max_players}")
        raise PlayersError(f"{profile.source}: {profile.name.en} is for {span} players, not "
                           f"{len(players)} (change {players_from}, or play another game)",
                           profile.min_players, profile.max_players)


class PlayersError(ConfigError):
    """A game that is not for this many players (`fewest` to `most`)."""

    def __init__(self, message: str, fewest: int, most: int) -> None:
        super().__init__(message)
        self.fewest, self.most = fewest, most
