"""Saves that need no new space (docs/power-cuts.md, "Saves on a full or read-only card"): the
game and the settings are written over a spare reserved beside each file and swapped in, so a
full disk cannot stop a save; a cut part way through leaves the previous file whole; settings
that could not be written are retried like the game; a call whose record cannot be written is
logged at the call.

The full and read-only disks are small tmpfs mounts of the test's own (root only)."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from erabox.adapters import in_place
from erabox.adapters.settings_file import SettingsFile, settings_path
from erabox.adapters.state_file import StateFile
from erabox.core import settings as menu
from erabox.core.config import Config, Mode, RealtimeConfig
from erabox.core.era_lines_state import state_word
from erabox.core.model import Button, Gesture, Input, Tick
from erabox.core.snapshot import dumps, loads
from erabox.run.driver import Driver
from state_records import GOOD, running

CFG = Config()
SHORT = Config(guide=False, default_mode=Mode.REALTIME, realtime=RealtimeConfig(
    length_s=25.0, scholar_cues_s=(10.0, 20.0), lead_in_s=0, final_ticks_s=0))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs of the test's own, unmounted after."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "card"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> None:
    """Fill the disk: write until it says it is full (pages, then single bytes)."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"x" * size)
    finally:
        os.close(fd)
    with pytest.raises(OSError) as full:
        (folder / "probe").write_bytes(b"x" * 4096)
    assert full.value.errno == errno.ENOSPC


def remount(folder: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True)


def test_a_full_disk_does_not_stop_the_games_saves(small_disk: Path) -> None:
    state = StateFile(small_disk / "state.json")
    try:
        state.lock()
        state.save(running(elapsed=1.0))  # the first save reserves the file and its spare
        assert state.flush(30) and state.problem is None
        fill(small_disk)
        for elapsed in (2.0, 3.0, 4.0):
            state.save(running(elapsed=elapsed))
            assert state.flush(30)
            assert state.problem is None, state.problem  # was: No space left on device
        assert state.load(CFG) == running(elapsed=4.0)
    finally:
        state.close()


def test_a_full_disk_does_not_stop_the_settings_saves(small_disk: Path) -> None:
    settings = SettingsFile(small_disk / "settings.json")
    chosen = menu.to_dict(menu.defaults(CFG))
    try:
        settings.save(chosen)
        fill(small_disk)
        chosen = chosen | {"seats": ["red", "blue"], "oldest": 0, "language": "ja"}
        settings.save(chosen)
        assert settings.problem is None, settings.problem
        back = SettingsFile(small_disk / "settings.json").load(CFG)
        assert back is not None and back.seats == ("red", "blue") and back.language == "ja"
    finally:
        settings.close()


def test_settings_that_could_not_be_saved_are_retried_until_they_land(
        small_disk: Path) -> None:
    """The finding: settings chosen while the card could not take them were lost once it
    could; now they are kept and retried, and the state file's mark shows the problem."""
    state = StateFile(small_disk / "state.json")
    settings = SettingsFile(settings_path(state.path), beside=state)
    chosen = menu.to_dict(menu.defaults(CFG)) | {"seats": ["red", "blue"], "oldest": 0,
                                                 "language": "ja"}
    try:
        state.save(GOOD)
        assert state.flush(30)
        remount(small_disk, "ro")
        settings.save(chosen)
        assert settings.problem is not None and state.problem == settings.problem
        remount(small_disk, "rw")
        state.save(GOOD)  # the game saves again: the mark stays while the settings fail
        assert state.flush(30)
        # The settings' own retry (every RETRY_S) lands them: wait for that condition.
        deadline = time.monotonic() + 60.0
        while settings.problem is not None and time.monotonic() < deadline:
            threading.Event().wait(0.05)
        assert settings.problem is None and state.problem is None
        back = SettingsFile(settings_path(state.path)).load(CFG)
        assert back is not None and back.seats == ("red", "blue") and back.language == "ja"
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            remount(small_disk, "rw")
        settings.close()
        state.close()


def test_a_cut_part_way_through_a_save_leaves_the_previous_file_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "state.json"
    state = StateFile(path)
    try:
        state.save(running(elapsed=1.0))
        state.save(running(elapsed=1.0))
        assert state.flush(30)
        before = path.read_bytes()

        class Cut(BaseException):
            pass

        def cut(a: Path, b: Path) -> None:
            raise Cut  # the power fails after the spare is written, before the swap

        monkeypatch.setattr(in_place, "exchange", cut)
        with pytest.raises(Cut):
            in_place.write_in_place(path, dumps(running(elapsed=2.0)), lambda p, t: None)
        assert path.read_bytes() == before
        # ... and a torn spare (half a record) is never what is read back.
        spare = in_place.spare_path(path)
        spare.write_bytes(dumps(running(elapsed=3.0)).encode()[:40])
        assert loads(path.read_text(encoding="utf-8"), CFG) == running(elapsed=1.0)
    finally:
        state.close()


def test_a_saved_file_is_still_one_json_object_of_the_earlier_format(tmp_path: Path) -> None:
    """A box of an earlier version reads what this one writes (blanks pad it to its slot)."""
    path = tmp_path / "state.json"
    state = StateFile(path)
    try:
        state.save(GOOD)
        assert state.flush(30)
    finally:
        state.close()
    assert json.loads(path.read_text(encoding="utf-8")) == GOOD
    assert path.stat().st_size == in_place.SLOT_BYTES
    assert in_place.spare_path(path).stat().st_size == in_place.SLOT_BYTES


def test_a_call_whose_record_cannot_be_written_is_logged_at_the_call(
        small_disk: Path, caplog: pytest.LogCaptureFixture) -> None:
    state = StateFile(small_disk / "state.json")
    driver = Driver(SHORT, state=state)
    try:
        driver.start(0.0)
        driver.step(Input(Button.ERA, Gesture.PRESS), 0.0)
        assert state.flush(30)
        remount(small_disk, "ro")
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            now = 0.0
            first_cry = SHORT.realtime.scholar_cues_s[0]
            while (state_word(driver.game, now)[1] or 0.0) < first_cry:  # up to the first
                due = driver.next_deadline(now)  # cry, as the loop steps
                assert due is not None
                now = due
                driver.step(Tick(), now)
        said = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
        # the cry's record held at it ("armed"), and its record written ahead of it (the
        # start gong is the countdown's first cue)
        held, ahead = "15 s left, cues given: 1", "15 s left, cues given: 2"
        assert any(held in s for s in said) and any(ahead in s for s in said), "\n".join(said)
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            remount(small_disk, "rw")
        state.close()

