"""Issue #10, items 5, 4 and 8 (part): signals save and end the box cleanly (or save and keep
it running), at once even with a desktop window waiting for input; a save that fails is shown
on the screen and retried."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters import state_file as state_file_module
from erabox.adapters.display import NullDisplay
from erabox.adapters.state_file import StateFile
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input
from erabox.run.app import Box, Redraw, ScreenWorker, Stop
from saved_game import saved_mode, saved_position
from test_run import SHORT_ERA, daemon_env, read_events, start_daemon, wait_for

LONG_ERA = SHORT_ERA.replace("length_s = 4", "length_s = 600").replace("[1.5, 3]", "[300]")


def saved(tmp_path: Path) -> dict[str, Any]:
    return dict(json.loads((tmp_path / "state.json").read_text(encoding="utf-8")))


def saved_at(tmp_path: Path) -> tuple[str, float | None]:
    """Where the saved game stands (either engine's record) and its running time."""
    return saved_position(saved(tmp_path), 600)


def running_daemon(tmp_path: Path, events: Path) -> subprocess.Popen[bytes]:
    proc = start_daemon(tmp_path, LONG_ERA, "0.1 era press\n", events)
    wait_for(lambda: any(e.get("state") == "running" for e in read_events(events)), 60,
             "the era to start")
    # The era's first save (running time 0) is on disk: what a signal must improve on.
    wait_for(lambda: (tmp_path / "state.json").exists()
             and saved_at(tmp_path)[0] == "running", 30, "the first save")
    return proc


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGQUIT, signal.SIGINT])
def test_hangup_quit_and_interrupt_save_and_exit_cleanly(tmp_path: Path,
                                                         sig: signal.Signals) -> None:
    events = tmp_path / "events.jsonl"
    proc = running_daemon(tmp_path, events)
    try:
        wait_for(lambda: read_events(events)[-1]["t"] > 0 and
                 any(e.get("sound") == "music_start" for e in read_events(events)), 30,
                 "running time to pass")
        proc.send_signal(sig)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    log = (tmp_path / "run.log").read_text()
    assert code == 0, log
    assert sig.name in log  # "stopping (SIGHUP)"
    phase, elapsed = saved_at(tmp_path)
    assert phase == "running" and elapsed is not None and elapsed > 0


def test_usr1_saves_now_and_keeps_running(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    proc = running_daemon(tmp_path, events)
    try:
        first = saved_at(tmp_path)[1]
        assert first is not None
        proc.send_signal(signal.SIGUSR1)
        wait_for(lambda: (saved_at(tmp_path)[1] or 0.0) > first, 30,
                 "the save SIGUSR1 asks for")
        assert proc.poll() is None, "SIGUSR1 must not end the box"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


# A desktop window's main thread sits in SDL's event wait: a C wait that a signal does not end
# (the X11 driver retries it). Python runs signal handlers only between bytecodes of the main
# thread, so the box must not depend on them. This stand-in for the window blocks the main
# thread the same way (pthread_cond_wait resumes after a signal) until the box has stopped.
STUCK_WINDOW = """
import ctypes, sys, threading
from erabox import cli
from erabox.adapters import window

libc = ctypes.CDLL(None)
mutex, cond = ctypes.create_string_buffer(128), ctypes.create_string_buffer(128)

class StuckWindow:
    problem = None
    def __init__(self, config):
        pass
    def show(self, image, label=None):
        pass
    def close(self):
        pass
    def run(self, buttons, post, stopped):
        def wake():
            stopped.wait()
            libc.pthread_mutex_lock(mutex)
            libc.pthread_cond_signal(cond)
            libc.pthread_mutex_unlock(mutex)
        threading.Thread(target=wake, daemon=True).start()
        libc.pthread_mutex_lock(mutex)
        while not stopped.is_set():
            libc.pthread_cond_wait(cond, mutex)
        libc.pthread_mutex_unlock(mutex)

window.WindowDisplay = StuckWindow
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_end_the_desktop_window_without_any_input(
        tmp_path: Path, sig: signal.Signals) -> None:
    events = tmp_path / "events.jsonl"
    (tmp_path / "stuck_window.py").write_text(STUCK_WINDOW, encoding="utf-8")
    env = daemon_env(tmp_path)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)  # this checkout's device
    with open(tmp_path / "run.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(tmp_path / "stuck_window.py"), "run", "--display", "window",
             "--audio", "none", "--events", str(events)],
            env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        wait_for(lambda: read_events(events), 60, "the box to start")
        proc.send_signal(sig)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{sig.name} did not end the box while the window "
                                 "waited for input") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0, (tmp_path / "run.log").read_text()
    assert saved_at(tmp_path)[0] == "setup"


# --- item 4: saving fails -> on screen, retried --------------------------------------------------


def test_a_failing_save_is_shown_on_screen_and_retried(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_file_module, "RETRY_S", 0.05)
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    shown = threading.Condition()
    marks: list[bool] = []

    class Screens(ScreenWorker):
        def show(self, screen_model: Any, no_sound: bool, t: float, look: Any = None,
                 contrast: int = 255, no_save: bool = False, no_file: bool = False) -> None:
            with shown:
                marks.append(no_save)
                shown.notify_all()
            super().show(screen_model, no_sound, t, look, contrast, no_save=no_save,
                         no_file=no_file)

    def wait_mark(value: bool) -> None:
        with shown:
            assert shown.wait_for(lambda: marks and marks[-1] is value, 30), marks

    state = StateFile(blocker / "state.json")
    screens = Screens(NullDisplay(), "en")
    box = Box(Config(guide=False), state_file=state, screen_worker=screens)  # setup: the mode
    state.on_change = lambda: box.post(Redraw())
    box.start_game()
    loop = threading.Thread(target=box.run_loop)
    loop.start()
    try:
        box.post(Input(Button.NEXT, Gesture.PRESS))  # a change worth saving: intro mode
        wait_mark(True)
        assert state.problem is not None and "cannot save" in state.problem
        blocker.unlink()  # the card is writable again: the retry saves without a new change
        wait_mark(False)
        assert state.problem is None
        assert saved_mode((blocker / "state.json").read_text(encoding="utf-8")) == "intro"
    finally:
        box.post(Stop("test over"))
        loop.join(timeout=10)
        screens.close()
