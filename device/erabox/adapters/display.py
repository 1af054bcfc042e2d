"""Where the screen goes: one small interface, several backends.

Everything above this module only knows `DisplayPort.show(image)` (device/erabox/ports.py): a Pillow
image in mode "1" (lit pixel = 1) the size of the panel (128x64, or 128x32 with `[display]
height = 32`). Each backend is opened for one size and refuses frames of another. Backends:

- `NullDisplay`: keeps the last image and counts frames (tests, benchmarks, `--display none`).
- `PngDisplay`: every distinct frame as `DIR/NNNN-<label>.png` (`--display png:DIR`,
  `erabox simulate --frames DIR`).
- `TerminalDisplay`: the screen drawn with half-block characters, 2 pixel rows per text row.
- `Ssd1306Display` (in `oled.py`): the real OLED over I2C, on its own worker thread.

`open_display(kind, config)` picks one by the `--display` names. "window" and "auto" belong to
the app (it knows whether a desktop is there); it can call `probe_ssd1306` for "auto".

Every backend skips a frame identical to the one before (`workers.ChangedOnly`, the one
helper for it): the game redraws often (every tick), but the picture changes at most once a
second, and on the real panel each frame costs ~1 KiB of I2C traffic.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from PIL import Image

from erabox.adapters.workers import ChangedOnly
from erabox.core.config import DisplayConfig
from erabox.ports import DisplayPort

from .packed_frames import frame_bytes, frame_image

DISPLAY_KINDS = ("ssd1306", "terminal", "png:DIR", "none")

log = logging.getLogger("erabox.display")


class DisplayError(ValueError):
    """A display that cannot be opened as asked (unknown kind, unusable frame directory...)."""


def _size(size: tuple[int, int] | None) -> tuple[int, int]:
    """The panel size a backend is opened for: `size`, or the config's default panel."""
    return size or DisplayConfig().size


class NullDisplay:
    """Shows nothing; keeps the last image and counts frames (for tests and benchmarks)."""

    def __init__(self, size: tuple[int, int] | None = None) -> None:
        self.size = _size(size)
        self.problem: str | None = None
        self.last: Image.Image | None = None
        self.last_label: str | None = None
        self.frames = 0  # show() calls
        self.changes = 0  # frames that differed from the one before
        self._shown = ChangedOnly[bytes]()

    def show(self, image: Image.Image, label: str | None = None) -> None:
        """Keep a copy of `image`."""
        frame = frame_bytes(image, self.size)
        self.frames += 1
        if self._shown.changed(frame):
            self.changes += 1
            self.last = frame_image(frame)
            self.last_label = label

    def close(self) -> None:
        """Nothing to release."""


# Characters that are safe in a file name on every filesystem the frames may land on.
_UNSAFE_LABEL = re.compile(r"[^A-Za-z0-9._+-]+")


class PngDisplay:
    """Writes every distinct frame to `directory` as `NNNN-<label>.png` (1-bit, panel-sized).

    NNNN counts written frames from 0000. Without a label the frame is labelled with the
    seconds since the display was opened ("12.345"), so names sort and read like
    `erabox simulate --frames`, whose labels are virtual seconds ("185.000").
    A write that fails (disk full, directory removed) is logged once and sets `problem`;
    the box keeps going and later frames are tried again.
    """

    def __init__(self, directory: str | Path, size: tuple[int, int] | None = None) -> None:
        self.size = _size(size)
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DisplayError(
                f"cannot write frames to {self.directory}: {exc.strerror or exc}"
            ) from None
        if not self.directory.is_dir():
            raise DisplayError(f"cannot write frames to {self.directory}: not a directory")
        self.problem: str | None = None
        self.written: list[Path] = []
        self._count = 0
        self._written = ChangedOnly[bytes]()
        self._opened = time.monotonic()

    def show(self, image: Image.Image, label: str | None = None) -> None:
        """Write `image` unless it equals the previous frame."""
        frame = frame_bytes(image, self.size)
        if not self._written.differs(frame):
            return
        if label is None:
            label = f"{time.monotonic() - self._opened:.3f}"
        name = f"{self._count:04d}-{_UNSAFE_LABEL.sub('_', label) or '_'}.png"
        path = self.directory / name
        try:
            frame_image(frame).save(path, format="PNG")
        except OSError as exc:
            if self.problem is None:
                log.warning("cannot write frame %s: %s (will keep trying)", path, exc)
            self.problem = f"cannot write frames to {self.directory}: {exc.strerror or exc}"
            return  # not remembered: the same picture is tried again next time
        if self.problem is not None:
            log.info("writing frames to %s again", self.directory)
            self.problem = None
        self._written.remember(frame)
        self._count += 1
        self.written.append(path)

    def close(self) -> None:
        """Files are closed after each frame; nothing to release."""


# Two pixel rows per character: (top lit, bottom lit) -> character.
HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
_HOME = "\x1b[H"
_SAVE = "\x1b7"  # the cursor's place (where the log writes), kept while a frame is drawn
_RESTORE = "\x1b8"
_CLEAR = "\x1b[2J"
_HIDE_CURSOR = "\x1b[?25l"
_SHOW_CURSOR = "\x1b[?25h"


