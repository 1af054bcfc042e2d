"""Keys in a terminal, for the box on a laptop without a desktop (SSH, a bare console).

A terminal reports key presses but not releases, so each key is one gesture, acted out on the
simulated pins exactly as a script would (press = pin low 0.1 s, hold = hold time + 0.1 s):
    n NEXT press    N NEXT hold    e ERA press    E ERA hold
    b both held (New game?)        + / - volume   q quit
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import termios
import threading
import tty
from typing import TextIO

from erabox.adapters.buttons import act_out
from erabox.core.model import Button, Gesture, Input
from erabox.ports import Post, SimulatedInput, Stop

log = logging.getLogger("erabox.keyboard")

KEYS = {
    "n": Input(Button.NEXT, Gesture.PRESS),
    "N": Input(Button.NEXT, Gesture.HOLD),
    "e": Input(Button.ERA, Gesture.PRESS),
    "E": Input(Button.ERA, Gesture.HOLD),
    "b": Input(Button.BOTH, Gesture.HOLD),
    "B": Input(Button.BOTH, Gesture.HOLD),
    "+": Input(Button.VOL_UP, Gesture.PRESS),
    "=": Input(Button.VOL_UP, Gesture.PRESS),
    "-": Input(Button.VOL_DOWN, Gesture.PRESS),
}
HELP = "keys: n/N NEXT press/hold, e/E ERA press/hold, b both (new game), +/- volume, q quit"


class KeyboardInput:
    """Reads single keys from a terminal on a thread (blocking reads: no polling)."""

    def __init__(self, buttons: SimulatedInput | None, post: Post,
                 stream: TextIO | None = None) -> None:
        self._buttons = buttons
        self._post = post
        self._stream = stream or sys.stdin
        self._fd = self._stream.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._closed = False
        print(HELP, file=sys.stderr)
        self._thread = threading.Thread(target=self._run, name="erabox-keys", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._closed:
            try:
                data = os.read(self._fd, 1)
            except OSError:
                return
            if not data:
                return
            key = data.decode(errors="ignore")
            if key in ("q", "\x03"):
                self._post(Stop("q pressed"))
                return
            if key in KEYS:
                act_out(KEYS[key], self._buttons, self._post)

    def close(self) -> None:
        """Give the terminal its settings back."""
        self._closed = True
        with contextlib.suppress(termios.error):
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
