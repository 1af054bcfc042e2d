"""The terminal's keys: every gesture README teaches has its key at the same gesture count,
keys typed faster than a finger are all acted out in order (through a real pty, the mock pins
and the gesture recogniser), and the help line stays under the frame with the log below it."""

from __future__ import annotations

import functools
import io
import logging
import os
import queue
import threading
import tty
from itertools import product

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageDraw

from erabox.adapters.buttons import SimulatedButtons
from erabox.adapters.display import TerminalDisplay
from erabox.adapters.keyboard import (
    HELP,
    KEYS,
    NEXT_HOLD,
    PROFILE_HELP,
    STEP_KEYS,
    KeyboardInput,
    held_past_threshold,
    help_line,
)
from erabox.core import play
from erabox.core.config import parse_config
from erabox.core.model import Button, Gesture, Input
from test_rounds_entry import scoring

N, E, BOTH = Button.NEXT, Button.ERA, Button.BOTH
P, H, R = Gesture.PRESS, Gesture.HOLD, Gesture.RELEASE


@functools.cache  # fewest_keys tries the same strings for every number
def entered(keys: str) -> int:
    """The number the entry of points holds after `keys`, acted out as the keyboard does on
    Time of Empires' round file at an era's scoring (its era totals): a NEXT hold is let go
    `held_past_threshold` after it fired (the core times the ramp from the hold to its
    release)."""
    table = scoring(("red", "blue"))
    for key in keys:
        if key in STEP_KEYS or key == "N":  # N: let go 0.1 s past the threshold
            table.do(NEXT_HOLD.button, NEXT_HOLD.gesture, after=1.0)
            table.do(N, R, after=held_past_threshold(STEP_KEYS[key]) if key in STEP_KEYS
                     else 0.1)
        else:
            table.do(KEYS[key].button, KEYS[key].gesture, after=1.0)
    value = table.shown(table.now + 1.0).value
    assert value is not None
    return value


def fewest_keys(number: int) -> str:
    """The shortest key string that enters `number` (no ERA), searched over every string of
    up to three keys."""
    alphabet = ["n", "b", "N", *STEP_KEYS]
    for length in range(4):
        for keys in product(alphabet, repeat=length):
            if entered("".join(keys)) == number:
                return "".join(keys)
    raise AssertionError(f"no three keys enter {number}")


def test_every_number_up_to_52_takes_at_most_four_keys_as_readme_says() -> None:
    """README: 17 is a hold to +15, two NEXT presses and ERA; 19 a hold to +20, one tap of
    both and ERA; every number up to 52 at most four gestures. The terminal: the same counts,
    each hold's step one key (it took 6, 8 and 11 keys for 17, 19 and 49 before)."""
    assert entered("3nn") == 17 and entered("4b") == 19 and entered("0b") == 49
    assert [len(fewest_keys(n)) for n in (17, 19, 49)] == [3, 2, 2]
    for number in range(53):
        assert len(fewest_keys(number)) + 1 <= 4  # and ERA to confirm
    assert entered("N") == 5 and entered("0") == 50 and entered("nb") == 0


def test_each_step_key_lets_go_in_the_middle_of_its_step() -> None:
    for steps in range(1, 11):
        held = held_past_threshold(steps)
        for late in (-play.RAMP_S / 2 + 1e-3, 0.0, play.RAMP_S / 2 - 1e-3):
            assert play.hold_adds(held + late) == 5 * steps  # a quarter second either way


def test_the_help_line_names_every_key() -> None:
    for words in ("n/N", "1-9 0", "e/E", "b/B", "+/-", "q quit", "-1", "new game"):
        assert words in HELP
    assert len(HELP) < 128  # one line of a 128-column terminal
    assert KEYS["b"] == Input(BOTH, P) and KEYS["B"] == Input(BOTH, H)


def test_a_profiles_help_line_says_what_a_profile_does() -> None:
    """A profile's hold adds +5 however long it lasts, and its both-buttons press does
    nothing (docs/profiles.md, "The buttons"): its help line names neither the hold's steps
    to +50 nor -1 (it said Time of Empires' while Lords of Xidit was scored)."""
    assert help_line(profile=False) == HELP
    line = help_line(profile=True)
    assert line == PROFILE_HELP and len(line) < 128
    for untrue in ("1-9", "+45", "+50", "-1", "b/B"):
        assert untrue not in line
    for words in ("n/N", "+5", "undo", "e/E", "B both held(new game)", "+/-", "q quit"):
        assert words in line


