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

The start player of a "random" profile is drawn here (the core cannot draw): once for a fresh
play, kept in the saved record.
"""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Callable
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
    screen,
)
from erabox.core.profile_record import restore, snapshot
from erabox.core.record import card_lead
from erabox.core.settings import apply as apply_settings
from erabox.ports import AudioPort, LedPort, RecordStore
from erabox.profile_file import missing_music

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
        self.apply(effects, now)
        if self.events is not None:
            self.events.play(self.play, now - self.t0)

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
        return next_deadline(self.play)

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


def game_to_play(args: argparse.Namespace, config: Config, profile: Profile | None,
                  settings_file: SettingsFile, find: Callable[[str], Profile]
                  ) -> tuple[Profile | None, Config]:
    """The game to play at start, and the config it runs with: `--game` wins; else the
    settings menu's "Game" once chosen (a game that is gone: a warning, Time of Empires);
    else the config's `game` (`profile`, already loaded)."""
    chosen = None if getattr(args, "game", None) else settings_file.load(config)
    played = config if chosen is None else apply_settings(config, chosen)
    if chosen is not None and chosen.game != config.game:
        profile = None
        if chosen.game:
            try:
                profile = find(chosen.game)
                check_players(profile, played.players)
            except (ProfileError, ConfigError) as exc:
                log.warning("the game chosen in the settings, %r, cannot be played (%s); "
                            "playing Time of Empires", chosen.game, exc)
                profile = None
    elif profile is not None:
        check_players(profile, played.players)
    return profile, played


def chosen_game(name: str, config: Config, find: Callable[[str], Profile] | None
                ) -> Profile | None:
    """The profile the settings menu chose, or None (with a warning: Time of Empires goes on)
    when it cannot be found or played by `config`'s players."""
    try:
        if find is None:
            raise ConfigError("this box cannot look games up")
        profile = find(name)
        check_players(profile, config.players)
    except (ProfileError, ConfigError) as exc:
        log.warning("cannot play the game %r (%s); Time of Empires goes on", name, exc)
        return None
    log.info("playing the game profile %s (%s), chosen in the settings", profile.id,
             profile.source)
    return profile


def check_players(profile: Profile, players: tuple[str, ...]) -> None:
    """A profile is for so many players: the config's `players` must fit (exit 2 if not)."""
    if not profile.min_players <= len(players) <= profile.max_players:
        span = (str(profile.min_players) if profile.min_players == profile.max_players
                else f"{profile.min_players} to {profile.max_players}")
        raise ConfigError(f"{profile.source}: {profile.name.en} is for {span} players, not "
                          f"{len(players)} (set `players` in the config)")
