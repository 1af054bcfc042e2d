"""Run the real daemon (`erabox.run.app.run`) in this process and act on it like a player.

`run_in_process` starts `erabox run` exactly as the command line does (config file, mock pins,
pygame's mixer on SDL's `dummy` driver unless `SDL_AUDIODRIVER` says otherwise, no display),
watched through its one observer hook (`erabox.ports.BoxObserver`): `TraceLog` records every
"input", "state", "mixer" and "frame" moment and the cues fired by deadlines, and its `ready`
hands over the box and its buttons so a scenario thread can pull the mock pins like a finger and
read the game the loop owns. `run()` wants the main thread (it
installs signal handlers), so the scenario runs on a thread of its own and ends the run with
`Stop`.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import resource
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from erabox.core.engine import AnyEffect, phase_of
from erabox.core.model import Button, Input, Music, Phase, PlaySound, SetVolume, Tick
from erabox.core.play import Play
from erabox.ports import BoxView, SimulatedInput, Stop

T = TypeVar("T")

PRESS_DOWN_S = 0.05  # a quick tap: longer than the 20 ms debounce, so it counts as a press


QUIET_WINDOW_S = 0.25
QUIET_SHARE = 0.05  # "quiet": under 5 % of a core over a window
QUIET_TIMEOUT_S = 30.0


def process_cpu_seconds() -> float:
    """CPU time (user + system) of this process so far, all threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class DaemonStopped(RuntimeError):
    """The daemon stopped (Ctrl-C, SIGTERM) while a scenario was still waiting on it."""


@dataclass(frozen=True)
class TraceEntry:
    """One moment the daemon reported. `game` is the game right after an input's step."""

    kind: str  # "input", "state", "mixer", "frame"
    t: float  # monotonic seconds
    game: Play | None = None


