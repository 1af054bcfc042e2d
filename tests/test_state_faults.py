"""Issue #10, items 1, 6 and 7 (state side): whatever sits at the state path, the box starts
(a fresh game when it cannot use it), moves it aside with ONE warning and never hangs, fills
memory or crashes; two boxes never share one state file."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from erabox.adapters.state_file import MAX_STATE_BYTES, StateFile, StateInUse
from erabox.core.config import Config
from erabox.core.snapshot import SnapshotError, dumps, loads
from saved_game import saved_position
from state_records import GOOD, running

CFG = Config()
# Era I's setup as an older box saved it (tests/golden/state-v1): the record this box still reads.
@pytest.fixture
def state_path(tmp_path: Path) -> Path:
    (tmp_path / "state").mkdir()
    return tmp_path / "state" / "state.json"


def _huge_int(path: Path) -> None:
    path.write_text('{"schema": 1, "era": ' + "7" * 5000 + "}\n", encoding="utf-8")


def _deep(path: Path) -> None:
    path.write_text("[" * 100_000, encoding="utf-8")


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _binary(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 4)


def _utf16(path: Path) -> None:
    path.write_bytes(dumps(GOOD).encode("utf-16"))


def _directory(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("x", encoding="utf-8")


def _too_big(path: Path) -> None:
    path.write_text(" " * (MAX_STATE_BYTES + 10) + dumps(GOOD), encoding="utf-8")


def _unreadable(path: Path) -> None:
    path.write_text(dumps(GOOD), encoding="utf-8")
    path.chmod(0)


BAD_FILES: dict[str, Callable[[Path], None]] = {
    "an integer of 5000 digits": _huge_int,
    "100000 nested [": _deep,
    "a symlink to /dev/zero": _dev_zero,
    "a FIFO": _fifo,
    "binary": _binary,
    "UTF-16": _utf16,
    "a directory": _directory,
    "bigger than any saved game": _too_big,
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_an_unusable_state_file_is_moved_aside_with_one_warning(
        kind: str, state_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    BAD_FILES[kind](state_path)
    state = StateFile(state_path)
    result: list[object] = []
    # A FIFO used to hang the start forever: load on a thread so this test fails, not hangs.
    loader = threading.Thread(target=lambda: result.append(state.load(CFG)), daemon=True)
    try:
        with caplog.at_level(logging.WARNING):
            loader.start()
            loader.join(timeout=60)
        assert not loader.is_alive(), "loading the state file hung"
        assert result == [None]
        assert not state_path.exists() and not state_path.is_symlink()
        aside = [p for p in state_path.parent.iterdir() if p.name.startswith("state.json.bad-")]
        assert len(aside) == 1, "kept aside for a look"
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        assert str(state_path) in warnings[0].getMessage()
        assert len(warnings[0].getMessage()) < 600, "a short message, not the file"
        # ... and the next save lands where the bad file was.
        state.save(GOOD)
        assert state.flush(timeout=30)
        assert loads(state_path.read_text(encoding="utf-8"), CFG) == GOOD
    finally:
        state.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_state_file_is_moved_aside_not_overwritten(
        state_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _unreadable(state_path)
    state = StateFile(state_path)
    try:
        with caplog.at_level(logging.WARNING):
            assert state.load(CFG) is None
        assert [p.name.startswith("state.json.bad-") for p in state_path.parent.iterdir()
                ] == [True]
    finally:
        state.close()


def test_the_box_starts_with_a_fifo_as_state_file(tmp_path: Path) -> None:
    """The whole daemon: it used to hang at start with a FIFO in place of the state file."""
    os.mkfifo(tmp_path / "state.json")
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="dummy",
               ERABOX_STATE=str(tmp_path / "state.json"))
    env.pop("DISPLAY", None)
    env.pop("ERABOX_CONFIG", None)
    (tmp_path / "end.script").write_text("0.2 end\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--display", "none", "--audio", "none",
         "--script", str(tmp_path / "end.script"), "--events", "-"],
        env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    saved = (tmp_path / "state.json").read_text(encoding="utf-8")
    assert saved_position(saved, 540.0)[0] == "setup"  # either engine's record
    assert list(tmp_path.glob("state.json.bad-*"))


INCONSISTENT = {
    "intro mode while running": dumps(running(mode="intro")),
    "real-time mode in an intro round": dumps({**GOOD, "phase": "intro_round", "round": 3}),
    "elapsed 1e308": dumps(running(elapsed=1e308)),
    "elapsed infinite": dumps(running(elapsed=float("inf"))),
    "a cue count beyond any era": dumps(running(cues_done=10**12)),
    "armed is not a cue number": dumps(running(armed="soon")),
}


@pytest.mark.parametrize("problem", list(INCONSISTENT))
def test_inconsistent_snapshots_are_refused_not_clamped(problem: str) -> None:
    with pytest.raises(SnapshotError) as caught:
        loads(INCONSISTENT[problem], CFG)
    assert len(str(caught.value)) < 300


def test_leftover_temporary_files_are_removed(state_path: Path) -> None:
    leftover = state_path.with_name(".state.json.999999.tmp")
    leftover.write_text(dumps(GOOD)[:20], encoding="utf-8")
    other = state_path.with_name(".other.json.999999.tmp")
    other.write_text("not ours", encoding="utf-8")
    state = StateFile(state_path)
    try:
        assert state.load(CFG) is None
        assert not leftover.exists()
        assert other.exists()
    finally:
        state.close()


# --- one box per state file (item 6) -----------------------------------------------------------


@pytest.fixture
def locked(state_path: Path) -> Iterator[StateFile]:
    first = StateFile(state_path)
    first.lock()
    yield first
    first.close()


def test_a_second_box_on_the_same_state_file_is_refused(locked: StateFile,
                                                        state_path: Path) -> None:
    second = StateFile(state_path)
    try:
        with pytest.raises(StateInUse) as refused:
            second.lock()
        assert str(state_path) in str(refused.value)
        assert str(os.getpid()) in str(refused.value)
    finally:
        second.close()


def test_the_lock_is_released_on_close(state_path: Path) -> None:
    first = StateFile(state_path)
    first.lock()
    first.close()
    second = StateFile(state_path)
    try:
        second.lock()
    finally:
        second.close()


def test_a_second_daemon_exits_2_with_a_clear_message(locked: StateFile,
                                                      state_path: Path) -> None:
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="dummy",
               ERABOX_STATE=str(state_path))
    env.pop("DISPLAY", None)
    env.pop("ERABOX_CONFIG", None)
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--display", "none", "--audio", "none"],
        env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert "in use by another erabox" in result.stderr and str(state_path) in result.stderr
    assert "Traceback" not in result.stderr
