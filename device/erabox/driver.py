"""The one driver core of `erabox run` and `erabox simulate`.

Both drive the same pure game (`erabox.core.machine`) the same way; only their clocks and
parts differ. `Driver` holds what they share:

- starting or restarting: the settings and the saved game are read back through their stores
  (a real file for `run`, the JSON text in memory for `simulate`), or a fresh game begins;
- a step: `step(game, event, now)`, then its effects applied in the box's order: sound first
  (it is what must be on time), then the LED, the saves, the screen, the event stream;
- a power cut (a script's `restart`): silence, flush, and come back from the store;
- the end: a last save.

Also here: the JSON-lines writer of the event stream, for both commands.
`Box` (device/erabox/app.py) runs a `Driver` on its loop thread against the real clock; `Simulation`
(device/erabox/simulate.py) runs one on a virtual clock.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TextIO

from erabox.core.config import Config
from erabox.core.events import Emit, EventRecorder
from erabox.core.machine import (
    Game,
    new_game,
    next_deadline,
    opening,
    restore,
    screen,
    snapshot,
    snapshot_at_stop,
    sounded_lead,
    step,
    with_write_time,
)
from erabox.core.model import (
    Effect,
    FlashCue,
    Input,
    Music,
    MusicAction,
    Save,
    SaveSettings,
    Screen,
    Show,
    Steer,
    Tick,
)
from erabox.core.rules import MAX_PLAYERS, MIN_PLAYERS
from erabox.core.seats import own_game_players
from erabox.core.settings import Settings, apply, fit_seats, from_dict, palette
from erabox.core.snapshot import dumps, loads
from erabox.ports import AudioPort, BoxObserver, LedPort, SettingsStore, StateStore

log = logging.getLogger("erabox")

# Longest wait for a save that must be on disk first (a press's, a cue's "armed" and "sounded"
# records): below machine.ARM_LEAD_S, so an "armed" record that makes it is on disk before its
# cue; on a card measured slower, `sounded_lead` (a press's sound waits for its record). A save
# that misses it is logged: the guarantee holds while the card writes in time.
DURABLE_WAIT_S = 0.4
# A call's "sounded" record is written `record.sounded_lead` ahead of the call (it follows the
# card's measured write time, the state store's `write_s`), and the loop waits for it until the
# call's time at most (`Save.by`): a slow card never makes a call late; a record that misses its
# call is logged like any other.

ShowScreen = Callable[[Screen, float], None]
"""Hands a screen model to whatever draws it, with the step's time."""


