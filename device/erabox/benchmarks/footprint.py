"""What the box costs: CPU while an era runs, memory, start-up time, render time, frames.

- CPU: the in-process daemon plays a real era (default config, music on the mixer); the
  process's CPU time (`resource.getrusage`, all threads) over a window of running time, with
  the bench's own scenario thread asleep. Frames handed to the display are counted in the
  same window.
- Memory and start-up: `erabox run` as a separate process, exactly as the service starts it
  (the console script, `--display none`, mock pins, SDL's dummy audio). Start-up is the time
  from spawning it to its "ready" log line; peak RSS is the kernel's high-water mark
  (`VmHWM` in /proc/PID/status) after an era has run with its music loaded; then SIGTERM, and
  the time to a clean exit.
- Render time: `render_times_ms` here.
- A round game's save, its undo history full: `measure_save` here.
"""

from __future__ import annotations

import contextlib
import os
import queue
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erabox.core.model import Button, Mode, Phase, Screen
from erabox.core.rules import ERA_LENGTH_S, SCHOLAR_CUES_S

from .harness import Session, daemon_variables, process_cpu_seconds, run_in_process
from .stats import percentile, summary_ms

# A real era (9 minutes, cries at 3:00 and 6:00) without the lead-in, so it runs at once.
RUNNING_ERA_CONFIG = """
[realtime]
lead_in_s = 0
"""
WARM_UP_S = 2.0  # let the era's first second (start gong, music start) pass before measuring
READY_TIMEOUT_S = 60.0


def measure_cpu(window_s: float, workdir: Path) -> dict[str, Any]:
    """CPU seconds per minute and frames per minute of the in-process daemon while an era runs."""

    def scenario(session: Session) -> dict[str, Any]:
        session.wait_phase(Phase.SETUP, 10)
        session.wait_until_quiet()  # the era's music is decoded while setup shows
        session.press(Button.ERA)
        session.wait_phase(Phase.RUNNING, 10)
        session.pause_for(WARM_UP_S)
        frames_before = session.trace.mark()
        cpu_before, wall_before = process_cpu_seconds(), time.monotonic()
        session.pause_for(window_s)
        cpu_after, wall_after = process_cpu_seconds(), time.monotonic()
        frames = sum(1 for e in session.trace.since(frames_before) if e.kind == "frame")
        wall = wall_after - wall_before
        cpu = cpu_after - cpu_before
        return {
            "window_s": round(wall, 3),
            "cpu_s": round(cpu, 4),
            "cpu_s_per_min": round(cpu / wall * 60, 4),
            "cpu_percent_of_core": round(cpu / wall * 100, 3),
            "frames_per_min": round(frames / wall * 60, 2),
            "still_running": session.phase is Phase.RUNNING,
        }

    return run_in_process(RUNNING_ERA_CONFIG, scenario, workdir).result


def erabox_command() -> list[str]:
    """How the service starts the box: the `erabox` console script next to this Python."""
    script = Path(sys.executable).with_name("erabox")
    if script.exists():
        return [str(script)]
    found = shutil.which("erabox")
    return [found] if found else [sys.executable, "-m", "erabox"]


def _proc_status(pid: int) -> dict[str, int]:
    """The kB figures of /proc/PID/status (VmRSS, VmHWM, ...); empty where there is no /proc."""
    figures: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return figures
    for line in text.splitlines():
        key, _, value = line.partition(":")
        words = value.split()
        if len(words) == 2 and words[1] == "kB":
            figures[key] = int(words[0])
    return figures


