"""The one driver of `erabox run` and `erabox simulate`, for every game.

Both drive a pure game (`erabox.core.engine`: Time of Empires, or a game profile's play)
the same way; only their clocks and parts differ. `Driver` holds what they share:

- starting or restarting: the settings and the saved game are read back through their stores
  (a real file for `run`, the JSON text in memory for `simulate`), or a fresh game begins (a
  profile's start player drawn here: the core cannot draw);
- a step: `engine.step(game, event, now)`, then its effects applied by one rule: a save that
  must be on disk first is (docs/power-cuts.md), then sound (it is what must be on time), the
  LED, the saves, the screen, the event stream;
- a power cut (a script's `restart`): silence, flush, and come back from the store;
- the end: a last save.

The saved record says its kind: a profile's play is `"kind": "profile"` with its game's id, a
Time of Empires game has no kind. A record of another kind, of another game, or with other
players is set aside with one log line naming why, and a fresh game begins.

Also here: the JSON-lines writer of the event stream, for both commands.
`Box` (run/app.py) runs a `Driver` on its loop thread against the real clock; `Simulation`
(run/simulate.py) runs one on a virtual clock.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TextIO

from erabox.core.config import Config
from erabox.core.engine import (
    AnyEffect,
    AnyScreen,
    Effects,
    Engine,
    ProfileEngine,
    Recorder,
    shown,
)
from erabox.core.events import Emit
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import (
    Button,
    FlashCue,
    Gesture,
    Input,
    Save,
    SaveSettings,
    Screen,
    Show,
    Steer,
    Tick,
)
from erabox.core.play import ShowPlay
from erabox.core.profile import Profile
from erabox.core.record import card_lead, clean_write_s
from erabox.core.rules import MAX_PLAYERS, MIN_PLAYERS
from erabox.core.seats import own_game_players
from erabox.core.settings import Settings, from_dict, palette
from erabox.core.snapshot import dumps, loads
from erabox.files.games import missing_music, own_rounds
from erabox.ports import AudioPort, BoxObserver, LedPort, SettingsStore, StateStore

log = logging.getLogger("erabox")

# Longest wait for a save that must be on disk first (a press's, a cue's "armed" and "sounded"
# records): below record.ARM_LEAD_S, so an "armed" record that makes it is on disk before its
# cue; on a card measured slower, `record.card_lead` (a press's sound waits for its record). A
# save that misses it is logged: the guarantee holds while the card writes in time.
DURABLE_WAIT_S = 0.4
# A call's "sounded" record is written `record.sounded_lead` ahead of the call (it follows the
# card's measured write time, the state store's `write_s`), and the loop waits for it until the
# call's time at most (`Save.by`): a slow card never makes a call late; a record that misses its
# call is logged like any other.

ShowScreen = Callable[[Any, float], None]
"""Hands a screen model (either game's) to whatever draws it, with the step's time."""


def system_draw(players: int) -> int:
    """The start player of a "random" profile: a seat drawn from the system's randomness."""
    return random.SystemRandom().randrange(players)


def seeded_draws(seed: int) -> Callable[[int], int]:
    """The draws of a "random" profile's start player, one after the other from `seed`: the
    first game's, then one for each new game (the same seed, the same players)."""
    return random.Random(seed).randrange


class Driver:
    """A game and what applying its effects means; the caller owns the clock and the thread.

    `profile`: play that game profile (for `config`'s players); None: Time of Empires' (the
    config's own game, `own_rounds`); `why_played`: why the profile plays, said on its first setup
    (`ProfileEngine.why_played`). `draw` draws a profile's start player. Times given to the event
    stream are `now - t0` (`t0`: when the box was ready).
    """

    def __init__(
        self,
        config: Config,
        *,
        state: StateStore,
        profile: Profile | None = None,
        settings: SettingsStore | None = None,
        audio: AudioPort | None = None,
        led: LedPort | None = None,
        show: ShowScreen | None = None,
        events: Recorder[Any] | None = None,
        observer: BoxObserver | None = None,
        clock: Callable[[], float] | None = None,
        draw: Callable[[int], int] = system_draw,
        t0: float = 0.0,
        why_played: str | None = None,
        base: Config | None = None,
    ) -> None:
        self.engine: Engine[Any]
        self.base = config if base is None else base  # the file's, before the box's settings
        if profile is None:  # Time of Empires: its profile (a user's copy first)
            profile = own_rounds(config.own_game)
            seated = own_game_players(config.players, palette(config))
            if seated != config.players:  # a table for another game
                log.warning("Time of Empires is for %d to %d players, not %d: it seats %s "
                            "(choose a game for more in the settings, or set `players` in the "
                            "config)", MIN_PLAYERS, MAX_PLAYERS, len(config.players),
                            ", ".join(seated))
                config = replace(config, players=seated)
        # the phases and special rounds of the first-game guide only while it is on, the
        # config's numbers and modes where the file takes them (`game_config`)
        self.engine = ProfileEngine(configured(guided(profile, config.guide), config), config,
                                    why_played, base=self.base, source=profile)
        self.missing_files = missing_music(profile)  # said in the log, marked on screen
        self.config = config
        self.profile = profile
        self.state = state
        self.settings = settings
        self.audio = audio
        self.led = led
        self.show = show
        self.events = events
        self.observer = observer
        self.clock = clock  # only read for the observer's timestamps
        self.draw = draw
        self.t0 = t0
        # The game as it stands: its `play.Play`.
        self.game: Any = self.engine.fresh(0.0, 0)[0]  # replaced by `start`
        # Another game wanted, once a step asked for it (the settings menu closed on it): a
        # profile's name or file, or "" (Time of Empires): the box then plays that.
        self.switch_to: str | None = None
        self._card_s = 0.0  # the card's measured durable-write time (`_follow_card`)
        self._lead_logged = card_lead(0.0)
        # A call's "sounded" record not yet on disk when the loop stopped waiting for it, and
        # the call's time (`Save.by`): checked again, without waiting, when the call falls due.
        self._owed: tuple[float, dict[str, Any]] | None = None
        self._ahead_at = 0.0

    # --- the game's life ------------------------------------------------------------------------

    def start(self, now: float, fresh: bool = False) -> None:
        """Come back from the saved game, or start a fresh one (with the chosen settings);
        `fresh`: a fresh one whatever was saved (another game was being played)."""
        chosen = None if self.settings is None else self.settings.load(self.base)
        self._begin(now, chosen, fresh)

    def _begin(self, now: float, chosen: Settings | None, fresh: bool) -> None:
        """`start` with the settings `chosen` on the box (None: none)."""
        engine = self.engine = self.engine.settled(chosen)
        saved = None if fresh else self.state.load_as(engine.parse)
        effects: Effects
        if saved is None:
            seat = self.draw(engine.seats) if engine.seats else 0
            self.game, effects = engine.fresh(now, seat)
        else:
            self.game, effects = engine.restore(saved, now)
            log.info("%s", engine.resumed(self.game, saved))
        self._spare()
        self._follow_card()
        self.apply(effects, now)
        if self.events is not None:
            self.events.seen(self.game, now - self.t0, now)

    def step(self, event: Input | Tick | Steer, now: float, due: float | None = None) -> None:
        """One step of the game at `now`; `due` is the deadline that fired a `Tick`."""
        self._follow_card()
        if self._owed is not None and now >= self._owed[0] - 1e-6:
            by, record = self._owed
            self._owed = None
            if not self.state.flush(timeout=max(by - self._observed(now), 0.0)):
                self._missed(record, by - self._ahead_at)
            elif self.state.problem is not None:
                self._unsaved(record, self.state.problem)
        before = self.game
        self.game, effects = self.engine.step(before, event, now)
        self._spare()
        wanted = self.engine.switch_to(before, self.game, effects)
        # the settings menu closed on other settings for this game: it is set up anew
        again = None if wanted is not None else self.engine.pending(before, self.game)
        if wanted is not None:
            self.switch_to = wanted
        if wanted is not None or again is not None:  # the next game's screen follows at once
            effects = tuple(e for e in effects if not isinstance(e, Show | ShowPlay))
        if self.observer is not None and not isinstance(event, Steer):
            self.observer.stepped(event, self.game, self._observed(now))
        self.apply(effects, now, due)
        if again is not None:  # fresh, with them, saved at once (as a game switched to)
            self._begin(now, again, fresh=True)
            self.save_now(now)
            return
        self._follow_card()  # the next deadline the loop reads uses what the card just did
        if self.events is not None:
            self.events.seen(self.game, now - self.t0, now)

    def _spare(self) -> None:
        """A "random" profile's play holds the next draw, for a new game to take."""
        seats = self.engine.spare(self.game)
        if seats is not None:
            self.game = self.engine.with_spare(self.game, self.draw(seats))

    def _follow_card(self) -> None:
        """The game takes the card's measured durable-write time (the store's `write_s`; a
        store that does not measure counts as instant): a call's "sounded" lead and a press's
        wait for its record follow it, and a change of that lead (the window in which a cut
        shows a call instead of sounding it) is logged."""
        write_s = getattr(self.state, "write_s", 0.0)
        if not isinstance(write_s, float):
            return
        self.game = self.engine.with_write_time(self.game, write_s)
        self._card_s = clean_write_s(write_s)
        lead = card_lead(self._card_s)
        if abs(lead - self._lead_logged) >= 0.05:
            log.info("durable writes take up to %.3f s on this card: a call is recorded as "
                     "sounded %.2f s ahead (a power cut in that window shows it instead of "
                     "sounding it)", self._card_s, lead)
            self._lead_logged = lead

    def input(self, event: Input, now: float) -> None:
        """Record an input as the box took it (observer, event stream), before its step."""
        if self.observer is not None:
            self.observer.input(event, now)
        if self.events is not None:
            self.events.input(event, now - self.t0)

    def power_cut(self, now: float) -> None:
        """A script's `restart`: silence, forget, and come back from what was saved."""
        if self.audio is not None:
            self.audio.apply((self.engine.silence(self.game),), now)
        self.state.flush()
        self.start(now)

    def shutdown(self, now: float) -> None:
        """The last save, written before returning. A clean stop knows that no cue is being
        handed to the mixer: Time of Empires saves no cue armed (`snapshot_at_stop`)."""
        self.state.save(self.engine.snapshot_at_stop(self.game, now))
        self.state.close()

    # --- what the loop reads ----------------------------------------------------------------------

    def next_deadline(self, now: float) -> float | None:
        return self.engine.next_deadline(self.game, now)

    def screen(self, now: float) -> AnyScreen:
        return self.engine.screen(self.game, now)

    def care_screen(self, shown: object) -> Screen | None:
        """What OLED care reads of a screen (None: not one of this game's)."""
        return self.engine.care_view(shown)

    def save_now(self, now: float) -> None:
        self.state.save(self.engine.snapshot(self.game, now))

    def start_over(self, now: float, menu: bool = False) -> None:
        """This game from its start, the settings menu having switched to it, saved at once;
        `menu`: with its settings menu open (as ERA held at its setup: Time of Empires, when
        the game chosen cannot be played, the menu saying why)."""
        self.start(now, fresh=True)
        self.save_now(now)
        if menu:
            self.step(Input(Button.ERA, Gesture.HOLD), now)

    @property
    def played_config(self) -> Config:
        """The config the game plays with, the box's settings laid over the file's (those of
        the settings menu just closed included): another game chosen there plays with it."""
        return self.engine.played(self.game)

    @property
    def contrast(self) -> int:
        """The panel's contrast as the game runs it (the settings may change it)."""
        return self.engine.contrast(self.game)

    @property
    def language(self) -> str:
        """The language the game runs in (the settings may change it)."""
        return self.engine.language(self.game)

    # --- effects --------------------------------------------------------------------------------

    def apply(self, effects: Effects, now: float, due: float | None = None) -> None:
        """Effects in order, with one rule for power cuts: a `Save(durable=True)` is on disk
        before anything after it happens (docs/power-cuts.md). Between such saves: sound first
        (it is what must be on time), then LED, saves, screen, event stream."""
        start = 0
        for index, effect in enumerate(effects):
            if isinstance(effect, Save) and effect.durable:
                if index > start:
                    self._apply_part(effects[start:index], now, due)
                self.state.save(effect.snapshot)
                # Bounded: a card that hangs must not hold the box for longer than this, and a
                # record written ahead of a call must not hold back the call.
                # On a slow card as long as its writes take (the lead of a call's record).
                wait = max(DURABLE_WAIT_S, card_lead(self._card_s))
                if effect.by is not None:
                    wait = min(wait, max(effect.by - self._observed(now), 0.0))
                if self.state.flush(timeout=wait):
                    if self.state.problem is not None:  # written: no; logged here, at it
                        self._unsaved(effect.snapshot, self.state.problem)
                elif effect.by is not None and self._observed(now) < effect.by - 1e-6:
                    # A slow card's record ahead of a call: it has until the call's time.
                    self._owed, self._ahead_at = (effect.by, effect.snapshot), now
                else:
                    self._missed(effect.snapshot, wait)
                start = index + 1
        if start < len(effects):
            self._apply_part(effects[start:], now, due)

    def _missed(self, record: dict[str, Any], waited: float) -> None:
        log.warning(
            "a save that must be on disk first (%s) took longer than %.3g s; going on without "
            "it: a power cut now may %s", _what(record), waited,
            "repeat a cry or the end gong, or a press's change")

    def _unsaved(self, record: dict[str, Any], problem: str) -> None:
        log.warning("a save that must be on disk first (%s) failed (%s); going on without it: "
                    "a power cut now may %s", _what(record), problem,
                    "repeat a cry or the end gong, or a press's change")

    def _apply_part(self, effects: tuple[AnyEffect, ...], now: float, due: float | None
                    ) -> None:
        if self.audio is not None:
            # All of them: screens too tell the mixer each era's mode before its first cue
            # (effects that are not about sound, a profile's own, are ignored there).
            self.audio.apply(effects, now)
        if self.observer is not None:
            self.observer.applied(effects, due, now, self._observed(now))
        for effect in effects:
            if isinstance(effect, FlashCue) and self.led is not None:
                self.led.flash()
            elif isinstance(effect, Save):
                self.state.save(effect.snapshot)
            elif isinstance(effect, SaveSettings) and self.settings is not None:
                self.settings.save(effect.settings)
        drawn = shown(effects)
        if drawn is not None and self.show is not None:
            self.show(drawn, now)
        if self.events is not None:
            self.events.effects(effects, now - self.t0)

    def _observed(self, now: float) -> float:
        return now if self.clock is None else self.clock()


def _what(record: dict[str, Any]) -> str:
    """Which save a log line speaks of: its game and where play stands, a countdown's seconds
    left and cues given (the record of a call: held at it, or written ahead of it)."""
    spot = record.get("spot")
    where = f"{record.get('game')}, {spot.get('state') if isinstance(spot, dict) else spot}"
    left = record.get("timer_left")
    if isinstance(left, int | float):
        return f"{where}, its countdown at {left:g} s left, cues given: " \
               f"{record.get('timer_cues', 0)}"
    return f"{where}, round {spot.get('round') if isinstance(spot, dict) else None}"


# --- in-memory stores (simulate: the files' JSON text, kept in memory) -------------------------


class MemoryState:
    """A `StateStore` holding the JSON text a state file would hold."""

    problem: str | None = None  # memory never fails to save

    def __init__(self) -> None:
        self.text: str | None = None

    def load(self, config: Config) -> dict[str, Any] | None:
        return None if self.text is None else loads(self.text, config)

    def load_as(self, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any] | None:
        """`parse` of the text; an unusable one is dropped (a file would be moved aside)."""
        if self.text is None:
            return None
        try:
            return parse(self.text)
        except ValueError as exc:
            log.warning("saved game is unusable (%s); starting a new game", exc)
            self.text = None
            return None

    def save(self, snapshot: dict[str, Any]) -> None:
        self.text = dumps(snapshot)

    def flush(self, timeout: float = 0.0) -> bool:
        return True

    def close(self) -> None:
        pass


class MemorySettings:
    """A `SettingsStore` holding what the settings menu chose last."""

    def __init__(self) -> None:
        self.saved: dict[str, Any] | None = None

    def load(self, config: Config) -> Settings | None:
        return None if self.saved is None else from_dict(self.saved, config)

    def save(self, settings: dict[str, Any]) -> None:
        self.saved = settings


# --- the event stream ----------------------------------------------------------------


def json_lines(stream: TextIO, *, flush: bool = False) -> Emit:
    """An `Emit` writing each event as one JSON line (UTF-8 as is) to `stream`."""

    def emit(event: dict[str, Any]) -> None:
        stream.write(json.dumps(event, ensure_ascii=False) + "\n")
        if flush:
            stream.flush()

    return emit
