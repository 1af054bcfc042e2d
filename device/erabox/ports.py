"""The ports: what the box's loop needs from each of its parts, as typed Protocols.

The loop (`erabox.run.app.Box`) and the screen worker only ever talk to these; the adapters in
`erabox.adapters` implement them (pygame's mixer, the OLED or a window or the terminal,
gpiozero buttons and LED, the state file), and tests or benchmarks may pass their own.

Also here: the items the loop's inbox carries besides an `Input` (`Stop`, `Redraw`,
`PowerCut`), so an adapter that must end the run (the window, the terminal keys) needs nothing
from the modules above it; and `BoxObserver`, the one hook through which benchmarks and tests
watch a running box.

This module imports only the pure core (and Pillow's image type): adapters build on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from erabox.core.config import Config
from erabox.core.engine import AnyEffect
from erabox.core.model import Button, Input, Steer, Tick
from erabox.core.play import Play
from erabox.core.settings import Settings

# --- what the loop's inbox carries ------------------------------------------------------------


@dataclass(frozen=True)
class Stop:
    """End the loop: save and close (SIGTERM, window closed, script `end`)."""

    reason: str


@dataclass(frozen=True)
class Redraw:
    """An adapter's status changed (e.g. the sound card vanished): redraw the screen."""


@dataclass(frozen=True)
class PowerCut:
    """A script's `restart`: drop everything but the state file and come back from it."""


@dataclass(frozen=True)
class Chord:
    """NEXT and ERA are held together since `since` (on the loop's clock), or no longer (None):
    the screen shows the hold's progress toward "New game?"."""

    since: float | None


@dataclass(frozen=True)
class SaveNow:
    """Write the game to the state file now and keep running (SIGUSR1)."""

    reason: str


InboxItem = Input | Stop | Redraw | PowerCut | Chord | SaveNow | Steer
Post = Callable[[InboxItem], None]
"""Hands an item to the loop; thread-safe, also from a signal handler."""


# --- the parts ----------------------------------------------------------------------------------


class AudioPort(Protocol):
    """Music and cues, driven by the core's effects (`erabox.adapters.audio.Audio`)."""

    def apply(self, effects: Sequence[AnyEffect], now: float) -> None:
        """Play what `effects` ask for; ignore the ones that are not about sound.

        Called on the loop thread with every step's effects, `now` being the loop's monotonic
        time of that step. Never blocks on decoding, the disk or locks held by other work, and
        never raises for a sound problem (the box keeps running silent; `problem` says why).
        """
        ...

    @property
    def problem(self) -> str | None:
        """Short human text for the screen and the log ("no sound: ..."); None while fine."""
        ...

    def close(self) -> None:
        """Stop the sound and release the device. Safe to call twice."""
        ...


class DisplayPort(Protocol):
    """Something that shows the panel's 1-bit frames (OLED, window, terminal, PNG files...).

    `problem` is None while the display works; otherwise one line saying what is wrong, for
    the app to log or show ("OLED not answering at 0x3C on /dev/i2c-1 ...").
    """

    @property
    def problem(self) -> str | None: ...

    def show(self, image: Image.Image, label: str | None = None) -> None:
        """Show a mode "1" image of the panel's size. `label` names the frame where a
        backend keeps them."""
        ...

    def close(self) -> None:
        """Release the device. Showing after close is not allowed."""
        ...


class LedPort(Protocol):
    """The cue LED (`erabox.adapters.cue_led.CueLed`): a no-op when not fitted."""

    def flash(self) -> None:
        """Flash once, in the background; returns at once."""
        ...

    def close(self) -> None: ...


class StateStore(Protocol):
    """Where the running game is saved, to come back after a power cut (the state file)."""

    def load_as(self, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any] | None:
        """The saved record as `parse` reads it (the game's own check: `Engine.parse`), or
        None when there is none or `parse` raised `ValueError` (the record is then set aside,
        with one warning)."""
        ...

    def save(self, snapshot: dict[str, Any]) -> None:
        """Queue a snapshot for writing; returns at once."""
        ...

    def flush(self, timeout: float = ...) -> bool:
        """Wait until every queued snapshot is written (or its write failed, see `problem`).
        False on timeout."""
        ...

    def close(self) -> None:
        """Write what is pending, then release."""
        ...

    @property
    def problem(self) -> str | None:
        """Why saving fails ("cannot save: ..."), for the screen's mark; None = saving works."""
        ...


