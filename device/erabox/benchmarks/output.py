"""The box's sound measured at the output, and a whole game's footprint, from outside the box.

Cue onsets at the output (`measure_onsets`): `erabox run` (in a child process, started exactly as
the command line does, on mock pins) plays three real-time eras with its music on SDL's `disk`
audio driver, which writes every mixed period to a file as the card would play it (in memory,
/dev/shm, where there is one: not on the disk the box's state file syncs to). This process
watches that file grow (woken by the kernel's inotify at each write, not polling) and notes, on
the shared monotonic clock, when each period appeared: the file's growth mapped to wall-clock
time. Afterwards each cue's first sample is found in the
recording by matched filtering (the cues are short distinct sweeps, configured as the box's gong,
cry and tick files, over the box's own era music), and its output time is compared with the time
the core scheduled it for (the loop's cue log: the deadline, not when the loop got to it). Each
era is started 1 s after its setup screen opened, so its first gong is in the sample while that
era's music is still being opened. Nothing of this runs inside the box but the recording driver.

A whole game (`measure_game`): `erabox run` as the Pi service runs it (no numpy), three
real-time eras played by a script, with SDL's `dummy` driver. Peak RSS is the kernel's
high-water mark (`VmHWM`) at game over; wakeups per second are the context switches of all its
threads (`/proc/PID/task/*/status`) over a window of a running era, divided by its length.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erabox.core.config import Config
from erabox.core.points import positions

from .stats import percentile

RATE = 44100
POLL_S = 0.0005  # without inotify: how often the recording's size is read
IN_MODIFY = 0x2
CUE_SECONDS = {"gong": 0.08, "cry": 0.06, "tick": 0.03}
CUE_SWEEPS = {"gong": (600.0, 2200.0), "cry": (2600.0, 1100.0), "tick": (3200.0, 4800.0)}
MATCH_WITHIN_S = 0.2  # an onset later than this after its schedule counts as missing
EARLY_S = 0.03  # how early an onset may seem (the output clock's resolution) and still match


# --- the cue sounds and finding them --------------------------------------------------------


def sweep(name: str) -> Any:
    """A cue as a short linear sweep with 3 ms fades: one sharp matched-filter peak each."""
    import numpy as np

    seconds = CUE_SECONDS[name]
    f0, f1 = CUE_SWEEPS[name]
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t**2 / (2 * seconds))
    ramp = np.minimum(1.0, np.minimum(np.arange(n), n - 1 - np.arange(n)) / (0.003 * RATE))
    return 0.5 * ramp * np.sin(phase)


def write_cues(folder: Path) -> dict[str, Path]:
    """The three cue sweeps as 16-bit stereo WAV files."""
    import wave

    import numpy as np

    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in CUE_SECONDS:
        mono = np.round(sweep(name) * 32767).astype("<i2")
        path = folder / f"{name}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(2)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(np.repeat(mono, 2).tobytes())
        paths[name] = path
    return paths


def find_onsets(mono: Any, template: Any, threshold: float = 0.7) -> list[int]:
    """First samples of `template` in `mono`: normalised matched filter peaks over
    `threshold`, at least the template's length apart."""
    import numpy as np

    n = len(template)
    size = 1 << int(np.ceil(np.log2(len(mono) + n)))
    corr = np.fft.irfft(np.fft.rfft(mono, size) * np.conj(np.fft.rfft(template, size)), size)
    corr = corr[: len(mono) - n + 1]
    energy = np.concatenate(([0.0], np.cumsum(mono.astype(np.float64) ** 2)))
    local = np.sqrt(np.maximum(energy[n:] - energy[:-n], 1e-12))[: len(corr)]
    score = corr / (local * np.sqrt(np.sum(template**2)))
    found: list[int] = []
    above = np.flatnonzero(score > threshold)
    i = 0
    while i < len(above):
        start = above[i]
        window = above[(above >= start) & (above < start + n)]
        best = int(window[np.argmax(score[window])])
        found.append(best)
        i = int(np.searchsorted(above, best + n))
    return found