class Driver:
    """The game and what applying its effects means; the caller owns the clock and the thread.

    Times given to the event stream are `now - t0` (`t0`: when the box was ready).
    """

    def __init__(
        self,
        config: Config,
        *,
        state: StateStore,
        settings: SettingsStore | None = None,
        audio: AudioPort | None = None,
        led: LedPort | None = None,
        show: ShowScreen | None = None,
        events: EventRecorder | None = None,
        observer: BoxObserver | None = None,
        clock: Callable[[], float] | None = None,
        t0: float = 0.0,
    ) -> None:
        seated = own_game_players(config.players, palette(config))
        if seated != config.players:  # a table for another game: Time of Empires seats 2-4
            log.warning("Time of Empires is for %d to %d players, not %d: it seats %s (choose "
                        "a game for more in the settings, or set `players` in the config)",
                        MIN_PLAYERS, MAX_PLAYERS, len(config.players), ", ".join(seated))
            config = replace(config, players=seated)
        self.config = config
        self.state = state
        self.settings = settings
        self.audio = audio
        self.led = led
        self.show = show
        self.events = events
        self.observer = observer
        self.clock = clock  # only read for the observer's timestamps
        self.t0 = t0
        self.game: Game = new_game(config)
        # The game the settings menu chose, once it closed on another game than this one
        # (a profile's name or file): the box then plays that (`Box`).
        self.switch_to: str | None = None
        # The game's own sound files that cannot be read: none (the config's are the box's).
        self.missing_files: list[str] = []
        self._lead_logged = sounded_lead(self.game)
        # A call's "sounded" record not yet on disk when the loop stopped waiting for it, and
        # the call's time (`Save.by`): checked again, without waiting, when the call falls due.
        self._owed: tuple[float, dict[str, Any]] | None = None
        self._ahead_at = 0.0

    # --- the game's life ------------------------------------------------------------------------

    def start(self, now: float, fresh: bool = False) -> None:
        """Come back from the saved game, or start a fresh one (with the chosen settings);
        `fresh`: a fresh one whatever was saved (another game was being played)."""
        chosen = None if self.settings is None else self.settings.load(self.config)
        if chosen is not None:  # seats chosen for another game: as many as this one seats
            chosen = fit_seats(chosen, palette(self.config), (MIN_PLAYERS, MAX_PLAYERS))
        # Checked against the cue list the era runs with (the settings can change its ticks).
        saved = None if fresh else self.state.load(
            self.config if chosen is None else apply(self.config, chosen))
        if saved is None:
            self.game = new_game(self.config, settings=chosen)
            effects: tuple[Effect, ...] = opening(self.game, now)
        else:
            self.game, effects = restore(saved, self.config, now, settings=chosen)
            log.info("resumed the saved game: era %s, %s, %s", saved["era"], saved["mode"],
                     saved["phase"])
        self._follow_card()
        self.apply(effects, now)
        if self.events is not None:
            self.events.state(self.game, now - self.t0, now)

    def step(self, event: Input | Tick | Steer, now: float, due: float | None = None) -> None:
        """One step of the game at `now`; `due` is the deadline that fired a `Tick`."""
        in_menu = self.game.menu is not None
        self._follow_card()
        if self._owed is not None and now >= self._owed[0] - 1e-6:
            by, record = self._owed
            self._owed = None
            if not self.state.flush(timeout=max(by - self._observed(now), 0.0)):
                self._missed(record, by - self._ahead_at)
            elif self.state.problem is not None:
                self._unsaved(record, self.state.problem)
        self.game, effects = step(self.game, event, now)
        if in_menu and self.game.menu is None and self.game.config.game:
            self.switch_to = self.game.config.game  # the menu closed on a game profile
        if self.observer is not None and not isinstance(event, Steer):
            self.observer.stepped(event, self.game, self._observed(now))
        self.apply(effects, now, due)
        self._follow_card()  # the next deadline the loop reads uses what the card just did
        if self.events is not None:
            self.events.state(self.game, now - self.t0, now)

    def _follow_card(self) -> None:
        """The game takes the card's measured durable-write time (the store's `write_s`; a
        store that does not measure counts as instant): a call's "sounded" lead follows it, and
        a change of that lead (the window in which a cut shows a call instead of sounding it)
        is logged."""
        write_s = getattr(self.state, "write_s", 0.0)
        if not isinstance(write_s, float):
            return
        self.game = with_write_time(self.game, write_s)
        lead = sounded_lead(self.game)
        if abs(lead - self._lead_logged) >= 0.05:
            log.info("durable writes take up to %.3f s on this card: a call is recorded as "
                     "sounded %.2f s ahead (a power cut in that window shows it instead of "
                     "sounding it)", self.game.write_s, lead)
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
            self.audio.apply((Music(MusicAction.STOP, self.game.era, self.game.mode, 0.0),), now)
        self.state.flush()
        self.start(now)

    def shutdown(self, now: float) -> None:
        """The last save, written before returning. A clean stop knows that no cue is being
        handed to the mixer: it saves no cue armed (`snapshot_at_stop`)."""
        self.state.save(snapshot_at_stop(self.game, now))
        self.state.close()

    # --- what the loop reads (the `GameDriver` seam, shared with a profile's `PlayDriver`) ---

    def next_deadline(self, now: float) -> float | None:
        return next_deadline(self.game, now)

    def screen(self, now: float) -> Screen:
        return screen(self.game, now)

    def care_screen(self, shown: object) -> Screen | None:
        """The box's own screens are what OLED care reads (None: not one of ours)."""
        return shown if isinstance(shown, Screen) else None

    def save_now(self, now: float) -> None:
        self.state.save(snapshot(self.game, now))

    @property
    def contrast(self) -> int:
        """The panel's contrast as the game runs it (the settings may change it)."""
        return self.game.config.display.contrast

    @property
    def language(self) -> str:
        """The language the game runs in (the settings may change it)."""
        return self.game.config.language

    # --- effects --------------------------------------------------------------------------------

    def apply(self, effects: tuple[Effect, ...], now: float, due: float | None = None) -> None:
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
                wait = max(DURABLE_WAIT_S, sounded_lead(self.game))
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

    def _apply_part(self, effects: tuple[Effect, ...], now: float, due: float | None) -> None:
        if self.audio is not None:
            # All of them: screens too tell the mixer each era's mode before its first cue.
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
        shows = [e for e in effects if isinstance(e, Show)]
        if shows and self.show is not None:
            self.show(shows[-1].screen, now)
        if self.events is not None:
            self.events.effects(effects, now - self.t0)

    def _observed(self, now: float) -> float:
        return now if self.clock is None else self.clock()


def _what(record: dict[str, Any]) -> str:
    if record.get("armed") is not None:
        return f"cue {record['armed']} armed"
    if record.get("sounded") is not None:
        return f"cue {record['sounded']} sounded"
    return f"{record.get('phase')}, era {record.get('era')}"


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