def half_block_text(image: Image.Image) -> list[str]:
    """The frame as lines of 128 half-block characters (lit pixel = ink), one line for two
    pixel rows: 32 lines for a 128x64 panel, 16 for 128x32."""
    frame = frame_bytes(image)
    width, height = image.size
    rows = [_row_bits(frame, width, y) for y in range(height)]
    return [
        "".join(HALF_BLOCKS[(top, bottom)] for top, bottom in zip(rows[y], rows[y + 1],
                                                                  strict=True))
        for y in range(0, height, 2)
    ]


# Braille cells are 2 pixels wide and 4 high: dot bits by (x, y) inside the cell.
_BRAILLE_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                 (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def half_block_size(size: tuple[int, int]) -> tuple[int, int]:
    """(columns, lines) a terminal needs for half blocks (+1 line: the cursor's)."""
    return (size[0], size[1] // 2 + 1)


def braille_size(size: tuple[int, int]) -> tuple[int, int]:
    """(columns, lines) a terminal needs for braille (+1 line: the cursor's)."""
    return (size[0] // 2, size[1] // 4 + 1)


def braille_text(image: Image.Image) -> list[str]:
    """The frame as lines of 64 braille characters: every pixel, in an 80x24 terminal (16
    lines for a 128x64 panel, 8 for 128x32)."""
    frame = frame_bytes(image)
    width, height = image.size
    rows = [_row_bits(frame, width, y) for y in range(height)]
    lines = []
    for top in range(0, height, 4):
        cells = []
        for left in range(0, width, 2):
            bits = sum(bit for dx, dy, bit in _BRAILLE_DOTS if rows[top + dy][left + dx])
            cells.append(chr(0x2800 + bits))
        lines.append("".join(cells))
    return lines


def _row_bits(frame: bytes, width: int, y: int) -> list[bool]:
    stride = width // 8
    row = frame[y * stride:(y + 1) * stride]
    return [bool(byte & (0x80 >> bit)) for byte in row for bit in range(8)]


class TerminalDisplay:
    """The screen in a terminal: 32 lines of 128 half-block characters (16 for a 128x32
    panel), or in a smaller terminal (80x24) 16 lines of 64 braille characters (8); smaller
    still, a line saying so.

    On a TTY each new frame is redrawn in place (cursor home, cursor hidden until `close`);
    otherwise (a pipe or a file) frames follow each other, each followed by an empty line.
    Unchanged frames are not redrawn. A stream that fails (closed terminal) is logged once.

    With a `footer` (the keys' help line, `set_footer`) the line under the frame is kept for
    it, and the lines below that are a scroll region of their own for the log (`log_stream`):
    a log line scrolls there and never overwrites the frame or the help line. A terminal with
    no line to spare below the help line (exactly 128x33) shows no log.
    """

    def __init__(self, stream: TextIO,
                 size: Callable[[], tuple[int, int]] | None = None,
                 panel: tuple[int, int] | None = None) -> None:
        self.stream = stream
        self.panel = _size(panel)  # the frames' size; `size` is the terminal's
        self.half_block_size = half_block_size(self.panel)
        self.braille_size = braille_size(self.panel)
        self.problem: str | None = None
        try:
            self.tty = stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self._drawn = ChangedOnly[tuple[bytes, str]]()
        self._size = size if size is not None else self._terminal_size
        self._last_style = ""
        self._started = False
        self._said_small = False
        self._said_braille = False
        self._lock = threading.Lock()  # frames and log lines share the terminal
        self.footer = ""
        self._layout: tuple[int, int] | None = None  # the terminal size the layout is for
        self._log_room = False
        self._last_image: Image.Image | None = None
        self.logs_not_shown = 0

    def _terminal_size(self) -> tuple[int, int]:
        try:
            columns, lines = os.get_terminal_size(self.stream.fileno())
        except (AttributeError, ValueError, OSError):
            return self.half_block_size
        if columns == 0 or lines == 0:  # a terminal that does not know its size
            return self.half_block_size
        return columns, lines

    def _fitted(self, image: Image.Image) -> tuple[str, str]:
        """(style, text) for the terminal's size: half blocks (128x33 and up; 128x17 for a
        128x32 panel), braille (64x17 and up, e.g. 80x24; 64x9), or a line that says the
        terminal is too small."""
        if not self.tty:
            return "half", "\n".join(half_block_text(image)) + "\n"
        columns, lines = self._size()
        if columns >= self.half_block_size[0] and lines >= self.half_block_size[1]:
            return "half", "\n".join(half_block_text(image)) + "\n"
        half = "x".join(map(str, self.half_block_size))
        least = "x".join(map(str, self.braille_size))
        if columns >= self.braille_size[0] and lines >= self.braille_size[1]:
            if not self._said_braille:
                self._said_braille = True
                log.info("the terminal is %dx%d: the screen is drawn in braille; %s or larger "
                         "draws it in half blocks, easier to read", columns, lines, half)
            return "braille", "\n".join(braille_text(image)) + "\n"
        if not self._said_small:
            self._said_small = True
            log.warning("the terminal is %dx%d; the screen needs %s (%s at least, in braille)",
                        columns, lines, half, least)
        message = f"erabox needs {half} ({least} at least)"
        return "small", message[:max(1, columns - 1)] + "\n"

    def show(self, image: Image.Image, label: str | None = None) -> None:
        """Draw `image` unless it equals the previous frame."""
        with self._lock:
            self._show(image)

    def set_footer(self, footer: str) -> None:
        """Keep the line under the frame for `footer` from now on (drawn again at once)."""
        with self._lock:
            self.footer = footer
            self._started = False
            self._drawn = ChangedOnly[tuple[bytes, str]]()
            if self._last_image is not None:
                self._show(self._last_image)

    def log_stream(self) -> _LogStream:
        """A stream for a logging handler: its lines go below the help line."""
        return _LogStream(self)

    def write_log(self, text: str) -> None:
        with self._lock:
            if self._started and self.footer and not self._log_room:
                self.logs_not_shown += text.count("\n")
                return
            try:
                self.stream.write(text)
                self.stream.flush()
            except (OSError, ValueError):
                pass  # the terminal is gone: nothing to say it on

    def _footed(self, text: str, fresh: bool) -> str:
        """`text` (a frame, ending in a newline) redrawn from the top with the help line under
        it, the cursor put back where the log writes."""
        columns, lines = self._size()
        footer = "\x1b[2K" + self.footer[:max(1, columns - 1)]
        body = _SAVE + _HOME + text + footer + _RESTORE
        if not fresh and self._layout == (columns, lines):
            return body
        self._layout = (columns, lines)
        top = text.count("\n") + 2  # the log's first line, under the help line
        self._log_room = lines >= top
        region = f"\x1b[{top};{lines}r\x1b[{top};1H" if self._log_room else ""
        return _HIDE_CURSOR + _CLEAR + region + body

    def _show(self, image: Image.Image) -> None:
        frame = frame_bytes(image, self.panel)
        self._last_image = image
        style, text = self._fitted(image)
        if not self._drawn.differs((frame, style)):
            return
        if self.tty:
            fresh = not self._started or style != self._last_style
            if self.footer and style != "small":
                text = self._footed(text, fresh)
            else:
                prefix = _HIDE_CURSOR + _CLEAR + _HOME if fresh else _HOME
                text = prefix + text
        else:
            text += "\n"
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError) as exc:
            if self.problem is None:
                log.warning("cannot draw on the terminal: %s", exc)
            self.problem = f"terminal not writable: {exc}"
            return
        self._started = True
        self._drawn.remember((frame, style))
        self._last_style = style

    def close(self) -> None:
        """Give the terminal its cursor back."""
        if self.tty and self._started:
            try:
                if self._layout is not None:  # the whole screen scrolls again, from the end
                    self.stream.write(f"\x1b[r\x1b[{self._layout[1]};1H\n")
                self.stream.write(_SHOW_CURSOR)
                self.stream.flush()
            except (OSError, ValueError):
                pass  # the terminal is gone; nothing left to restore


class _LogStream:
    """What a logging handler writes to: the terminal display's log region."""

    def __init__(self, display: TerminalDisplay) -> None:
        self._display = display

    def write(self, text: str) -> int:
        self._display.write_log(text)
        return len(text)

    def flush(self) -> None:
        return None


def open_display(
    kind: str,
    config: DisplayConfig,
    *,
    stream: TextIO | None = None,
    on_problem: Callable[[str | None], None] | None = None,
) -> DisplayPort:
    """Open the display named by `--display KIND`: "ssd1306", "terminal", "png:DIR", "none".

    `stream` is where "terminal" draws (default: standard output). The SSD1306 never raises
    here when the panel is missing: it reports through `problem` (and `on_problem`, called
    from its worker thread whenever the problem changes) and keeps retrying.
    Raises `DisplayError` (a ValueError) for an unknown kind or an unusable frame directory.
    """
    if kind == "none":
        return NullDisplay(config.size)
    if kind == "terminal":
        if stream is None:
            import sys

            stream = sys.stdout
        return TerminalDisplay(stream, panel=config.size)
    if kind.startswith("png:"):
        directory = kind[len("png:"):]
        if not directory:
            raise DisplayError("--display png:DIR needs a directory, e.g. png:/tmp/frames")
        return PngDisplay(directory, config.size)
    if kind == "ssd1306":
        # Imported here rather than at the top: oled.py builds on this module.
        from .oled import Ssd1306Display

        return Ssd1306Display(config, on_problem=on_problem)
    raise DisplayError(
        f"unknown display {kind!r}: expected one of {', '.join(DISPLAY_KINDS)}"
        " (or 'window'/'auto' through erabox run)"
    )


def probe_ssd1306(config: DisplayConfig) -> bool:
    """True when an SSD1306 answers on the configured bus at 0x3C or 0x3D (for `auto`).

    `open_display("ssd1306", config)` then finds it at either address; `oled.find_ssd1306`
    says which one answered.
    """
    from .oled import find_ssd1306

    return find_ssd1306(config) is not None