# --- the child: the box on the disk driver ----------------------------------------------------


def onset_config(cues: dict[str, Path], length_s: float, spacing_s: float) -> str:
    last = length_s - 12.0  # clear of the final ticks
    times = []
    t = 1.0
    while t < last:
        times.append(round(t, 3))
        t += spacing_s
    return (f"[realtime]\nlength_s = {length_s:g}\nscholar_cues_s = {times}\n"
            "lead_in_s = 5\nfinal_ticks_s = 10\nscholar_prompt_s = 1\n\n"
            f"[audio]\ngong = \"{cues['gong']}\"\ncry = \"{cues['cry']}\"\n"
            f"tick = \"{cues['tick']}\"\n")


def _child(workdir: Path, length_s: float, spacing_s: float) -> None:
    """Play three eras (each started 1 s after its setup opened); write the cue log."""
    from erabox.core.model import Button, Phase

    from .harness import Session, run_in_process

    cues = write_cues(workdir / "cues")

    def scenario(session: Session) -> list[float]:
        started: list[float] = []
        for era in range(Config().eras):  # the box's own game's eras
            if era:
                session.leave_scoring()  # scoring -> the next era's setup
                session.wait_phase(Phase.SETUP, 10.0)
            session.pause_for(1.0)  # ERA 1 s after the setup screen opened
            started.append(session.press(Button.ERA))
            session.wait_phase(Phase.SCORING, length_s + 30.0)
        session.pause_for(0.5)  # let the end gong reach the recording
        return started

    run = run_in_process(onset_config(cues, length_s, spacing_s), scenario, workdir / "box")
    log = [list(entry) for entry in run.trace.cue_log]
    (workdir / "cue_log.json").write_text(json.dumps({"cue_log": log,
                                                      "era_presses": run.result}))


# --- the parent: watch the recording, then analyse ----------------------------------------------


