"""Every path the box touches is checked before it is used (docs/power-cuts.md, "What the box
does with bad input"), one test per finding: a symbolic link as the state file is moved aside
as a link (its target untouched); loops, FIFOs, devices, sockets and directories are refused at
once wherever the box reads (state, settings, config, game files, scripts, sound files); the
lock works in a folder the box can write but not list; numbers are bounded before they are
converted; seat names are printable; `schema` is an integer; profile records are typed;
Ctrl-C is quiet; a profile nested too deeply names a line.

Device nodes are made with mknod in the test's own folder (never the machine's /dev)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.files import FileRefused, read_regular
from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile, resolve_state_path
from erabox.core import settings as menu
from erabox.core.config import Config, ConfigError
from erabox.core.profile import ProfileError, parse_profile
from erabox.core.script import ScriptError
from erabox.core.snapshot import dumps
from erabox.files.config import load_config
from erabox.files.games import load_game
from erabox.files.script import read_script
from state_records import GOOD, running

CFG = Config()
ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="mknod and other users need root")


def in_time(action: Callable[[], Any], seconds: float = 30.0) -> Any:
    """`action()` on a thread, or fail (not hang) when it has not returned in `seconds`."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(action())
        except BaseException as exc:  # handed back to the test
            failure.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "it hung"
    if failure:
        raise failure[0]
    return result[0]


def device_node(folder: Path) -> Path:
    """A private character device (the null device's numbers) in the test's folder."""
    node = folder / "private-null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return node


# --- the state file: a symbolic link is moved aside as a link ----------------------------------


