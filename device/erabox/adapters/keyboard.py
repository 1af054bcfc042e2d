"""Keys in a terminal, for the box on a laptop without a desktop (SSH, a bare console).

A terminal reports key presses but not releases, so each key is one gesture, acted out on the
simulated pins as a finger would (press = pin low 0.1 s; hold = held past the hold time):
    n NEXT press     N NEXT hold (+5 in the entry of points)
    1..9, 0          NEXT held on until letting go adds +5 .. +45, +50 (the hold's steps)
    e ERA press      E ERA hold
    b NEXT+ERA short press (-1 in the entry of points)     B both held 3 s (New game?)
    + / - volume     q quit
So every gesture README teaches has its key, and a number takes as many keys as it takes
gestures on the box (17: `3 n n e`; 19: `4 b e`). The help line under the screen says what the
game being played does with them: a game profile's hold adds +5 however long it lasts and its
both-buttons press does nothing (docs/profiles.md), so its line names neither the hold's steps
nor -1; it changes when the settings menu switches games (`set_game`).

Keys are never lost however fast they come: they queue, and a "finger" thread acts them out
one after the other, each let go and seen let go (the debounce) before the next goes down.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import sys
import termios
import threading
import tty
from typing import TextIO

from erabox.adapters.buttons import act_out
from erabox.adapters.display import TerminalDisplay
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import HOLD_ADDS, RAMP_MAX, RAMP_S
from erabox.ports import DisplayPort, Post, SimulatedInput, Stop

log = logging.getLogger("erabox.keyboard")

NEXT_HOLD = Input(Button.NEXT, Gesture.HOLD)
KEYS = {
    "n": Input(Button.NEXT, Gesture.PRESS),
    "N": NEXT_HOLD,
    "e": Input(Button.ERA, Gesture.PRESS),
    "E": Input(Button.ERA, Gesture.HOLD),
    "b": Input(Button.BOTH, Gesture.PRESS),
    "B": Input(Button.BOTH, Gesture.HOLD),
    "+": Input(Button.VOL_UP, Gesture.PRESS),
    "=": Input(Button.VOL_UP, Gesture.PRESS),
    "-": Input(Button.VOL_DOWN, Gesture.PRESS),
}
# The hold's steps: digit d lets go when the hold adds 5 x d (0: the most, +50).
STEP_KEYS = {str(d % 10): d for d in range(1, RAMP_MAX // HOLD_ADDS + 1)}
HELP = ("n/N NEXT press/hold  1-9 0 NEXT held to +5..+45 +50  e/E ERA press/hold  "
        "b/B both press(-1)/hold(new game)  +/- volume  q quit")
# A game profile: NEXT held adds +5 in the points (undo in rounds), whatever the key
PROFILE_HELP = ("n/N NEXT press/hold(+5 in points, undo in rounds)  e/E ERA press/hold  "
                "B both held(new game)  +/- volume  q quit")


def help_line(profile: bool) -> str:
    """The keys' help line for Time of Empires (`profile` False) or a game profile."""
    return PROFILE_HELP if profile else HELP


def held_past_threshold(steps: int) -> float:
    """How long a NEXT hold stays down past its threshold so that letting go adds
    `steps` x 5: the middle of that step's half second (a quarter second either way)."""
    return (steps - 1) * RAMP_S + RAMP_S / 2


class KeyboardInput:
    """Reads single keys from a terminal on one thread (blocking reads: no polling) and acts
    them out in order on another."""

    def __init__(self, buttons: SimulatedInput | None, post: Post, bounce_s: float = 0.02,
                 display: DisplayPort | None = None, stream: TextIO | None = None,
                 profile: bool = False) -> None:
        """`display`: where the help line goes (under a terminal's frame; else printed);
        `profile`: a game profile is played (its own help line)."""
        self._buttons = buttons
        self._post = post
        self._stream = stream or sys.stdin
        self._fd = self._stream.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._closed = threading.Event()
        self._handlers: list[tuple[logging.StreamHandler[TextIO], TextIO]] = []
        self._gap_s = 2 * bounce_s + 0.02  # let go long enough for the debounce to see it
        self._keys: queue.Queue[tuple[Input, float] | None] = queue.Queue()
        self._display = display
        self._help = help_line(profile)
        if display is not None:
            self.show_help(display)
        self._finger = threading.Thread(target=self._act, name="erabox-finger", daemon=True)
        self._finger.start()
        self._thread = threading.Thread(target=self._run, name="erabox-keys", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._closed.is_set():
            try:
                data = os.read(self._fd, 64)  # everything typed so far: none is dropped
            except OSError:
                return
            if not data:
                return
            for key in data.decode(errors="ignore"):
                if key in ("q", "\x03"):
                    self._post(Stop("q pressed"))
                    return
                if key in KEYS:
                    self._keys.put((KEYS[key], 0.0))
                elif key in STEP_KEYS:
                    self._keys.put((NEXT_HOLD, held_past_threshold(STEP_KEYS[key])))

    def _act(self) -> None:
        """One gesture at a time: down, up, and a short pause, like a quick finger."""
        while True:
            item = self._keys.get()
            if item is None or self._closed.is_set():
                return
            gesture, held_s = item
            if self._buttons is None:
                act_out(gesture, None, self._post, held_s)
                continue
            try:
                released = self._buttons.perform(gesture, held_s)
            except Exception as exc:  # a button that is not fitted: hand the gesture over
                log.debug("acting out %s: %s", gesture, exc)
                self._post(gesture)
                continue
            released.join()
            self._closed.wait(self._gap_s)

    def show_help(self, display: DisplayPort) -> None:
        """The help line under the screen drawn in this terminal, and the log below it (so no
        log line overwrites either); elsewhere the help line is printed once."""
        if not (isinstance(display, TerminalDisplay) and display.tty):
            print(self._help, file=sys.stderr)
            return
        display.set_footer(self._help)
        for handler in logging.getLogger().handlers:
            if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stderr:
                self._handlers.append((handler, handler.stream))
                handler.setStream(display.log_stream())

    def set_game(self, profile: bool) -> None:
        """The settings menu switched games: the help line of the one now played (`profile`:
        a game profile), under the frame (else printed once more)."""
        line = help_line(profile)
        if line == self._help:
            return
        self._help = line
        if isinstance(self._display, TerminalDisplay) and self._display.tty:
            self._display.set_footer(line)
        elif self._display is not None:
            print(line, file=sys.stderr)

    def close(self) -> None:
        """Give the terminal its settings back."""
        self._closed.set()
        self._keys.put(None)
        for handler, stream in self._handlers:
            handler.setStream(stream)
        with contextlib.suppress(termios.error):
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)

