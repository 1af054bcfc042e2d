"""The saved game: JSON round trips, strict reading, and the state file on disk (atomic writes,
unusable files moved aside with one warning, a fresh game instead of a crash)."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters import state_file as state_file_module
from erabox.adapters.state_file import StateFile, resolve_state_path, write_atomically
from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.guide import guided
from erabox.core.model import Mode, Phase, Prompt
from erabox.core.play import countdown_elapsed, start_player
from erabox.core.snapshot import SnapshotError, dumps, loads
from erabox.files.games import own_rounds
from saved_game import game_position

CFG = Config()


# The era engine's records at many moments of a real-time and an introductory era, and where
# that engine came back to from each: pinned before its removal (tests/golden/era-records/
# make_snapshots.py). They are the state files a box of that version left behind.
PINNED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "golden" / "era-records" / "snapshots.json").read_text(
        encoding="utf-8"))
SNAPSHOTS = {moment: pinned["record"] for moment, pinned in PINNED.items()}


@pytest.mark.parametrize("moment", list(SNAPSHOTS))
def test_json_round_trip(moment: str) -> None:
    saved = SNAPSHOTS[moment]
    text = dumps(saved)
    assert text.endswith("\n") and "\n" not in text[:-1]  # one line
    assert loads(text, CFG) == saved


@pytest.mark.parametrize("moment", list(SNAPSHOTS))
def test_restore_comes_back_in_the_same_era_mode_round_and_start_player(moment: str) -> None:
    """The round engine resumes each record of the era engine where that engine came back
    (pinned): the era, its mode, an introductory round and its start player, a real-time
    era paused at its running time; a record at an era's setup comes back before the era's
    start (its setup, its preparation), one in its lead-in to the lead-in set up again
    (tests/test_profile_toe_state.py: the era engine came back to the setup there)."""
    saved, was = SNAPSHOTS[moment], PINNED[moment]["came_back"]
    engine = ProfileEngine(guided(own_rounds(), CFG.guide), CFG)  # as the box plays it
    play, _ = engine.restore(engine.parse(dumps(saved)), 1234.5)
    state, mode, _ = game_position(play, 1234.5)
    assert (len(play.spot.past) + 1, mode) == (was["era"], was["mode"])
    if was["state"] in ("intro_round", "scholars"):
        assert (state, play.spot.round, start_player(play)) == (
            was["state"], was["round"], was["start_player"])
    elif was["state"] in ("paused", "scoring"):
        assert state == was["state"]
        assert countdown_elapsed(play, 1234.5) == was["elapsed"]
    else:
        assert was["state"] == "setup" and engine.screen(play, 1234.5).kind in (
            Phase.SETUP, Phase.PREPARE, *((Phase.LEAD_IN,) if moment == "lead_in" else ()))
    assert play.prompt is Prompt.RESUMED


GOOD = SNAPSHOTS["running"]
BROKEN = {
    "not JSON": "{era: 1",
    "truncated": dumps(GOOD)[:40],
    "not an object": "[1, 2]",
    "empty": "",
    "unknown schema version": dumps({**GOOD, "schema": 99}),
    "no schema": dumps({k: v for k, v in GOOD.items() if k != "schema"}),
    "confirm is not a saved phase": dumps({**GOOD, "phase": "confirm"}),
    "unknown phase": dumps({**GOOD, "phase": "dancing"}),
    "unknown mode": dumps({**GOOD, "mode": "blitz"}),
    "era 4": dumps({**GOOD, "era": 4}),
    "era as text": dumps({**GOOD, "era": "1"}),
    "era as bool": dumps({**GOOD, "era": True}),
    "negative player": dumps({**GOOD, "era_start_player": -1}),
    "volume too loud": dumps({**GOOD, "volume": 2}),
    "scoring step past the checklist": dumps({**GOOD, "scoring_step": 7}),
    "negative cue count": dumps({**GOOD, "cues_done": -1}),
    "running without a time": dumps({**GOOD, "elapsed": None}),
    "negative time": dumps({**GOOD, "elapsed": -3}),
    "round 0": dumps({**SNAPSHOTS["intro_round 3"], "round": 0}),
    "round past the era": dumps({**SNAPSHOTS["intro_round 3"], "round": 16}),
}


@pytest.mark.parametrize("problem", list(BROKEN))
def test_loads_refuses_what_it_cannot_resume(problem: str) -> None:
    with pytest.raises(SnapshotError):
        loads(BROKEN[problem], CFG)


def test_snapshot_error_is_a_value_error() -> None:
    assert issubclass(SnapshotError, ValueError)


# --- the state file ----------------------------------------------------------------------------


@pytest.fixture
def state_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "state.json"


@pytest.fixture
def opened(state_path: Path) -> Iterator[StateFile]:
    state = StateFile(state_path)
    yield state
    state.close()


def test_missing_file_is_a_fresh_game_without_a_warning(
        opened: StateFile, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert opened.load(CFG) is None
    assert caplog.records == []


def test_save_then_load(opened: StateFile, state_path: Path) -> None:
    opened.save(SNAPSHOTS["paused"])
    assert opened.flush(timeout=10)
    assert opened.load(CFG) == SNAPSHOTS["paused"]
    assert opened.writes == 1
    # The file, and its spare reserved for the next save (in_place.write_in_place)
    assert sorted(p.name for p in state_path.parent.iterdir()) == [".state.json.spare",
                                                                  "state.json"]


def test_newest_save_wins(opened: StateFile) -> None:
    for moment in ("lead_in", "running", "paused", "scoring"):
        opened.save(SNAPSHOTS[moment])
    assert opened.flush(timeout=10)
    assert opened.load(CFG) == SNAPSHOTS["scoring"]


@pytest.mark.parametrize("problem", ["not JSON", "truncated", "unknown schema version",
                                     "era 4", "empty"])
def test_unusable_file_is_moved_aside_with_one_warning(
        problem: str, opened: StateFile, state_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    state_path.parent.mkdir(parents=True)
    state_path.write_text(BROKEN[problem], encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert opened.load(CFG) is None
    assert not state_path.exists()
    aside = [p for p in state_path.parent.iterdir() if p.name.startswith("state.json.")]
    assert len(aside) == 1
    assert aside[0].read_text(encoding="utf-8") == BROKEN[problem]  # kept for a look
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert str(state_path) in warnings[0].getMessage()


def test_unusable_file_gives_the_box_a_fresh_game(state_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    from erabox.run.app import Box
    from erabox.run.driver import MemoryState

    state_path.parent.mkdir(parents=True)
    state_path.write_text(BROKEN["unknown schema version"], encoding="utf-8")
    state = StateFile(state_path)
    try:
        box = Box(CFG, state_file=state, clock=lambda: 100.0, draw=lambda seats: 0)
        with caplog.at_level(logging.WARNING):
            box.start_game()
        fresh = Box(CFG, state_file=MemoryState(), clock=lambda: 100.0,  # nothing saved
                    draw=lambda seats: 0)
        fresh.start_game()
        assert box.game_now() == fresh.game_now()  # a fresh game
    finally:
        state.close()


def test_a_good_file_gives_the_box_its_game_back(state_path: Path) -> None:
    from erabox.run.app import Box

    state_path.parent.mkdir(parents=True)
    state_path.write_text(dumps(SNAPSHOTS["intro_round 4"]), encoding="utf-8")
    state = StateFile(state_path)
    try:
        box = Box(CFG, state_file=state, clock=lambda: 100.0)
        box.start_game()
        assert game_position(box.game_now(), 100.0) == (Phase.INTRO_ROUND.value,
                                                         Mode.INTRO.value, 4)
    finally:
        state.close()


def test_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    write_atomically(path, dumps(GOOD))
    write_atomically(path, dumps(SNAPSHOTS["scoring"]))
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]
    assert json.loads(path.read_text(encoding="utf-8")) == SNAPSHOTS["scoring"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "state.json"
    write_atomically(path, dumps(GOOD))

    def power_cut(src: object, dst: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(state_file_module.os, "replace", power_cut)
    with pytest.raises(OSError):
        write_atomically(path, dumps(SNAPSHOTS["scoring"]))
    monkeypatch.undo()
    assert loads(path.read_text(encoding="utf-8"), CFG) == GOOD
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_the_writer_warns_once_and_recovers(tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    state = StateFile(blocker / "state.json")
    try:
        with caplog.at_level(logging.INFO, logger="erabox.state"):
            for moment in ("lead_in", "running", "paused"):
                state.save(SNAPSHOTS[moment])
                assert state.flush(timeout=10)
            assert state.problem is not None and state.writes == 0
            warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
            assert len(warnings) == 1  # once, not per save
            blocker.unlink()
            state.save(SNAPSHOTS["scoring"])
            assert state.flush(timeout=10)
        assert state.problem is None and state.writes == 1
        assert state.load(CFG) == SNAPSHOTS["scoring"]
    finally:
        state.close()


def test_close_writes_what_is_pending(state_path: Path) -> None:
    state = StateFile(state_path)
    state.save(SNAPSHOTS["scholars 5"])
    state.close()
    assert loads(state_path.read_text(encoding="utf-8"), CFG) == SNAPSHOTS["scholars 5"]


def test_where_the_state_file_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_file_module, "SYSTEM_STATE", tmp_path / "no" / "state.json")
    configured = replace(CFG, state_file=str(tmp_path / "cfg.json"))
    env = {"ERABOX_STATE": str(tmp_path / "env.json"), "XDG_STATE_HOME": str(tmp_path / "x")}
    assert resolve_state_path(configured, env) == tmp_path / "env.json"
    del env["ERABOX_STATE"]
    assert resolve_state_path(configured, env) == tmp_path / "cfg.json"
    assert resolve_state_path(CFG, env) == tmp_path / "x" / "erabox" / "state.json"
    (tmp_path / "no").mkdir()
    if os.access(tmp_path / "no", os.W_OK):
        assert resolve_state_path(CFG, env) == tmp_path / "no" / "state.json"
