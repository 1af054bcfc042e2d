"""Issue #10, items 3 and 7 (config side), and the fuzz tests: a config, a script or a state file
of any content ends in exit 0 or in exit 2 with a message naming the place; never a traceback;
a state file the box cannot use is kept aside and the box starts."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erabox import cli
from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, ConfigError, parse_config
from erabox.core.engine import ProfileEngine
from erabox.core.model import Tick
from erabox.core.snapshot import dumps
from erabox.files.games import own_rounds

SOURCE = "/etc/erabox/test.toml"
ROOT = Path(__file__).resolve().parent.parent


def refused(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, SOURCE)
    message = str(caught.value)
    assert SOURCE in message
    return message


# --- item 3: what tomllib itself cannot take ---------------------------------------------------


def test_an_integer_of_5000_digits_is_a_config_error_naming_the_line() -> None:
    message = refused('language = "en"\n[audio]\nrate = ' + "9" * 5000 + "\n")
    assert "line 3" in message and len(message) < 300


def test_deep_nesting_is_a_config_error() -> None:
    refused("x = " + "[" * 100_000 + "]" * 100_000 + "\n")


# --- item 7: smaller things --------------------------------------------------------------------


@pytest.mark.parametrize("players", ['["red", "red "]', '[" blue", "blue"]', '["Red", "red"]'])
def test_players_that_are_the_same_once_stripped_are_refused(players: str) -> None:
    assert "'players'" in refused(f"players = {players}\n")


def test_one_bad_value_is_shown_short() -> None:
    message = refused('language = "' + "x" * 3_000_000 + '"\n')
    assert len(message) < 300 and "'language'" in message


def test_an_unknown_key_of_a_megabyte_is_shown_short() -> None:
    message = refused("k" * 1_000_000 + " = 1\n")
    assert len(message) < 400


def test_a_config_with_a_byte_order_mark_is_read() -> None:
    assert parse_config('\ufefflanguage = "ja"\n', SOURCE).language == "ja"


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1" + "0" * 400])
def test_numbers_must_be_finite(value: str) -> None:
    assert "'era1.track_offset_s'" in refused(f"[era1]\ntrack_offset_s = {value}\n")


# --- item 3: scripts that are not UTF-8 ---------------------------------------------------------


def _erabox(*args: str, cwd: Path, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "erabox", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_simulate_with_a_script_that_is_not_utf8_exits_2_naming_the_line(tmp_path: Path) -> None:
    script = tmp_path / "latin1.script"
    script.write_bytes("0 era press\n# caf\u00e9\n".encode("latin-1"))
    result = _erabox("simulate", "--script", str(script), cwd=ROOT)
    assert result.returncode == 2
    assert f"{script}:2:" in result.stderr and "UTF-8" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_with_a_script_that_is_not_utf8_exits_2_naming_the_line(tmp_path: Path) -> None:
    script = tmp_path / "utf16.script"
    script.write_bytes("0 era press\n".encode("utf-16"))
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", ERABOX_STATE=str(tmp_path / "s.json"))
    env.pop("DISPLAY", None)
    env.pop("ERABOX_CONFIG", None)
    result = _erabox("run", "--display", "none", "--audio", "none", "--script", str(script),
                     cwd=ROOT, env=env)
    assert result.returncode == 2
    assert f"{script}:1:" in result.stderr and "UTF-8" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_with_an_integer_of_5000_digits_in_the_config_exits_2(tmp_path: Path) -> None:
    config = tmp_path / "huge.toml"
    config.write_text("[realtime]\nlength_s = " + "5" * 5000 + "\n", encoding="utf-8")
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", ERABOX_STATE=str(tmp_path / "s.json"))
    env.pop("DISPLAY", None)
    result = _erabox("run", "--display", "none", "--audio", "none", "--config", str(config),
                     cwd=ROOT, env=env)
    assert result.returncode == 2
    assert str(config) in result.stderr and "Traceback" not in result.stderr


# --- fuzz: configs, scripts, state files --------------------------------------------------------

KEYS = ["language", "players", "default_mode", "state_file", "realtime.length_s",
        "realtime.scholar_cues_s", "realtime.lead_in_s", "realtime.final_ticks_s",
        "realtime.scholar_prompt_s", "intro.rounds", "intro.scholar_after_rounds",
        "audio.rate", "audio.buffer", "audio.volume", "audio.duck_db", "audio.gong",
        "era1.music", "era2.music_kind", "era3.track_offset_s", "display.i2c_bus",
        "display.address", "display.rotate", "display.contrast", "buttons.next_pin",
        "buttons.era_pin", "buttons.led_pin", "buttons.hold_s", "buttons.both_s",
        "buttons.bounce_s", "nonsense", "audio.nonsense"]

SCALARS = st.one_of(
    st.integers(min_value=-10**6, max_value=10**6).map(str),
    st.integers(min_value=4000, max_value=6000).map(lambda n: "7" * n),
    st.floats(allow_nan=True, allow_infinity=True).map(
        lambda f: {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(f), repr(f))),
    st.text(max_size=30).map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
    st.sampled_from(["true", "false", '"realtime"', '"intro"', '"ja"', '"track"', "[]",
                     '["red", "red "]', "[180, 360]", "{a = 1}", "[[[[[[[[1]]]]]]]]"]),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=5).map(lambda v: f"[{', '.join(v)}]"))


@st.composite
def config_texts(draw: st.DrawFn) -> bytes:
    tables: dict[str, list[str]] = {}
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=8, unique=True)):
        table, _, name = key.rpartition(".")
        tables.setdefault(table, []).append(f"{name} = {draw(VALUES)}")
    text = "\n".join(tables.pop("", []))
    for table, lines in tables.items():
        text += f"\n[{table}]\n" + "\n".join(lines)
    data = (text + "\n").encode("utf-8")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 4)) == 0:  # now and then, a few random bytes anywhere
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=8)) + data[at:]
    if draw(st.integers(0, 20)) == 0:
        data = b"x = " + b"[" * 5000
    return data


def erabox_in_process(*args: str) -> tuple[int, str]:
    """`erabox ARGS` in this process: the exit code and stderr. Any exception escaping `main`
    is a traceback the user would see."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return code, err.getvalue()


FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(config_texts())
def test_fuzzed_configs_exit_0_or_2_naming_the_file(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.toml"
        path.write_bytes(data)
        code, err = erabox_in_process("simulate", "--config", str(path), "--until", "1")
    assert code in (0, 2)
    if code == 2:
        assert str(path) in err and len(err) < 1000


SCRIPT_WORDS = ["0", "1.5", "-1", "1e400", "nan", "99999", "next", "era", "both", "vol_up",
                "press", "hold", "restart", "end", "#", "x", "\t", "0.000001"]


@st.composite
def script_texts(draw: st.DrawFn) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        words = draw(st.lists(st.sampled_from(SCRIPT_WORDS), max_size=4))
        lines.append(" ".join(words))
    data = "\n".join(lines).encode("utf-8")
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=6)) + data[at:]
    return data


@FUZZ
@given(script_texts())
def test_fuzzed_scripts_exit_0_or_2_naming_the_file_and_line(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.script"
        path.write_bytes(data)
        code, err = erabox_in_process("simulate", "--script", str(path), "--until", "2000")
    assert code in (0, 2)
    if code == 2:
        assert f"{path}:" in err and len(err) < 1000


CFG = Config()
SNAPSHOT_FIELDS = {
    "schema": st.sampled_from([1, 1, 1, 2, "1", None]),
    "phase": st.sampled_from(["setup", "lead_in", "running", "paused", "intro_round",
                              "scholars", "scoring", "game_over", "confirm", "x", 3]),
    "mode": st.sampled_from(["realtime", "intro", "x", None]),
    "era": st.one_of(st.integers(-1, 5), st.just(True), st.just("1")),
    "round": st.one_of(st.none(), st.integers(-1, 20)),
    "era_start_player": st.one_of(st.integers(-2, 6), st.just(10**30)),
    "elapsed": st.one_of(st.none(), st.floats(allow_nan=True), st.integers(-5, 10**9)),
    "cues_done": st.one_of(st.integers(-1, 20), st.just(10**20)),
    "scoring_step": st.integers(-1, 7),
    "volume": st.one_of(st.floats(allow_nan=True), st.integers(-1, 2)),
    "armed": st.one_of(st.none(), st.integers(-1, 20), st.just("x")),
}


@st.composite
def state_texts(draw: st.DrawFn) -> bytes:
    fields = {k: draw(v) for k, v in SNAPSHOT_FIELDS.items() if draw(st.integers(0, 9)) > 0}
    data = dumps(fields).encode("utf-8")
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=6)) + data[at + draw(st.integers(0, 4)):]
    return data


@FUZZ
@given(state_texts())
def test_fuzzed_state_files_resume_or_are_kept_aside(data: bytes) -> None:
    """A state file in the record of an older box (the era engine's), fuzzed, read as the box
    reads it (`StateFile.load_as` with the round engine's `parse`, run/driver.py)."""
    engine = ProfileEngine(own_rounds(), CFG)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.json"
        path.write_bytes(data)
        state = StateFile(path)
        try:
            saved = state.load_as(engine.parse)
        finally:
            state.close()
        names = sorted(p.name for p in Path(folder).iterdir())
    if saved is None:
        assert len(names) == 1 and names[0].startswith("state.json.bad-"), names
        return
    assert names == ["state.json"]
    play, _ = engine.restore(saved, 100.0)  # a file `load_as` accepts is one the box resumes
    for t in (100.0, 160.0, 1000.0):
        play, _ = engine.step(play, Tick(), t)
    engine.snapshot(play, 1000.0)


def test_the_fuzzers_reach_both_outcomes() -> None:
    """The strategies are not degenerate: a default config runs and a junk one is refused."""
    assert erabox_in_process("simulate", "--until", "1")[0] == 0
    engine = ProfileEngine(own_rounds(), CFG)
    fresh, _ = engine.fresh(0.0, 0)
    assert engine.parse(dumps(engine.snapshot(fresh, 0.0)))["spot"]["state"] == "setup"
