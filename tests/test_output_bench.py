"""The output-onset bench's analysis on a synthetic recording whose output times are known."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from erabox.benchmarks import output

RATE = output.RATE
PERIOD = 512
STEP = 1024  # the recording grows by a stdio buffer of two periods


def test_onsets_are_timed_on_the_output_clock_and_matched_to_their_cues() -> None:
    frames = 40 * STEP
    mono = np.zeros(frames)
    # the driver writes period k at time 10 + k * P / rate (so frame f plays at 10 + f / rate);
    # the file shows a full buffer of two periods only when the next period is written
    growth = [(10.0 + k * PERIOD / RATE, k * PERIOD * 4)
              for k in range(2, frames // PERIOD + 1, 2)]
    cues = [("cry", 3 * PERIOD + 100, 0.004), ("gong", 20 * PERIOD, 0.0),
            ("tick", 51 * PERIOD + 7, 0.011)]
    log = []
    for name, frame, late in cues:
        sweep = output.sweep(name)
        mono[frame:frame + len(sweep)] += sweep
        at_output = 10.0 + frame / RATE
        log.append([at_output - late, at_output - late, name])
    log.append([10.0 + 70 * PERIOD / RATE, 0.0, "cry"])  # never sounded
    result = output.analyse(mono, growth, log, PERIOD)
    assert result["cues_found"] == 3 and result["cues_missing"] == 1
    for (name, _, late) in cues:
        assert result["per_sound_ms"][name]["max"] == pytest.approx(late * 1000, abs=0.05)
    # dispatched when due here: the audio path's own share is the whole error
    assert result["after_dispatch_ms"]["max"] == pytest.approx(11.0, abs=0.05)
    assert result["first_gong_1s_after_setup_ms"] == [pytest.approx(0.0, abs=0.05)]


def test_the_loops_own_lateness_counts_from_its_lead() -> None:
    frames = 20 * STEP
    mono = np.zeros(frames)
    growth = [(10.0 + k * PERIOD / RATE, k * PERIOD * 4)
              for k in range(2, frames // PERIOD + 1, 2)]
    frame = 5 * PERIOD
    sweep = output.sweep("gong")
    mono[frame:frame + len(sweep)] += sweep
    due = 10.0 + frame / RATE + 0.002  # heard 2 ms early
    lead = 0.0058
    handed = due - lead + 0.0007  # the loop 0.7 ms after its lead
    result = output.analyse(mono, growth, [[due, handed, "gong"]], PERIOD, lead)
    assert result["onset_error_ms"]["max"] == pytest.approx(-2.0, abs=0.05)
    assert result["onset_abs_error_ms"]["max"] == pytest.approx(2.0, abs=0.05)
    assert result["loop_dispatch_ms"]["max"] == pytest.approx(0.7, abs=0.01)
    assert result["after_dispatch_ms"]["max"] == pytest.approx(-2.0 + 5.8 - 0.7, abs=0.05)


@pytest.mark.parametrize("how", ["inotify", "polling"])
def test_the_recordings_growth_is_timed_as_each_write_lands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    if how == "polling":
        monkeypatch.setattr(output, "_inotify", lambda folder: None)
    path = tmp_path / "out.raw"
    writes: list[tuple[float, int]] = []  # (just before the write, the size after it)
    done = threading.Event()

    def write() -> None:
        with path.open("wb", buffering=0) as out:
            for k in range(1, 9):
                done.wait(0.02)  # a period's pause between the writes, like the driver
                writes.append((time.monotonic(), k * 4096))
                out.write(bytes(4096))
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    growth = output.watch_growth(path, lambda: not done.is_set())
    writer.join()
    assert growth[-1][1] == 8 * 4096  # the last write is seen too
    growth = [(t, size) for t, size in growth if size]  # (the file may be seen empty first)
    sizes = [size for _, size in growth]
    assert sizes == sorted(set(sizes))  # a step each time it grew, never twice
    landed = dict((size, t) for t, size in writes)
    for t, size in growth:
        assert size in landed and t >= landed[size]  # never timed before its write
    assert growth[0][0] < writes[-1][0]  # watched as it grew, not read afterwards


def test_the_recording_goes_to_memory_not_beside_the_state_file(tmp_path: Path) -> None:
    """The disk driver's recording is written where the box's state file does not sync
    (docs/performance.md, "The recording in memory"); without such a place, the work folder."""
    work, memory = tmp_path / "onsets0", tmp_path / "shm"
    work.mkdir()
    memory.mkdir()
    folder = output.recording_folder(work, memory)
    assert folder.parent == memory and folder.is_dir() and "onsets0" in folder.name
    assert output.recording_folder(work, tmp_path / "none") == work
