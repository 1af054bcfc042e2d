"""The simple display backends: null, PNG frames, terminal half blocks, and `open_display`."""

from __future__ import annotations

import io
import logging
import os
import random
import re
import shutil
import threading
import tty

import pytest
from PIL import Image, ImageDraw

from erabox.adapters.display import (
    DisplayError,
    NullDisplay,
    PngDisplay,
    TerminalDisplay,
    open_display,
)
from erabox.core.config import DisplayConfig


def noise(seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("1", (128, 64), bytes(rng.randrange(256) for _ in range(1024)))


def drawing(words: str) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.text((5, 20), words, fill=1)
    image.putpixel((1, 62), 1)  # an odd row: the bottom half of a text row
    return image


FRAMES = [drawing("Era I"), noise(1), Image.new("1", (128, 64), 1), drawing("3:00")]


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


# --- null -----------------------------------------------------------------------------------


def test_null_display_keeps_the_last_frame_and_counts() -> None:
    display = NullDisplay()
    first = drawing("one")
    display.show(first, label="1.000")
    first.putpixel((64, 32), 1)  # the caller reusing its image must not change what was shown
    display.show(drawing("one"))
    display.show(drawing("two"))
    assert display.frames == 3 and display.changes == 2
    assert display.last is not None and same_pixels(display.last, drawing("two"))
    with pytest.raises(ValueError, match="128x64 mode '1'"):
        display.show(Image.new("RGB", (128, 64)))
    assert same_pixels(display.last, drawing("two")) and display.frames == 3


# --- PNG ------------------------------------------------------------------------------------


def test_png_frames_are_named_and_identical(tmp_path) -> None:
    display = PngDisplay(tmp_path / "frames")
    labels = ["0.000", "1.000", "1.000", "185.000", "185.500"]
    images = [FRAMES[0], FRAMES[1], FRAMES[1], FRAMES[2], FRAMES[3]]  # one repeat
    for image, label in zip(images, labels, strict=True):
        display.show(image, label=label)
    names = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert names == ["0000-0.000.png", "0001-1.000.png", "0002-185.000.png", "0003-185.500.png"]
    for name, image in zip(names, FRAMES, strict=True):
        with Image.open(tmp_path / "frames" / name) as saved:
            assert saved.size == (128, 64) and saved.mode == "1"
            assert same_pixels(saved, image)
    assert display.problem is None


def test_png_labels_default_to_seconds_and_are_made_safe(tmp_path) -> None:
    display = PngDisplay(tmp_path)
    display.show(FRAMES[0])
    display.show(FRAMES[1], label="era 2/3:00")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert re.fullmatch(r"0000-\d+\.\d{3}\.png", names[0]), names
    assert names[1] == "0001-era_2_3_00.png"


def test_png_directory_that_cannot_be_made_is_a_clear_error(tmp_path) -> None:
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(DisplayError, match="cannot write frames to"):
        PngDisplay(tmp_path / "file" / "frames")
    with pytest.raises(DisplayError, match="cannot write frames to"):
        PngDisplay(tmp_path / "file")


def test_png_write_failure_logs_once_and_recovers(tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="erabox.display")
    directory = tmp_path / "frames"
    display = PngDisplay(directory)
    display.show(FRAMES[0], label="a")
    shutil.rmtree(directory)  # e.g. a tmpfs cleaned under the box
    for n, image in enumerate(FRAMES[1:]):
        display.show(image, label=f"lost{n}")
    assert display.problem is not None and str(directory) in display.problem
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1
    directory.mkdir()
    display.show(FRAMES[1], label="b")
    assert display.problem is None
    assert [p.name for p in directory.iterdir()] == ["0001-b.png"]


# --- terminal -------------------------------------------------------------------------------

BLOCK_BITS = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}


def decode_half_blocks(lines: list[str]) -> Image.Image:
    """Parse lines of half blocks (32 for 128x64, 16 for 128x32) back into the picture they
    draw."""
    assert len(lines) in (32, 16), len(lines)
    image = Image.new("1", (128, 2 * len(lines)), 0)
    for row, line in enumerate(lines):
        assert len(line) == 128, (row, len(line))
        for x, char in enumerate(line):
            top, bottom = BLOCK_BITS[char]
            image.putpixel((x, 2 * row), top)
            image.putpixel((x, 2 * row + 1), bottom)
    return image