def measure_onsets(workdir: Path, length_s: float = 80.0,
                   spacing_s: float = 0.2) -> dict[str, Any]:
    """Run the child on the disk driver while watching its recording grow; analyse."""
    import numpy as np

    workdir.mkdir(parents=True, exist_ok=True)
    recording = recording_folder(workdir) / "out.raw"
    recording.unlink(missing_ok=True)
    env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(recording),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("SDL_DISKAUDIODELAY", None)  # the default: one period's duration per period
    child = subprocess.Popen(
        [sys.executable, "-m", "erabox.benchmarks.output", str(workdir), str(length_s),
         str(spacing_s)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    growth = watch_growth(recording, lambda: child.poll() is None)
    stderr = child.stderr.read() if child.stderr else ""
    if child.returncode != 0:
        raise RuntimeError(f"the box on the disk driver failed: {stderr[-2000:]}")
    logged = json.loads((workdir / "cue_log.json").read_text())
    raw = np.fromfile(recording, dtype="<i2")
    mono = raw[: len(raw) // 2 * 2].reshape(-1, 2).astype(np.float64).mean(axis=1) / 32768.0
    from erabox.core.audio_plan import output_lead_s
    from erabox.core.config import AudioConfig

    if os.environ.get("ERABOX_BENCH_KEEP"):
        (workdir / "growth.json").write_text(json.dumps(growth))
    audio = AudioConfig()
    lead = output_lead_s(audio)  # how early the box hands cues to the mixer
    result = analyse(mono, growth, logged["cue_log"], audio.buffer, lead)
    result["lead_ms"] = round(lead * 1000, 2)
    result["problems"] = [line for line in stderr.splitlines()
                          if " ERROR " in line or line.startswith("Traceback")]
    with contextlib.suppress(OSError):
        if not os.environ.get("ERABOX_BENCH_KEEP"):
            recording.unlink()  # tens of MB
            if recording.parent != workdir:
                recording.parent.rmdir()
    result["recording_in"] = str(recording.parent)
    return result


def recording_folder(workdir: Path, memory: Path = Path("/dev/shm")) -> Path:
    """Where the disk driver writes the recording: in memory (`memory`, a tmpfs) where there is
    one, else in `workdir`.

    The box's state file syncs to `workdir`'s disk. On a real box the sound goes to the card,
    never through a file system; written beside the state file, a period of the recording could
    wait behind the file system's journal while a save was synced, and the bench counted that
    wait as the box's (docs/performance.md, "The recording in memory").
    """
    if memory.is_dir() and os.access(memory, os.W_OK):
        folder = memory / f"erabox-bench-{os.getpid()}-{workdir.name}"
        folder.mkdir(exist_ok=True)
        return folder
    return workdir


def watch_growth(path: Path, running: Callable[[], bool]) -> list[tuple[float, int]]:
    """(monotonic time, bytes) each time the file at `path` grew, while `running()`.

    The kernel wakes this process on every write into the file's folder (inotify), so the time
    is taken as the write lands, with no polling load on the machine being measured. Where
    inotify is missing, the size is read every `POLL_S` instead.
    """
    growth: list[tuple[float, int]] = []
    last = -1

    def look(when: float) -> None:
        nonlocal last
        with contextlib.suppress(FileNotFoundError):
            size = path.stat().st_size
            if size != last:
                growth.append((when, size))
                last = size

    watch = _inotify(path.parent)
    if watch is None:
        while running():
            look(time.monotonic())
            time.sleep(POLL_S)  # a measurement of the fake card's clock, not a wait for a result
        look(time.monotonic())  # the writes just before the end
        return growth
    try:
        while running():
            ready, _, _ = select.select([watch], [], [], 0.2)  # 0.2 s: to see the child end
            when = time.monotonic()
            if ready:
                os.read(watch, 1 << 16)  # the events themselves do not matter, only when
            look(when)
        look(time.monotonic())
    finally:
        os.close(watch)
    return growth


def _inotify(folder: Path) -> int | None:
    """An inotify descriptor watching `folder` for writes, or None where there is none."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        fd = int(libc.inotify_init1(os.O_CLOEXEC))
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    if libc.inotify_add_watch(fd, str(folder).encode(), IN_MODIFY) < 0:
        os.close(fd)
        return None
    return fd


def output_clock(growth: list[tuple[float, int]]) -> tuple[Any, Any]:
    """(times, frames): when the recording first held more than `frames[i]` frames."""
    import numpy as np

    return np.array([t for t, _ in growth]), np.array([size // 4 for _, size in growth])


def analyse(mono: Any, growth: list[tuple[float, int]], cue_log: list[list[Any]],
            period: int, lead: float = 0.0) -> dict[str, Any]:
    """Output onset error of every scheduled cue: output time of its first sample minus due.

    `cue_log` holds (due, handed to the mixer, sound); the loop hands a cue over `lead` early,
    so its own lateness is (handed over) - (due - lead).

    The driver writes one `period` of frames per period, paced in real time, through a stdio
    buffer, so the file grows in larger steps, and only when the write *after* a full buffer
    comes: the last period of a step that ended at frame F at time T was written one period
    before T, and each earlier period of the step one more period before.
    """
    import numpy as np

    times, frames = output_clock(growth)

    def at_output(frame: int) -> float:
        i = int(np.searchsorted(frames, frame, side="right"))
        if i >= len(times):
            return float("nan")
        period_end = (frame // period + 1) * period
        written = times[i] - (max(int(frames[i]) - period_end, 0) + period) / RATE
        return float(written + (frame % period) / RATE)

    errors: list[float] = []
    after_dispatch: list[float] = []  # the audio path's own share: onset - the loop's dispatch
    first_gongs: list[float] = []
    missing = 0
    per_sound: dict[str, list[float]] = {}
    for name in CUE_SECONDS:
        onsets = sorted(at_output(f) for f in find_onsets(mono, sweep(name)))
        entries = sorted((entry[0], entry[1]) for entry in cue_log if entry[2] == name)
        due = [when for when, _ in entries]
        # each onset belongs to the latest cue due before it (none sounds more than EARLY_S
        # before it is due: the mixer cannot play what it was not given); a cue takes the
        # first onset that belongs to it; a cue with none, or only one later than
        # MATCH_WITHIN_S, was not found at the output
        first: dict[int, float] = {}
        for onset in onsets:
            owner = bisect.bisect_right(due, onset + EARLY_S) - 1
            if owner >= 0 and owner not in first:
                first[owner] = onset
        for index, when in enumerate(due):
            heard = first.get(index)
            if heard is None or heard - when > MATCH_WITHIN_S:
                missing += 1
                continue
            error = heard - when
            errors.append(error)
            after_dispatch.append(heard - entries[index][1])
            per_sound.setdefault(name, []).append(error)
            if name == "gong" and index % 2 == 0:  # each era's start gong (then its end gong)
                first_gongs.append(error)
    ms = [e * 1000 for e in errors]
    at_loop = [(entry[1] - entry[0] + lead) * 1000 for entry in cue_log]  # the loop's lateness
    return {
        "loop_dispatch_ms": _summary(at_loop),
        "after_dispatch_ms": _summary([e * 1000 for e in after_dispatch]),
        "cues_scheduled": len(cue_log),
        "cues_found": len(errors),
        "cues_missing": missing,
        "period_frames": period,
        "period_ms": round(period / RATE * 1000, 2),
        "onset_error_ms": _summary(ms),  # signed: a cue handed over early may sound early
        "onset_abs_error_ms": _summary([abs(e) for e in ms]),  # how far off, either way
        "per_sound_ms": {k: _summary([e * 1000 for e in v]) for k, v in per_sound.items()},
        "first_gong_1s_after_setup_ms": [round(e * 1000, 2) for e in first_gongs],
    }


def _summary(ms: list[float]) -> dict[str, float | None]:
    if not ms:
        return {"n": 0, "min": None, "median": None, "p99": None, "max": None}
    return {"n": len(ms), "min": round(min(ms), 2), "median": round(percentile(ms, 50), 2),
            "p99": round(percentile(ms, 99), 2), "max": round(max(ms), 2)}


# --- a whole game: memory and wakeups ------------------------------------------------------------


GAME_ERA_S = 30.0


def game_config(era_s: float) -> str:
    return (f"[realtime]\nlength_s = {era_s:g}\nscholar_cues_s = [{era_s / 3:g}, "
            f"{2 * era_s / 3:g}]\nlead_in_s = 0\n")


def game_script(era_s: float = GAME_ERA_S) -> tuple[str, float, float]:
    """Three real-time eras, each started 1 s after its setup opened; (script, the start of a
    window while Era II runs, game over time)."""
    lines = []
    t = 1.0
    window = 0.0
    players = len(Config().players)
    # ERA presses through a scoring entering 0 points: each number asked, the shown steps,
    # the standings; after Era III everyone is tied at 0, so each player's buildings too.
    through_scoring = len(positions(players)) + 1
    for era in range(Config().eras):  # the box's own game's eras
        if era:
            for _ in range(through_scoring):  # scoring -> next setup
                lines.append(f"{t:g} era press")
                t = round(t + 0.2, 3)
            t += 1.0
        lines.append(f"{t:g} era press")
        if era == 1:
            window = t + min(2.0, era_s / 4)  # into the running era
        t += era_s + 2.0  # the era, a moment of scoring
    for _ in range(through_scoring + players):  # scoring of Era III -> game over
        lines.append(f"{t:g} era press")
        t = round(t + 0.2, 3)
    return "\n".join(lines) + "\n", window, t + 1.0


def _task_switches(pid: int) -> dict[int, int]:
    """Context switches (voluntary + involuntary) of each thread of `pid` so far."""
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            total = 0
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
            counts[int(task.name)] = total
    return counts


def measure_game(workdir: Path, era_s: float = GAME_ERA_S,
                 window_s: float = 20.0) -> dict[str, Any]:
    """Whole-game peak RSS and wakeups/s of `erabox run` as the Pi service runs it."""
    from .footprint import WITHOUT_NUMPY, Daemon, _proc_status

    workdir.mkdir(parents=True, exist_ok=True)
    script, window_at, game_over = game_script(era_s)
    (workdir / "game.script").write_text(script)
    daemon = Daemon(workdir, game_config(era_s), ["--script", str(workdir / "game.script")],
                    name="game", command=WITHOUT_NUMPY)
    try:
        daemon.wait_ready()
        ready = time.monotonic()
        time.sleep(max(0.0, ready + window_at - time.monotonic()))
        before, began = _task_switches(daemon.proc.pid), time.monotonic()
        time.sleep(window_s)
        after, ended = _task_switches(daemon.proc.pid), time.monotonic()
        time.sleep(max(0.0, ready + game_over - time.monotonic()))
        status = _proc_status(daemon.proc.pid)
        daemon.terminate()
    finally:
        if daemon.proc.poll() is None:
            daemon.kill()
    switches = sum(after[tid] - before.get(tid, 0) for tid in after)
    return {
        "eras": 3,
        "era_s": era_s,
        "peak_rss_mb": round(status.get("VmHWM", 0) / 1024, 2),
        "rss_at_game_over_mb": round(status.get("VmRSS", 0) / 1024, 2),
        "wakeups_per_s": round(switches / (ended - began), 1),
        "threads": len(after),
        "log_problems": daemon.problems(),
    }


def measure_output(runs: int, onset_era_s: float, spacing_s: float, game_era_s: float,
                   game_window_s: float, workdir: Path) -> dict[str, Any]:
    """`runs` runs of both measurements, and the median of each headline figure."""
    onsets = [measure_onsets(workdir / f"onsets{i}", onset_era_s, spacing_s)
              for i in range(runs)]
    games = [measure_game(workdir / f"game{i}", game_era_s, game_window_s) for i in range(runs)]

    def median(values: list[float | None]) -> float | None:
        known = sorted(v for v in values if v is not None)
        return known[len(known) // 2] if known else None

    return {
        "runs": runs,
        "onsets": onsets,
        "games": games,
        "median": {
            "cues": median([r["cues_found"] for r in onsets]),
            "cues_missing": median([r["cues_missing"] for r in onsets]),
            "onset_p50_ms": median([r["onset_error_ms"]["median"] for r in onsets]),
            "onset_p99_ms": median([r["onset_abs_error_ms"]["p99"] for r in onsets]),
            "onset_max_ms": median([r["onset_abs_error_ms"]["max"] for r in onsets]),
            "lead_ms": median([r.get("lead_ms") for r in onsets]),
            "loop_dispatch_p99_ms": median([r["loop_dispatch_ms"]["p99"] for r in onsets]),
            "after_dispatch_p99_ms": median([r["after_dispatch_ms"]["p99"] for r in onsets]),
            "after_dispatch_max_ms": median([r["after_dispatch_ms"]["max"] for r in onsets]),
            "first_gong_worst_ms": median([max((abs(e) for e in r["first_gong_1s_after_setup_ms"]),
                                               default=None) for r in onsets]),
            "game_peak_rss_mb": median([g["peak_rss_mb"] for g in games]),
            "wakeups_per_s": median([g["wakeups_per_s"] for g in games]),
        },
    }


if __name__ == "__main__":
    _child(Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]))