@needs_root
def test_a_state_file_linked_to_a_device_moves_the_link_aside_and_not_the_device(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    node = device_node(tmp_path)
    before = os.lstat(node)
    (tmp_path / "state").mkdir()
    link = tmp_path / "state" / "state.json"
    link.symlink_to(node)
    state = StateFile(resolve_state_path(CFG, {"ERABOX_STATE": str(link)}))
    try:
        with caplog.at_level(logging.WARNING):
            assert in_time(lambda: state.load(CFG)) is None
        after = os.lstat(node)
        assert (after.st_ino, after.st_mode, after.st_rdev) == (
            before.st_ino, before.st_mode, before.st_rdev), "the device was touched"
        aside = list((tmp_path / "state").glob("state.json.bad-*"))
        assert len(aside) == 1 and aside[0].is_symlink() and os.readlink(aside[0]) == str(node)
        assert "symbolic link" in caplog.records[0].getMessage()
        state.save(GOOD)
        assert state.flush(30)
        assert link.is_file() and not link.is_symlink()
        assert stat.S_ISCHR(os.lstat(node).st_mode)
    finally:
        state.close()


def test_a_state_file_linked_to_a_folder_moves_the_link_aside_and_not_the_folder(
        tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.mkdir()
    (target / "keep.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "state").mkdir()
    link = tmp_path / "state" / "state.json"
    link.symlink_to(target)
    state = StateFile(resolve_state_path(CFG, {"ERABOX_STATE": str(link)}))
    try:
        assert state.load(CFG) is None
        assert (target / "keep.txt").read_text(encoding="utf-8") == "mine"
        assert [p.is_symlink() for p in (tmp_path / "state").glob("state.json.bad-*")] == [True]
    finally:
        state.close()


def test_a_dangling_state_link_is_moved_aside_and_its_target_folders_not_made(
        tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    link = tmp_path / "state" / "state.json"
    link.symlink_to(tmp_path / "nowhere" / "deep" / "state.json")
    state = StateFile(resolve_state_path(CFG, {"ERABOX_STATE": str(link)}))
    try:
        assert state.load(CFG) is None
        state.save(GOOD)
        assert state.flush(30)
        assert not (tmp_path / "nowhere").exists()
        assert link.is_file() and not link.is_symlink()
    finally:
        state.close()


def test_a_loop_of_links_as_the_state_file_is_moved_aside_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    a, b = tmp_path / "state" / "state.json", tmp_path / "state" / "other.json"
    a.symlink_to(b)
    b.symlink_to(a)
    path = resolve_state_path(CFG, {"ERABOX_STATE": str(a)})  # was RuntimeError
    state = StateFile(path)
    try:
        state.lock()
        assert state.load(CFG) is None
        state.save(GOOD)
        assert state.flush(30) and state.problem is None
        assert json.loads(a.read_text(encoding="utf-8"))["phase"] == GOOD["phase"]
    finally:
        state.close()


def test_a_second_box_through_a_link_leaves_the_first_boxs_file_alone(tmp_path: Path) -> None:
    """(An intended change: a link as the state file was followed and its folder locked;
    now the link is moved aside, the second box keeps its own game, the first one's file is
    never touched.)"""
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "state.json"
    real.write_text(dumps(GOOD), encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    second = StateFile(resolve_state_path(CFG, {"ERABOX_STATE": str(link)}))
    try:
        second.lock()
        assert second.load(CFG) is None
        second.save(running(elapsed=1.0))
        assert second.flush(30)
        assert real.read_text(encoding="utf-8") == dumps(GOOD)
    finally:
        second.close()


# --- the lock: a file, in a folder the box can write but not list --------------------------------


@pytest.fixture
def write_only_folder() -> Iterator[Path]:
    """A state folder `-wx` to the user `nobody`, which owns it (in a world-readable /tmp
    folder, so that user can reach it)."""
    top = Path(tempfile.mkdtemp(prefix="erabox-wx-"))
    try:
        top.chmod(0o755)
        folder = top / "state"
        folder.mkdir()
        os.chown(folder, 65534, 65534)
        folder.chmod(0o300)
        yield folder
    finally:
        shutil.rmtree(top)


HOLD = """
import sys
from pathlib import Path
from erabox.adapters.state_file import StateFile, StateInUse
state = StateFile(Path(sys.argv[1]) / "state.json")
try:
    state.lock()
except StateInUse as exc:
    print("refused:", exc, flush=True)
    sys.exit(2)
print("locked", flush=True)
sys.stdin.read()
"""


def as_nobody() -> None:
    os.setgid(65534)
    os.setuid(65534)


def python_for_nobody() -> tuple[list[str], dict[str, str]]:
    """A Python 3.11+ the user `nobody` can run, with erabox's source on its path (the test's
    own interpreter may live where that user cannot reach)."""
    import erabox

    env = {"PYTHONPATH": str(Path(erabox.__file__).resolve().parent.parent), "PATH": "/usr/bin"}
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            probe = subprocess.run([python, "-c", "import sys, erabox.adapters.state_file; "
                                    "sys.exit(sys.version_info < (3, 11))"],
                                   preexec_fn=as_nobody, cwd="/", env=env, timeout=120,
                                   capture_output=True)
        except OSError:
            continue
        if probe.returncode == 0:
            return [python], env
    pytest.skip("no Python the user nobody can run with erabox")


@needs_root
def test_the_lock_holds_in_a_folder_the_box_can_write_but_not_list(
        write_only_folder: Path) -> None:
    interpreter, env = python_for_nobody()
    python = [*interpreter, "-c", HOLD, str(write_only_folder)]
    first = subprocess.Popen(python, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             preexec_fn=as_nobody, cwd="/", env=env)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "locked"
        second = subprocess.run(python, stdin=subprocess.DEVNULL, capture_output=True,
                                text=True, preexec_fn=as_nobody, cwd="/", timeout=120,
                                env=env)
        assert second.returncode == 2 and "in use by another erabox" in second.stdout, (
            second.stdout + second.stderr)
    finally:
        first.kill()
        first.wait()


# --- refused at once wherever the box reads ---------------------------------------------------


def _fifo(folder: Path) -> Path:
    path = folder / "file.toml"
    os.mkfifo(path)
    return path


def _socket(folder: Path) -> Path:
    path = folder / "file.toml"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


def _folder(folder: Path) -> Path:
    path = folder / "file.toml"
    path.mkdir()
    return path


def _loop(folder: Path) -> Path:
    path = folder / "file.toml"
    path.symlink_to(folder / "other.toml")
    (folder / "other.toml").symlink_to(path)
    return path


def _device(folder: Path) -> Path:
    if not ROOT:
        pytest.skip("mknod needs root")
    path = folder / "file.toml"
    path.symlink_to(device_node(folder))
    return path


NOT_FILES: dict[str, Callable[[Path], Path]] = {
    "a FIFO": _fifo, "a socket": _socket, "a directory": _folder, "a loop of links": _loop,
    "a link to a device": _device,
}
READERS: dict[str, tuple[Callable[[Path], object], type[Exception]]] = {
    "config": (lambda p: load_config(str(p)), ConfigError),
    "script": (lambda p: read_script(str(p)), ScriptError),
    "game file": (lambda p: load_game(str(p), []), ProfileError),
}


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("kind", list(NOT_FILES))
def test_what_is_not_a_regular_file_is_refused_at_once_with_a_message(
        reader: str, kind: str, tmp_path: Path) -> None:
    path = NOT_FILES[kind](tmp_path)
    read, error = READERS[reader]
    with pytest.raises(error) as caught:
        in_time(lambda: read(path))
    said = str(caught.value)
    assert str(path) in said and any(word in said for word in (
        "FIFO", "socket", "directory", "loop", "device")), said


@pytest.mark.parametrize("kind", list(NOT_FILES))
def test_the_guarded_reader_names_what_it_refused(kind: str, tmp_path: Path) -> None:
    path = NOT_FILES[kind](tmp_path)
    with pytest.raises(FileRefused):
        in_time(lambda: read_regular(path, 1000))


def test_settings_naming_a_fifo_as_their_game_do_not_hang_the_start(tmp_path: Path) -> None:
    """The box reads the game the settings chose before it is ready: a FIFO there is an error
    the box shows, not a start that never ends."""
    fifo = _fifo(tmp_path)
    chosen = menu.to_dict(menu.defaults(CFG)) | {"game": str(fifo)}
    (tmp_path / "settings.json").write_text(json.dumps(chosen), encoding="utf-8")
    settings = SettingsFile(tmp_path / "settings.json").load(CFG)
    assert settings is not None and settings.game == str(fifo)
    with pytest.raises(ProfileError, match="FIFO"):
        in_time(lambda: load_game(settings.game, []))


@pytest.mark.parametrize("kind", ["a FIFO", "a socket", "a directory", "a link to a device"])
def test_a_sound_file_that_is_not_a_regular_file_is_never_handed_to_the_decoder(
        kind: str, tmp_path: Path) -> None:
    from erabox.adapters.mixer import FileProblem, _regular

    path = NOT_FILES[kind](tmp_path)
    with pytest.raises(FileProblem):
        in_time(lambda: _regular(str(path)))


def test_the_run_command_refuses_a_fifo_as_its_script_at_once(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path)
    env = {**os.environ, "ERABOX_STATE": str(tmp_path / "state.json")}
    for command in (["run", "--display", "none", "--audio", "none"], ["simulate"]):
        done = subprocess.run([sys.executable, "-m", "erabox", *command, "--script", str(fifo)],
                              capture_output=True, text=True, env=env, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and "FIFO" in done.stderr, (command, done.stderr)
        assert "Traceback" not in done.stderr


# --- numbers bounded before they are converted ---------------------------------------------------


HUGE = "1" + "0" * 400
NOT_NUMBERS = [HUGE, "-" + HUGE, "NaN", "Infinity", "-Infinity", "1e400"]


@pytest.mark.parametrize("value", NOT_NUMBERS)
@pytest.mark.parametrize("key", ["elapsed", "volume", "era", "cues_done", "era_start_player",
                                 "scoring_step", "armed", "sounded"])
def test_a_saved_number_out_of_any_bound_moves_the_file_aside(
        key: str, value: str, tmp_path: Path) -> None:
    record = running(elapsed=12.0)
    text = dumps(record).replace(f'"{key}":{json.dumps(record[key])}', f'"{key}":{value}')
    assert value in text
    (tmp_path / "state.json").write_text(text, encoding="utf-8")
    state = StateFile(tmp_path / "state.json")
    try:
        assert state.load(CFG) is None  # was OverflowError for `elapsed` = 10**400
        assert len(list(tmp_path.glob("state.json.bad-*"))) == 1
    finally:
        state.close()


@pytest.mark.parametrize("value", NOT_NUMBERS)
@pytest.mark.parametrize("key", ["volume", "music_level", "lead_in_s", "brightness", "oldest"])
def test_a_settings_number_out_of_any_bound_moves_the_file_aside(
        key: str, value: str, tmp_path: Path) -> None:
    text = json.dumps(menu.to_dict(menu.defaults(CFG)) | {key: "@"}).replace('"@"', value)
    (tmp_path / "settings.json").write_text(text, encoding="utf-8")
    assert SettingsFile(tmp_path / "settings.json").load(CFG) is None
    assert len(list(tmp_path.glob("settings.json.bad-*"))) == 1


# --- seat names, schema, profile records ----------------------------------------------------


@pytest.mark.parametrize("seat", ["re\x00d", "re\nd", "\u202ered", " red", "red\t", "Blue"])
def test_seat_names_are_printable_and_different_like_the_configs(
        seat: str, tmp_path: Path) -> None:
    seats = [seat, "blue", "green"]
    chosen = menu.to_dict(menu.defaults(CFG)) | {"seats": seats, "oldest": 0}
    (tmp_path / "settings.json").write_text(json.dumps(chosen), encoding="utf-8")
    assert SettingsFile(tmp_path / "settings.json").load(CFG) is None


@pytest.mark.parametrize("schema", [True, 1.0, "1", None])
def test_the_settings_schema_is_the_integer_1(schema: object, tmp_path: Path) -> None:
    chosen = menu.to_dict(menu.defaults(CFG)) | {"schema": schema}
    (tmp_path / "settings.json").write_text(json.dumps(chosen), encoding="utf-8")
    assert SettingsFile(tmp_path / "settings.json").load(CFG) is None


@pytest.mark.parametrize("schema", [True, 1.0])
def test_the_state_schema_is_the_integer_1(schema: object, tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text(dumps(GOOD | {"schema": schema}), encoding="utf-8")
    state = StateFile(tmp_path / "state.json")
    try:
        assert state.load(CFG) is None
    finally:
        state.close()


def _profile_record() -> tuple[dict[str, Any], Any, tuple[str, ...]]:
    from erabox.core.play import new_play
    from erabox.core.play_record import snapshot
    from erabox.files.games import read_profile, shipped_games

    folder = shipped_games()
    name = sorted(item.name for item in folder.iterdir() if item.name.endswith(".toml"))[0]
    profile = read_profile(folder / name)
    players = tuple(("red", "blue", "green", "yellow", "purple", "black")[
        :max(profile.min_players, 2)])
    play = new_play(profile, players, 0)
    return snapshot(play, 0.0), profile, players


@pytest.mark.parametrize(("key", "value"), [("timer_done", "yes"), ("timer_done", 1),
                                            ("schema", True), ("schema", 1.0)])
def test_a_profile_record_of_the_wrong_type_is_refused(key: str, value: object) -> None:
    from erabox.core.play_record import restore

    saved, profile, players = _profile_record()
    restore(json.loads(json.dumps(saved)), profile, players, 0.0)  # as saved: it resumes
    with pytest.raises(ValueError, match=key):
        restore(json.loads(json.dumps(saved | {key: value})), profile, players, 0.0)


# --- profiles nested too deeply name a line ------------------------------------------------------


@pytest.mark.parametrize("text", [
    '[game]\nname = "x"\n\nnotes = ' + "[" * 3000 + "]" * 3000 + "\n",
    '[game]\nname = "x"\nplayers = ' + "{ a = " * 3000 + "1" + " }" * 3000 + "\n",
    '[game]\nname = "x"\nrounds = ' + "9" * 5000 + "\n",
])
def test_a_profile_too_deep_or_too_long_for_the_parser_names_its_line(text: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "deep.toml")
    said = str(caught.value)
    assert said.startswith("deep.toml:3:") or said.startswith("deep.toml:4:"), said
    assert "nested too deeply" in said or "number too long" in said


# --- Ctrl-C at any moment, start-up included -----------------------------------------------------


INTERRUPTED = """
import os, signal, sys
# A terminal's Ctrl-C: a command started in the background by a non-interactive shell (a CI
# runner's `cmd &`) inherits SIGINT ignored, and Python then installs no KeyboardInterrupt
signal.signal(signal.SIGINT, signal.default_int_handler)
from erabox.launch import main
script, nth = sys.argv[1], int(sys.argv[2])
seen = [0, False]  # imports counted since the command began, whether it was interrupted


def hook(event, args):  # Ctrl-C at the command's nth import, wherever that falls
    if event == "import" and seen[1] is False and seen[0] >= 0:
        seen[0] += 1
        if seen[0] == nth:
            seen[1] = True
            os.kill(os.getpid(), signal.SIGINT)


sys.argv = ["erabox", "simulate", "--script", script, "--until", "3"]
seen[0] = 0
sys.addaudithook(hook)
sys.exit(main())
"""


def test_ctrl_c_during_start_up_exits_130_without_a_traceback(tmp_path: Path) -> None:
    """SIGINT during the command's start-up imports, at its 1st, 2nd, 5th ... import (the
    signal is sent from inside the process, so each moment is the same every run), and
    after them: a quiet 130 every time, or the command done (0). Before the console script's
    first line (`erabox.launch`) runs, the interpreter's own start-up is Python's: a Ctrl-C in
    those few ms gets Python's own traceback."""
    env = {**os.environ, "ERABOX_STATE": str(tmp_path / "state.json")}
    script = tmp_path / "script"
    script.write_text("0 era press\n", encoding="utf-8")
    codes = {}
    for nth in (1, 2, 5, 10, 20, 40, 80, 160, 320, 100_000):
        done = subprocess.run([sys.executable, "-c", INTERRUPTED, str(script), str(nth)],
                              capture_output=True, text=True, env=env, timeout=120)
        assert "Traceback" not in done.stderr, (nth, done.stderr)
        codes[nth] = done.returncode
    assert all(codes[n] == 130 for n in (1, 2, 5, 10, 20, 40)), codes
    assert codes[100_000] == 0 and set(codes.values()) <= {0, 130}, codes