def test_terminal_frames_decode_back_to_the_images() -> None:
    stream = io.StringIO()
    display = TerminalDisplay(stream)
    for image in FRAMES + [FRAMES[-1]]:  # the repeat is not drawn again
        display.show(image)
    display.close()
    text = stream.getvalue()
    assert "\x1b" not in text  # not a terminal: no escape codes in a pipe or a log
    frames = text.split("\n\n")
    assert frames[-1] == ""
    decoded = [decode_half_blocks(frame.split("\n")) for frame in frames[:-1]]
    assert len(decoded) == len(FRAMES)
    for seen, image in zip(decoded, FRAMES, strict=True):
        assert same_pixels(seen, image)


def test_terminal_redraws_in_place_on_a_tty() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)  # no newline translation: the bytes as written
    received = bytearray()

    def read_all() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the slave side was closed
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    stream = open(slave, "w", encoding="utf-8")  # noqa: SIM115 - closed below, after close()
    display = TerminalDisplay(stream)
    assert display.tty
    for image in FRAMES[:3] + [FRAMES[2]]:
        display.show(image)
    display.close()
    stream.close()
    reader.join(10)
    os.close(master)
    text = received.decode("utf-8")
    assert text.startswith("\x1b[?25l\x1b[2J\x1b[H")  # hide cursor, clear once, home
    assert text.endswith("\x1b[?25h")  # the cursor given back
    body = text[len("\x1b[?25l\x1b[2J"):-len("\x1b[?25h")]
    drawn = body.split("\x1b[H")[1:]
    assert len(drawn) == 3  # the repeat was not redrawn
    for frame, image in zip(drawn, FRAMES[:3], strict=True):
        assert frame.endswith("\n")
        assert same_pixels(decode_half_blocks(frame[:-1].split("\n")), image)


def test_terminal_that_fails_is_reported_once(caplog) -> None:
    stream = io.StringIO()
    display = TerminalDisplay(stream)
    stream.close()
    for image in FRAMES:
        display.show(image)
    assert display.problem is not None
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1


# --- choosing ---------------------------------------------------------------------------------


def test_open_display_by_kind(tmp_path) -> None:
    config = DisplayConfig()
    assert isinstance(open_display("none", config), NullDisplay)
    stream = io.StringIO()
    terminal = open_display("terminal", config, stream=stream)
    assert isinstance(terminal, TerminalDisplay)
    terminal.show(FRAMES[0])
    assert stream.getvalue()
    png = open_display(f"png:{tmp_path / 'out'}", config)
    assert isinstance(png, PngDisplay)
    png.show(FRAMES[0], label="7.000")
    assert (tmp_path / "out" / "0000-7.000.png").exists()


@pytest.mark.parametrize("kind", ["oled", "png", "png:", "", "window2"])
def test_unknown_display_kind_lists_the_valid_ones(kind) -> None:
    with pytest.raises(DisplayError) as raised:
        open_display(kind, DisplayConfig())
    assert isinstance(raised.value, ValueError)
    if kind != "png:":
        for valid in ("ssd1306", "terminal", "png:DIR", "none"):
            assert valid in str(raised.value)


# --- the panel's size comes from the config ----------------------------------------------------


@pytest.mark.parametrize("kind", ["none", "terminal", "png"])
def test_each_backend_takes_the_configured_panel_size(tmp_path, kind) -> None:
    """Opened for `[display] height = 32`, a backend shows 128x32 frames and refuses 128x64
    ones (a frame for the wrong panel is a bug upstream, not something to squeeze)."""
    config = DisplayConfig(height=32)
    stream = io.StringIO()
    name = f"png:{tmp_path / 'out'}" if kind == "png" else kind
    display = open_display(name, config, stream=stream)
    small = noise(3).crop((0, 0, 128, 32))
    display.show(small, "1.000")
    with pytest.raises(ValueError, match="128x32"):
        display.show(noise(4), "2.000")
    if kind == "none":
        assert isinstance(display, NullDisplay) and display.last is not None
        assert same_pixels(display.last, small)
    elif kind == "terminal":
        lines = stream.getvalue().split("\n\n")[0].split("\n")
        assert len(lines) == 16  # two pixel rows a line
        assert same_pixels(decode_half_blocks(lines), small)
    else:
        (written,) = sorted((tmp_path / "out").iterdir())
        with Image.open(written) as image:
            assert image.size == (128, 32) and same_pixels(image, small)


def test_terminal_sizes_follow_the_panel() -> None:
    small = TerminalDisplay(io.StringIO(), panel=(128, 32))
    big = TerminalDisplay(io.StringIO())
    assert (small.half_block_size, small.braille_size) == ((128, 17), (64, 9))
    assert (big.half_block_size, big.braille_size) == ((128, 33), (64, 17))