class TraceLog:
    """The box's observer (`erabox.ports.BoxObserver`): records moments in arrival order and
    wakes whoever waits on them. `on_ready(box, buttons)` is called from `ready`."""

    def __init__(self,
                 on_ready: Callable[[BoxView, SimulatedInput | None], None] | None = None,
                 ) -> None:
        self._cond = threading.Condition()
        self.entries: list[TraceEntry] = []
        self.box: BoxView | None = None
        self._on_ready = on_ready
        self._closed = False
        # (due, dispatched, sound) of the latest cues fired by a deadline: what the cue bench
        # measures lateness from. Bounded, as a long soak fires many.
        self.cue_log: deque[tuple[float, float, str]] = deque(maxlen=10_000)

    def _record(self, kind: str, t: float, game: Play | None = None) -> None:
        with self._cond:
            self.entries.append(TraceEntry(kind, t, game))
            self._cond.notify_all()

    # -- BoxObserver --

    def ready(self, box: BoxView, pins: SimulatedInput | None) -> None:
        self.box = box
        if self._on_ready is not None:
            self._on_ready(box, pins)

    def input(self, item: Input, t: float) -> None:
        self._record("input", t)

    def stepped(self, event: Input | Tick, game: Play, t: float) -> None:
        # Only inputs: "state" is the game right after an input's step.
        if isinstance(event, Input):
            self._record("state", t, game)

    def applied(self, effects: Sequence[AnyEffect], due: float | None, now: float,
                t: float) -> None:
        if due is not None:
            for effect in effects:
                if isinstance(effect, PlaySound):
                    # the clock when the mixer got it: the loop hands cues over a lead
                    # early (`Box.lead_s`) and steps the game at the deadline (`now`)
                    self.cue_log.append((due, t, effect.sound.value))
        if any(isinstance(e, PlaySound | Music | SetVolume) for e in effects):
            self._record("mixer", t)

    def frame(self, t: float) -> None:
        self._record("frame", t)

    def mark(self) -> int:
        """A bookmark: entries recorded after it are `since(mark)`."""
        with self._cond:
            return len(self.entries)

    def since(self, mark: int) -> list[TraceEntry]:
        """The entries recorded after `mark`."""
        with self._cond:
            return self.entries[mark:]

    def wait_until(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        """Block until `predicate()` is true, re-checking whenever the daemon reports anything.

        Raises `TimeoutError` naming `what` after `timeout` seconds, `DaemonStopped` if the
        daemon ends first.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                if self._closed:
                    raise DaemonStopped(f"the daemon stopped while waiting for {what}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
                self._cond.wait(left)

    def close(self) -> None:
        """The daemon has stopped: wake every waiter."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class Session:
    """What a scenario gets: the running box, its buttons, the trace, and a finger."""

    def __init__(self, box: BoxView, buttons: SimulatedInput, trace: TraceLog) -> None:
        self.box = box
        self.buttons = buttons
        self.trace = trace

    @property
    def game(self) -> Play:
        """The game as the loop last left it (an immutable value: safe to read anywhere)."""
        return self.box.game_now()

    @property
    def phase(self) -> Phase:
        """Where the game stands now, in Time of Empires' words (`engine.phase_of`)."""
        return phase_of(self.game, time.monotonic())

    def pause_for(self, seconds: float) -> None:
        """Let `seconds` pass (a deliberate stimulus gap, e.g. how long a finger stays down)."""
        if seconds > 0 and self.box.stopped.wait(seconds):
            raise DaemonStopped("the daemon stopped")

    def wait_until_time(self, when: float) -> None:
        """Let time pass until the monotonic time `when`."""
        self.pause_for(when - time.monotonic())

    def wait_until_quiet(self, timeout: float = QUIET_TIMEOUT_S) -> float:
        """Wait until this process is nearly idle; returns how long that took.

        Setting up an era decodes its music in the background (a second or more of CPU, and on
        a Pi much more). A table spends far longer than that in setup and scoring, so the
        measurements start the era only once that work is done, as at a real table. Measured
        as CPU time over short windows: nothing in the box announces it.
        """
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            before = process_cpu_seconds()
            self.pause_for(QUIET_WINDOW_S)
            if process_cpu_seconds() - before < QUIET_WINDOW_S * QUIET_SHARE:
                return time.monotonic() - began
        return time.monotonic() - began

    def press(self, button: Button, down_s: float = PRESS_DOWN_S) -> float:
        """Tap `button` on its mock pin; returns the monotonic time of the release edge.

        A press fires on release, so the release edge is where the gesture's latency starts.
        """
        self.buttons.pin_down(button)
        self.pause_for(down_s)
        released = time.monotonic()
        self.buttons.pin_up(button)  # the edge callback runs right here, on this thread
        return released

    def hold(self, button: Button, hold_s: float, margin_s: float = 0.05) -> None:
        """Hold `button` down past the hold threshold, then let go."""
        self.buttons.pin_down(button)
        self.pause_for(hold_s + margin_s)
        self.buttons.pin_up(button)

    def leave_scoring(self, timeout: float = 10.0) -> None:
        """ERA presses through an era's scoring (0 points for everyone, the standings, a
        tie-break after Era III) until the next era's setup or game over."""
        for _ in range(100):
            if self.phase is not Phase.SCORING:
                return
            before = self.game
            self.press(Button.ERA)
            self.trace.wait_until(_changed_from(self, before), timeout,
                                  "the scoring to take the press")
        raise RuntimeError("the scoring never ended")

    def wait_phase(self, phase: Phase, timeout: float) -> Play:
        """Wait until the game is in `phase` (checked whenever the daemon reports a moment)."""
        self.trace.wait_until(lambda: self.phase is phase, timeout, f"phase {phase}")
        return self.game


def _changed_from(session: Session, before: Play) -> Callable[[], bool]:
    """True once the session's game is another value than `before`."""
    return lambda: session.game is not before


@dataclass
class InProcessRun(Generic[T]):
    """What one in-process run left behind."""

    result: T
    trace: TraceLog
    box: BoxView | None
    exit_code: int


def daemon_variables(workdir: Path) -> dict[str, str]:
    """Mock pins, a private state file, and SDL's silent `dummy` audio unless one is chosen.

    `SDL_AUDIODRIVER` set by the caller is kept, so on a Pi `SDL_AUDIODRIVER=alsa` measures
    with the real sound card.
    """
    return {
        "GPIOZERO_PIN_FACTORY": "mock",  # the bench pulls the pins itself
        "SDL_AUDIODRIVER": os.environ.get("SDL_AUDIODRIVER", "dummy"),
        "ERABOX_STATE": str(workdir / "state.json"),
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }


@contextlib.contextmanager
def daemon_environment(workdir: Path) -> Iterator[None]:
    """`daemon_variables` set in this process for the duration; restored afterwards."""
    wanted = daemon_variables(workdir)
    saved = {key: os.environ.get(key) for key in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class ProblemLog(logging.Handler):
    """Counts what went wrong during a run: ERROR log records and uncaught thread exceptions.

    Use as a context manager; it attaches to the root logger and `threading.excepthook` and
    detaches on exit. The box logs a problem once and goes on, so any count above 0 matters.
    """

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.problems: list[str] = []
        self._hook: Callable[[threading.ExceptHookArgs], Any] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        self.problems.append(text)

    def _thread_died(self, args: threading.ExceptHookArgs) -> None:
        name = args.thread.name if args.thread is not None else "?"
        self.problems.append(f"thread {name} died: {args.exc_type.__name__}: {args.exc_value}")
        if self._hook is not None:
            self._hook(args)

    def __enter__(self) -> ProblemLog:
        logging.getLogger().addHandler(self)
        self._hook = threading.excepthook
        threading.excepthook = self._thread_died
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self)
        if self._hook is not None:
            threading.excepthook = self._hook


def run_in_process(config_text: str, scenario: Callable[[Session], T], workdir: Path,
                   *, audio: str = "auto", events: Path | None = None) -> InProcessRun[T]:
    """Run `erabox run` in this process with `config_text` while `scenario` plays it.

    Must be called on the main thread. The scenario's return value comes back in the result;
    an exception it raises is re-raised here after the daemon has shut down cleanly. `events`
    is the daemon's `--events` file (none by default).
    """
    from erabox.run.app import run

    workdir.mkdir(parents=True, exist_ok=True)
    config_path = workdir / "erabox.toml"
    config_path.write_text(config_text, encoding="utf-8")
    outcome: dict[str, Any] = {}
    threads: list[threading.Thread] = []

    def on_ready(box: BoxView, pins: SimulatedInput | None) -> None:
        def play() -> None:
            try:
                if pins is None:  # GPIOZERO_PIN_FACTORY is set to mock above: never here
                    raise RuntimeError("the bench needs simulated pins, the box has real ones")
                session = Session(box, pins, trace)
                outcome["result"] = scenario(session)
            except BaseException as exc:  # handed back to the main thread below
                outcome["error"] = exc
            finally:
                box.post(Stop("bench scenario done"))

        thread = threading.Thread(target=play, name="erabox-bench-scenario", daemon=True)
        threads.append(thread)
        thread.start()

    trace = TraceLog(on_ready)
    args = argparse.Namespace(config=str(config_path), display="none", audio=audio,
                              script=None, events=None if events is None else str(events))
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with daemon_environment(workdir):
            code = run(args, observer=trace)
    finally:
        # run() installed its own handlers; give Ctrl-C back to the bench.
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        trace.close()
        for thread in threads:
            thread.join(timeout=5.0)
    if "error" in outcome:
        raise outcome["error"]
    if "result" not in outcome:
        raise DaemonStopped("the daemon stopped before the scenario finished")
    return InProcessRun(outcome["result"], trace, trace.box, code)
