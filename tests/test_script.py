"""Timed input scripts (docs/simulate.md): parsed whole before anything runs; a bad line is named
by file and line, and nothing at all is run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from erabox.core.model import Button, Gesture, Input
from erabox.core.script import End, Restart, ScriptError, ScriptLine, parse_script

ROOT = Path(__file__).resolve().parent.parent
GOOD = "0 era press\n"


def test_lines_comments_blanks_restart_and_end() -> None:
    text = """# a whole-line comment

    0 next press
    0 era press   # two inputs at the same time are fine
    1.5 both hold
    2 vol_up press
    2 vol_down hold
    3e2 restart
    400 end
    """
    assert parse_script(text) == [
        ScriptLine(0.0, Input(Button.NEXT, Gesture.PRESS), 3),
        ScriptLine(0.0, Input(Button.ERA, Gesture.PRESS), 4),
        ScriptLine(1.5, Input(Button.BOTH, Gesture.HOLD), 5),
        ScriptLine(2.0, Input(Button.VOL_UP, Gesture.PRESS), 6),
        ScriptLine(2.0, Input(Button.VOL_DOWN, Gesture.HOLD), 7),
        ScriptLine(300.0, Restart(), 8),
        ScriptLine(400.0, End(), 9),
    ]


def test_an_empty_script_is_no_input() -> None:
    assert parse_script("") == []
    assert parse_script("# nothing\n\n") == []


# A bad line (its problem in words), and the lines before it are good.
BAD_LINES = {
    "unknown button": "5 start press",
    "bad gesture": "5 next click",
    "a release": "5 next release",
    "a hold held on too long": "5 next hold 61",
    "held on a negative time": "5 next hold -1",
    "era held on": "5 era hold 2",
    "times out of order": "0.5 era press",
    "negative time": "-1 era press",
    "no time": "era press",
    "not a number": "five era press",
    "infinite time": "inf era press",
    "not a number either": "nan era press",
    "missing gesture": "5 next",
    "extra word": "5 next press now",
    "restart with a gesture": "5 restart press",
}


@pytest.mark.parametrize("problem", list(BAD_LINES))
def test_a_bad_line_names_file_and_line(problem: str) -> None:
    text = f"# header\n0 next press\n1 era press\n\n{BAD_LINES[problem]}\n9 era hold\n"
    with pytest.raises(ScriptError) as caught:
        parse_script(text, "game.txt")
    assert str(caught.value).startswith("game.txt:5:")
    assert BAD_LINES[problem].strip() in str(caught.value)


def test_next_hold_is_let_go_at_once_or_after_the_seconds_it_is_held_on() -> None:
    lines = parse_script("1 next hold\n2 next hold 1.5\n3.5 both press\n")
    assert [(line.at, line.action) for line in lines] == [
        (1.0, Input(Button.NEXT, Gesture.HOLD)), (1.0, Input(Button.NEXT, Gesture.RELEASE)),
        (2.0, Input(Button.NEXT, Gesture.HOLD)), (3.5, Input(Button.NEXT, Gesture.RELEASE)),
        (3.5, Input(Button.BOTH, Gesture.PRESS))]
    with pytest.raises(ScriptError, match="backwards"):  # a press while NEXT is still held
        parse_script("2 next hold 1.5\n3 era press\n")


def test_script_error_is_a_value_error() -> None:
    assert issubclass(ScriptError, ValueError)


def simulate(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "erabox", "simulate", *args],
                          input=script, capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("problem", ["unknown button", "times out of order", "bad gesture",
                                     "a release"])
def test_simulate_refuses_a_bad_script_from_stdin_and_runs_nothing(problem: str) -> None:
    done = simulate(f"0 next press\n1 era press\n{BAD_LINES[problem]}\n", "--script", "-")
    assert done.returncode == 2
    assert "<stdin>:3:" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # not even the first state line: nothing was run


@pytest.mark.parametrize("problem", ["unknown button", "times out of order", "bad gesture",
                                     "a release"])
def test_simulate_refuses_a_bad_script_file_and_runs_nothing(problem: str,
                                                             tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(f"# my game\n0 era press\n1 next press\n{BAD_LINES[problem]}\n",
                    encoding="utf-8")
    done = simulate("", "--script", str(path))
    assert done.returncode == 2
    assert f"{path}:4:" in done.stderr
    assert done.stdout == ""


def test_simulate_refuses_a_missing_script_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    done = simulate("", "--script", str(missing))
    assert done.returncode == 2
    assert str(missing) in done.stderr and done.stdout == ""