def test_the_help_line_follows_the_game_switched_to() -> None:
    master, slave = os.openpty()
    stream = open(slave, encoding="utf-8")  # noqa: SIM115 - closed below
    display = TerminalDisplay(io.StringIO(), size=lambda: (128, 40))
    display.tty = True
    keyboard = KeyboardInput(None, lambda _item: None, 0.01, display, stream=stream,
                             profile=True)
    try:
        assert display.footer == PROFILE_HELP
        keyboard.set_game(profile=False)
        assert display.footer == HELP
        keyboard.set_game(profile=True)
        assert display.footer == PROFILE_HELP
    finally:
        keyboard.close()
        stream.close()
        os.close(master)


@pytest.fixture
def typed():
    """A pty whose slave side the keyboard reads, the mock pins and the gestures they give."""
    # a press (0.1 s down) is half a second short of a hold: room for a slow thread under load
    config = parse_config("[buttons]\nhold_s = 0.6\nbounce_s = 0.01\n", "t.toml")
    inputs: queue.Queue[Input] = queue.Queue()
    factory = MockFactory()
    buttons = SimulatedButtons(config.buttons, inputs.put, pin_factory=factory)
    master, slave = os.openpty()
    stream = open(slave, encoding="utf-8")  # noqa: SIM115 - closed below
    keyboard = KeyboardInput(buttons, inputs.put, config.buttons.bounce_s, stream=stream)

    def gestures(count: int) -> list[Input]:
        return [inputs.get(timeout=60) for _ in range(count)]  # a bound, not a sleep

    yield master, gestures, inputs
    keyboard.close()
    buttons.close()
    factory.close()
    stream.close()
    os.close(master)


def test_keys_typed_at_once_are_all_acted_out_in_order(typed) -> None:
    master, gestures, inputs = typed
    os.write(master, b"eeeeee")  # faster than any finger: one read gets them all
    assert gestures(6) == [Input(E, P)] * 6  # it used to move one step
    os.write(master, b"NnNbe")  # a second hold within the first one's time is kept too
    assert gestures(7) == [Input(N, H), Input(N, R), Input(N, P), Input(N, H), Input(N, R),
                           Input(BOTH, P), Input(E, P)]
    os.write(master, b"3")
    assert gestures(2) == [Input(N, H), Input(N, R)]
    assert inputs.empty()


FRAME = Image.new("1", (128, 64), 0)
ImageDraw.Draw(FRAME).rectangle((10, 10, 50, 40), fill=1)
OTHER = Image.new("1", (128, 64), 1)


def test_log_lines_go_below_the_help_line_never_over_it() -> None:
    """The frame's 32 lines, the help line on line 33, the log scrolling on lines 34..40 of a
    40-line terminal: each frame is drawn from the top with the cursor put back where the log
    writes, so a log line never lands on the frame or the help line."""
    master, slave = os.openpty()
    tty.setraw(slave)
    received = bytearray()

    def read_all() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    stream = open(slave, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    display = TerminalDisplay(stream, size=lambda: (128, 40))
    handler = logging.StreamHandler(display.log_stream())  # type: ignore[arg-type]
    log = logging.getLogger("erabox.test-terminal")
    log.addHandler(handler)
    log.propagate = False
    try:
        display.show(FRAME)
        display.set_footer(HELP)
        log.warning("a log line")
        display.show(OTHER)
        log.warning("another")
    finally:
        log.removeHandler(handler)
        display.close()
        stream.close()
        reader.join(10)
        os.close(master)
    text = received.decode("utf-8")
    footed = text[text.index("\x1b[34;40r"):]  # the log's scroll region: lines 34..40
    assert footed.startswith("\x1b[34;40r\x1b[34;1H\x1b7\x1b[H")  # log cursor kept, frame from top
    frames = footed.split("\x1b7\x1b[H")[1:]
    assert len(frames) == 2
    for drawn in frames:
        lines = drawn.split("\x1b8")[0].split("\n")
        assert len(lines) == 33 and lines[32] == "\x1b[2K" + HELP  # the help line, line 33
        after = drawn.split("\x1b8", 1)[1]  # the log, written at the restored cursor
        assert "\x1b[H" not in after
    assert "a log line" in frames[0].split("\x1b8", 1)[1]
    assert "another" in frames[1].split("\x1b8", 1)[1]


def test_a_terminal_with_no_line_below_the_help_shows_no_log() -> None:
    stream = io.StringIO()
    display = TerminalDisplay(stream, size=lambda: (128, 33))
    display.tty = True
    display.set_footer(HELP)
    display.show(FRAME)
    before = stream.getvalue()
    display.write_log("a log line\n")
    assert stream.getvalue() == before and display.logs_not_shown == 1
    assert before.rstrip("\x1b8").endswith(HELP)