def _proc_cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process from /proc/PID/stat, or None without /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Daemon:
    """`erabox run` as a child process, with its log lines read as they come."""

    def __init__(self, workdir: Path, config_text: str, extra: list[str] | None = None,
                 name: str = "daemon", command: list[str] | None = None) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        config = workdir / f"{name}.toml"
        config.write_text(config_text, encoding="utf-8")
        self.log_path = workdir / f"{name}.log"
        env = dict(os.environ)
        env.update(daemon_variables(workdir))
        env["ERABOX_LOG"] = "INFO"
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.log: list[str] = []
        self.spawned = time.monotonic()
        self.proc = subprocess.Popen(
            [*(command or erabox_command()), "run", "--config", str(config), "--display", "none",
             *(extra or [])],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        with self.log_path.open("w", encoding="utf-8") as copy:
            for line in self.proc.stderr:
                copy.write(line)
                self.log.append(line)
                self.lines.put(line)
        self.lines.put(None)

    def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> float:
        """Seconds from spawn to the "ready" log line."""
        deadline = self.spawned + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"erabox run was not ready within {timeout:g} s "
                                   f"(log: {self.log_path})") from None
            if line is None:
                raise RuntimeError(f"erabox run exited before it was ready "
                                   f"(code {self.proc.wait()}, log: {self.log_path})")
            if line.rstrip().endswith(": ready"):
                return time.monotonic() - self.spawned

    def terminate(self, timeout: float = 10.0) -> float:
        """SIGTERM; seconds until the process has exited."""
        sent = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError(f"erabox run did not end within {timeout:g} s of SIGTERM "
                               f"(log: {self.log_path})") from None
        self._reader.join(timeout=5.0)
        return time.monotonic() - sent

    def problems(self) -> list[str]:
        """Log lines at ERROR or worse, and tracebacks."""
        return [line.rstrip() for line in self.log
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]

    def kill(self) -> None:
        """Last resort when a measurement failed half-way."""
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()


# `erabox run` as the Pi service has it: the service venv carries only the `pi` extra, so no
# numpy, which pygame imports whenever it can (~11 MB here). The dev venv has numpy for tests.
WITHOUT_NUMPY = [sys.executable, "-c",
                 "import sys; sys.modules['numpy'] = None; from erabox.cli import main; "
                 "sys.exit(main(sys.argv[1:]))"]


def measure_process(starts: int, era_s: float, workdir: Path) -> dict[str, Any]:
    """Start-up time over `starts` spawns; the last runs an era `era_s` for the peak RSS.

    One more spawn runs the same era without numpy importable, as the Pi service runs.
    """
    ready: list[float] = []
    shutdown: list[float] = []
    for index in range(starts - 1):
        daemon = Daemon(workdir / f"start{index}", "")
        try:
            ready.append(daemon.wait_ready())
            shutdown.append(daemon.terminate())
        finally:
            if daemon.proc.poll() is None:
                daemon.kill()
    era = _era_memory(workdir / "era", era_s, erabox_command())
    ready.append(era.pop("ready_s"))
    shutdown.append(era.pop("shutdown_s"))
    pi_like = _era_memory(workdir / "era-no-numpy", era_s, WITHOUT_NUMPY)
    return {
        "starts": len(ready),
        "ready_s": [round(r, 3) for r in ready],
        "ready_median_s": round(percentile(ready, 50), 3),
        "ready_max_s": round(max(ready), 3),
        "shutdown_after_sigterm_s": [round(s, 3) for s in shutdown],
        **era,
        "without_numpy": pi_like,
    }