class CollectorPort(Protocol):
    """Who runs the older garbage collections (`erabox.adapters.collector.LoopCollector`).

    Entered for as long as the loop runs; while entered, only `idle` starts a long pass.
    """

    def __enter__(self) -> CollectorPort: ...

    def __exit__(self, *exc: object) -> None: ...

    def idle(self, slack_s: float | None) -> int | None:
        """The loop is about to wait, its next wake-up `slack_s` away (None: no deadline): run
        a due collection if it fits. Returns the generation collected, if any."""
        ...


class SettingsStore(Protocol):
    """Where the settings chosen on the box are kept, beside the saved game."""

    def load(self, config: Config) -> Settings | None:
        """The saved settings, or None when there are none or they were unusable."""
        ...

    def save(self, settings: dict[str, Any]) -> None: ...


class InputSource(Protocol):
    """The buttons (`erabox.adapters.buttons.Buttons`). Each recognised gesture is handed to
    the `Post` given when the source was made, as an `Input`."""

    @property
    def fitted(self) -> tuple[Button, ...]:
        """The buttons that have a pin."""
        ...

    def close(self) -> None: ...


class SimulatedInput(InputSource, Protocol):
    """Buttons on simulated pins (`erabox.adapters.buttons.SimulatedButtons`), which software
    can press like a finger: the window's keys, the terminal's keys, `--script` lines and the
    benchmarks go through the same gesture recogniser as a real press. Real pins do not
    implement this."""

    def pin_down(self, button: Button) -> None:
        """Pull the pin of `button` low, as a finger would (BOTH: NEXT and ERA)."""
        ...

    def pin_up(self, button: Button) -> None:
        """Let the pin of `button` go high again (BOTH: NEXT and ERA)."""
        ...

    def perform(self, gesture: Input, held_s: float = 0.0) -> threading.Thread:
        """Act out `gesture` on the simulated pins (a hold kept on `held_s` past its
        threshold); returns the thread that releases them."""
        ...


# --- watching a running box -------------------------------------------------------------------


class BoxView(Protocol):
    """What an observer may use of the running box: read the game, post items, see the end."""

    @property
    def game(self) -> Play: ...

    def game_now(self) -> Play:
        """The game played now (`engine.phase_of` reads where it stands)."""
        ...

    @property
    def stopped(self) -> threading.Event: ...

    def post(self, item: InboxItem) -> None: ...


class BoxObserver(Protocol):
    """The one hook through which benchmarks and tests watch a running box.

    Times are monotonic seconds on the box's clock. Callbacks run on the thread named in each
    and must return quickly (record and notify, nothing more): they sit in the loop's path.
    """

    def ready(self, box: BoxView, pins: SimulatedInput | None) -> None:
        """Main thread, once the loop runs, with the buttons when their pins are simulated
        (None on real pins). Whoever it starts ends the run with `Stop`."""
        ...

    def input(self, item: Input, t: float) -> None:
        """Loop thread: `item` was taken from the inbox at `t`."""
        ...

    def stepped(self, event: Input | Tick, game: Play, t: float) -> None:
        """Loop thread: `event`'s step has just replaced the game with `game` (at `t`)."""
        ...

    def applied(self, effects: Sequence[AnyEffect], due: float | None, now: float,
                t: float) -> None:
        """Loop thread: `effects` went to the audio port at `t` (before LED, save and screen).

        `now` is the loop's time of the step; `due` the deadline that fired it (None for an
        input, a restore or a power cut).
        """
        ...

    def frame(self, t: float) -> None:
        """Screen thread: a frame was handed to the display at `t`."""
        ...
