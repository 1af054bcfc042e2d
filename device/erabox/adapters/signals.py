"""Signals in, inbox items out, on a thread of their own.

Python runs a signal handler only when the main thread next executes Python code; with a
desktop window the main thread sits in SDL's event wait, so Ctrl-C or SIGTERM did nothing until
the window got input. Here the C-level handler writes the signal number to a socket
(`signal.set_wakeup_fd`) and a small thread turns it into an inbox item at once.

What each signal does (the conventions of a daemon under systemd and of a terminal program):
- SIGTERM (systemd stop), SIGINT (Ctrl-C), SIGHUP (terminal closed), SIGQUIT (Ctrl-\\):
  save the game and exit cleanly (exit 0).
- SIGUSR1: save the game now and keep running.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
SAVE_SIGNALS = (signal.SIGUSR1,)


class SignalWatcher:
    """Installs the handlers (call from the main thread); `close()` puts the old ones back.

    `on_stop(name)` and `on_save(name)` are called on the watcher's thread."""

    def __init__(self, on_stop: Callable[[str], None], on_save: Callable[[str], None]) -> None:
        self._on_stop = on_stop
        self._on_save = on_save
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        self._old_handlers: dict[int, Any] = {}
        for number in (*STOP_SIGNALS, *SAVE_SIGNALS):
            # The Python-level handler has nothing left to do: the wakeup fd carries it.
            self._old_handlers[number] = signal.signal(number, _nothing)
        self._old_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._thread = threading.Thread(target=self._run, name="erabox-signals", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                data = self._reader.recv(64)
            except OSError:
                return
            if not data:
                return
            for number in data:
                if number in STOP_SIGNALS:
                    self._on_stop(signal.Signals(number).name)
                elif number in SAVE_SIGNALS:
                    self._on_save(signal.Signals(number).name)

    def close(self) -> None:
        signal.set_wakeup_fd(self._old_fd)
        for number, handler in self._old_handlers.items():
            with contextlib.suppress(TypeError, ValueError):
                signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        self._writer.close()  # the reader sees the end and its thread returns
        self._thread.join(timeout=2.0)
        self._reader.close()


def _nothing(signum: int, frame: object) -> None:
    """The Python-level handler; the work happens on the watcher's thread."""