def _era_memory(workdir: Path, era_s: float, command: list[str]) -> dict[str, Any]:
    """Spawn the daemon, start an era (its music loaded), run `era_s`, read its memory."""
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / "era.script"
    script.write_text("0.2 era press\n", encoding="utf-8")
    events = workdir / "era.events"
    daemon = Daemon(workdir, RUNNING_ERA_CONFIG,
                    ["--script", str(script), "--events", str(events)], name="era",
                    command=command)
    try:
        ready = daemon.wait_ready()
        at_ready = _proc_status(daemon.proc.pid)
        started = time.monotonic()
        _wait_for_running(events, daemon, timeout=20.0)
        cpu_before = _proc_cpu_seconds(daemon.proc.pid)
        # Measure for era_s of running time (the process's own threads do the work).
        with contextlib.suppress(subprocess.TimeoutExpired):
            daemon.proc.wait(timeout=era_s)
        cpu_after = _proc_cpu_seconds(daemon.proc.pid)
        ran = time.monotonic() - started
        status = _proc_status(daemon.proc.pid)
        shutdown = daemon.terminate()
    finally:
        if daemon.proc.poll() is None:
            daemon.kill()
    peak_kb = status.get("VmHWM", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    cpu = None
    if cpu_before is not None and cpu_after is not None:
        cpu = round((cpu_after - cpu_before) / era_s * 100, 3)
    return {
        "ready_s": ready,
        "shutdown_s": shutdown,
        "peak_rss_mb": round(peak_kb / 1024, 2),
        "rss_at_ready_mb": round(at_ready.get("VmRSS", 0) / 1024, 2),
        "rss_at_end_mb": round(status.get("VmRSS", 0) / 1024, 2),
        "era_run_s": round(ran, 2),
        "subprocess_cpu_percent_of_core": cpu,
        "exit_code": daemon.proc.returncode,
        "log_problems": daemon.problems(),
    }


def _wait_for_running(events: Path, daemon: Daemon, timeout: float) -> None:
    """Wait until the daemon's event file says the era runs (read as the daemon writes it)."""
    deadline = time.monotonic() + timeout
    while '"state": "running"' not in _text(events):
        if daemon.proc.poll() is not None:
            raise RuntimeError(f"erabox run exited early (log: {daemon.log_path})")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the era did not start within {timeout:g} s")
        # The event file has no notification to wait on: look again shortly.
        with contextlib.suppress(subprocess.TimeoutExpired):
            daemon.proc.wait(timeout=0.05)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def render_times_ms(samples: int = 200, *, language: str = "en") -> list[float]:
    """Time `samples` renders in ms each: a running clock counting down (a new face every
    frame, as on the box), interleaved with every sample screen."""
    from erabox.ui.render import render
    from erabox.ui.samples import sample_screens

    screens = [screen for _, screen in sample_screens()]
    times: list[float] = []
    for index in range(samples):
        if index % 2:
            screen = screens[index // 2 % len(screens)]
        else:
            length = int(ERA_LENGTH_S)
            left = length - index // 2 % (length + 1)
            screen = Screen(
                Phase.RUNNING, 2, Mode.REALTIME, seconds_left=left, elapsed=ERA_LENGTH_S - left,
                cue_marks=SCHOLAR_CUES_S,
            )
        start = time.perf_counter()
        render(screen, language=language)
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def measure_render(samples: int) -> dict[str, Any]:
    """Render time of the box's screens (a ticking clock and every sample screen)."""
    times = render_times_ms(samples)
    return summary_ms([t / 1000 for t in times])


def measure_save(samples: int) -> dict[str, Any]:
    """What a round game's save costs, its undo history full (`HISTORY` steps: Altay played
    on past them): its record (`play_record.snapshot`, what the core builds for every
    save) and its JSON text (`snapshot.dumps`, what the state file writes). A save after one
    step builds the records of what changed only (its spot, its newest undo step: a new
    Spot, as the step made it); the first save after a restore builds every undo step's."""
    from dataclasses import replace

    from erabox.core.machine import step
    from erabox.core.model import Button, Gesture, Input
    from erabox.core.play import HISTORY, Play, new_play
    from erabox.core.play_record import snapshot
    from erabox.core.snapshot import dumps
    from erabox.files.games import load_game

    play = new_play(load_game("altay", []), ("red", "blue", "green"))
    for button, gesture in [(Button.ERA, Gesture.PRESS), (Button.ERA, Gesture.HOLD)] + [
            (Button.NEXT, Gesture.PRESS)] * (HISTORY + 5):
        play, _ = step(play, Input(button, gesture), 0.0)

    def timed(fresh: Callable[[Play], Play]) -> tuple[list[float], list[float]]:
        record_s, text_s = [], []
        for _ in range(samples):
            saved = fresh(play)  # unsaved Spots: records not yet built
            began = time.perf_counter()
            record = snapshot(saved, 0.0)
            made = time.perf_counter()
            dumps(record)
            record_s.append(made - began)
            text_s.append(time.perf_counter() - made)
        return record_s, text_s

    record_s, text_s = timed(lambda p: replace(p, history=(*p.history[:-1],
                                                           replace(p.history[-1]))))
    first_s, _ = timed(lambda p: replace(p, history=tuple(replace(s) for s in p.history)))
    return {"undo_steps": len(play.history), "record": summary_ms(record_s),
            "text": summary_ms(text_s), "first_record": summary_ms(first_s)}
