"""An emulated SSD1306 on an emulated I2C bus, for testing the real driver without a panel.

`EmulatedI2CBus` has the methods `adafruit_ssd1306` / `I2CDevice` call on a bus (the same as
`erabox.adapters.oled.LinuxI2CBus`). It hosts `Ssd1306Emulator` chips at their addresses;
each decodes what it receives the way the SSD1306 datasheet (rev 1.1) describes:

- every I2C write starts with a control byte: Co (bit 7) and D/C# (bit 6). Co=0: the rest of
  the write is all commands (D/C#=0) or all display data (D/C#=1). Co=1: one byte follows,
  then another control byte;
- commands are decoded with their argument counts; a command's arguments may arrive in later
  writes (the Adafruit driver sends every byte as its own write);
- data bytes go into GDDRAM (8 pages x 128 segments, bit 0 = the page's top row) at the
  column/page pointer, which moves as the addressing mode says (horizontal, vertical, page)
  within the column and page windows. Segment remap (A0/A1) applies when data is written
  ("only affects subsequent data input"); COM scan direction, start line, offset, invert,
  entire-on and display on/off apply when the panel is looked at.

`Ssd1306Emulator.panel_image()` is what a person sees on a panel mounted the usual way: the
module orientation in which Adafruit's default init (A1 + C8) shows the driver's image
upright. So a frame drawn upside down, mirrored or shifted fails a pixel comparison.
`Ssd1306Emulator(rows=32)` is a 128x32 module: the same chip (64 rows of GDDRAM) wired to a
glass of 32 rows (COM0..31), which shows nothing unless the multiplex ratio is set to 32.

Faults: `unplug()` (every transaction to the address raises OSError 121, Remote I/O error,
as i2c-dev does on a NACK), `replug()` (the chip comes back in its power-on state: display
off, charge pump off, memory full of noise), `write_delay_s` (each write takes that long),
`glitch(n)` (the next n writes fail, the chip keeps its state).
"""

from __future__ import annotations

import errno
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

WIDTH = 128
PAGES = 8
HEIGHT = PAGES * 8

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2

# Commands that take arguments, and how many. Single-byte commands are decoded by range.
ARGUMENT_COUNTS = {
    0x81: 1,  # contrast
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address window
    0x22: 2,  # page address window
    0x26: 6, 0x27: 6,  # horizontal scroll setup
    0x29: 5, 0x2A: 5,  # vertical and horizontal scroll setup
    0xA3: 2,  # vertical scroll area
    0xA8: 1,  # multiplex ratio
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide / oscillator
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins configuration
    0xDB: 1,  # VCOMH deselect level
    0x8D: 1,  # charge pump
    0xAD: 1,  # internal IREF (SSD1306B); the Adafruit driver sends it
    0x23: 1,  # fade out / blink (SSD1306B)
    0xD6: 1,  # zoom in (SSD1306B)
}


@dataclass
class Ssd1306Emulator:
    """One SSD1306 chip: command decoder, GDDRAM, and the panel it drives."""

    seed: int = 1
    rows: int = HEIGHT  # the glass's pixel rows: 64, or 32 on a 128x32 module
    # Everything below is chip state; `power_on()` sets the datasheet's reset values.
    gddram: bytearray = field(default_factory=lambda: bytearray(WIDTH * PAGES))
    display_on: bool = False
    contrast: int = 0x7F
    entire_on: bool = False
    inverted: bool = False
    addressing: int = PAGE
    column_window: tuple[int, int] = (0, WIDTH - 1)
    page_window: tuple[int, int] = (0, PAGES - 1)
    column: int = 0
    page: int = 0
    page_mode_column: int = 0  # start column set by the 0x00-0x1F nibbles
    segment_remap: bool = False
    com_reversed: bool = False
    start_line: int = 0
    multiplex: int = 64
    display_offset: int = 0
    charge_pump: bool = False
    scrolling: bool = False
    settings: dict[int, tuple[int, ...]] = field(default_factory=dict)  # 0xD5 etc.: last args
    errors: list[str] = field(default_factory=list)  # protocol errors a real chip would ignore
    commands: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    data_bytes: int = 0
    _pending: list[int] = field(default_factory=list)  # a command still waiting for arguments

    def __post_init__(self) -> None:
        self.power_on()

    def power_on(self) -> None:
        """Reset state as after power-up; GDDRAM content is undefined, so: noise."""
        noise = random.Random(self.seed)
        self.gddram[:] = bytes(noise.randrange(256) for _ in range(WIDTH * PAGES))
        self.display_on = False
        self.contrast = 0x7F
        self.entire_on = False
        self.inverted = False
        self.addressing = PAGE
        self.column_window = (0, WIDTH - 1)
        self.page_window = (0, PAGES - 1)
        self.column = self.page = self.page_mode_column = 0
        self.segment_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.multiplex = 64
        self.display_offset = 0
        self.charge_pump = False
        self.scrolling = False
        self.settings.clear()
        self._pending.clear()

    # --- the I2C side ------------------------------------------------------------------------

    def receive(self, message: bytes) -> None:
        """One I2C write transaction addressed to this chip (the bytes after the address)."""
        i = 0
        while i < len(message):
            control = message[i]
            i += 1
            if control & 0x3F:
                self.errors.append(f"control byte 0x{control:02X} has low bits set")
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co=1: a single byte, then another control byte
                if i < len(message):
                    self._byte(message[i], is_data)
                    i += 1
                continue
            for byte in message[i:]:  # Co=0: everything that follows
                self._byte(byte, is_data)
            return

    def _byte(self, byte: int, is_data: bool) -> None:
        if is_data:
            self._write_data(byte)
        else:
            self._command_byte(byte)

    def _command_byte(self, byte: int) -> None:
        if self._pending:
            self._pending.append(byte)
        else:
            self._pending = [byte]
        opcode = self._pending[0]
        if len(self._pending) - 1 < ARGUMENT_COUNTS.get(opcode, 0):
            return  # the arguments may come in later transactions
        arguments = tuple(self._pending[1:])
        self._pending = []
        self.commands.append((opcode, arguments))
        self._execute(opcode, arguments)

    def _execute(self, op: int, args: tuple[int, ...]) -> None:
        if op == 0x81:
            self.contrast = args[0]
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif op == 0x20:
            if args[0] & 0x03 == 0x03:
                self.errors.append(f"invalid addressing mode 0x{args[0]:02X}")
            else:
                self.addressing = args[0] & 0x03
        elif op == 0x21:
            self.column_window = (args[0] & 0x7F, args[1] & 0x7F)
            self.column = self.column_window[0]
        elif op == 0x22:
            self.page_window = (args[0] & 0x07, args[1] & 0x07)
            self.page = self.page_window[0]
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.page_mode_column = (self.page_mode_column & 0xF0) | op
            self.column = self.page_mode_column
        elif 0x10 <= op <= 0x1F:
            self.page_mode_column = ((op & 0x07) << 4) | (self.page_mode_column & 0x0F)
            self.column = self.page_mode_column
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op in (0xA0, 0xA1):
            self.segment_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_reversed = op == 0xC8
        elif op == 0xA8:
            if args[0] & 0x3F < 15:
                self.errors.append(f"multiplex ratio {args[0] + 1} is below 16")
            else:
                self.multiplex = (args[0] & 0x3F) + 1
        elif op == 0xD3:
            self.display_offset = args[0] & 0x3F
        elif op == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif op == 0x2E:
            self.scrolling = False
        elif op == 0x2F:
            self.scrolling = True
        elif op in ARGUMENT_COUNTS or op == 0xE3:  # timing/electrical settings, NOP
            self.settings[op] = args
        else:
            self.errors.append(f"unknown command 0x{op:02X}")

    def _write_data(self, byte: int) -> None:
        self.data_bytes += 1
        segment = WIDTH - 1 - self.column if self.segment_remap else self.column
        self.gddram[self.page * WIDTH + segment] = byte
        first_column, last_column = self.column_window
        first_page, last_page = self.page_window
        if self.addressing == HORIZONTAL:
            if self.column >= last_column:
                self.column = first_column
                self.page = first_page if self.page >= last_page else self.page + 1
            else:
                self.column += 1
        elif self.addressing == VERTICAL:
            if self.page >= last_page:
                self.page = first_page
                self.column = first_column if self.column >= last_column else self.column + 1
            else:
                self.page += 1
        else:  # page mode: the column wraps within the page, the page stays
            self.column = self.page_mode_column if self.column >= WIDTH - 1 else self.column + 1

    # --- the panel side ----------------------------------------------------------------------

    def ram_pixel(self, segment: int, row: int) -> bool:
        """The GDDRAM bit at a segment and RAM row."""
        return bool(self.gddram[(row // 8) * WIDTH + segment] >> (row % 8) & 1)

    def panel_image(self) -> Image.Image:
        """The 128 x `rows` picture the panel shows (mode "1"; lit = 1), as mounted upright.

        Dark when the display is off or the charge pump (the panel's high voltage from the
        3.3 V supply on these modules) is off.
        """
        image = Image.new("1", (WIDTH, self.rows), 0)
        if not (self.display_on and self.charge_pump):
            return image
        pixels = image.load()
        assert pixels is not None
        for com in range(self.rows):
            if com >= self.multiplex:
                continue  # COM lines beyond the multiplex ratio are not driven
            scan = self.multiplex - 1 - com if self.com_reversed else com
            row = (scan + self.start_line + self.display_offset) % HEIGHT
            for segment in range(WIDTH):
                lit = self.entire_on or (self.ram_pixel(segment, row) != self.inverted)
                if lit:
                    # Upright module: SEG127 is on the left and its last COM at the top.
                    pixels[WIDTH - 1 - segment, self.rows - 1 - com] = 1
        return image


class EmulatedI2CBus:
    """An I2C bus with emulated chips on it; counts what crosses it.

    `transactions`/`bytes_written` count writes the chips acknowledged; `failed` counts the
    ones that raised. `wait_until(predicate, timeout)` lets a test wait for the bus to reach a
    state (it wakes on every transaction) instead of sleeping.
    """

    name = "emulated-i2c"

    def __init__(self, devices: dict[int, Ssd1306Emulator] | None = None) -> None:
        self.devices = devices if devices is not None else {0x3C: Ssd1306Emulator()}
        self.write_delay_s = 0.0
        self.hold: threading.Event | None = None  # when set: every write waits for it (a hung bus)
        self.transactions = 0
        self.bytes_written = 0
        self.failed = 0
        self.probes = 0  # zero-length writes and reads (address probes)
        self._unplugged: set[int] = set()
        self._glitches = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition()

    @property
    def chip(self) -> Ssd1306Emulator:
        """The only chip on the bus (most tests have one)."""
        (chip,) = self.devices.values()
        return chip

    # --- faults ------------------------------------------------------------------------------

    def unplug(self, address: int | None = None) -> None:
        """The chip (default: all) stops acknowledging: writes raise OSError 121."""
        with self._changed:
            self._unplugged |= set(self.devices) if address is None else {address}

    def replug(self, address: int | None = None) -> None:
        """Plugged back in: the chip answers again, in its power-on state."""
        with self._changed:
            back = set(self.devices) if address is None else {address}
            for addr in back & self._unplugged:
                self.devices[addr].power_on()
            self._unplugged -= back

    def glitch(self, count: int = 1) -> None:
        """The next `count` writes fail (noise on the wire); the chip keeps its state."""
        with self._changed:
            self._glitches += count

    # --- the busio-like API ------------------------------------------------------------------

    def try_lock(self) -> bool:
        """Take the bus; False if another thread has it."""
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        """Release the bus."""
        self._lock.release()

    def _nack(self, address: int) -> OSError | None:
        if address not in self.devices or address in self._unplugged:
            return OSError(errno.EREMOTEIO, "Remote I/O error")
        if self._glitches:
            self._glitches -= 1
            return OSError(errno.EIO, "Input/output error")
        return None

    def writeto(self, address: int, buffer: Any, *, start: int = 0,
                end: int | None = None) -> None:
        """One write transaction; raises OSError when nobody acknowledges."""
        assert self._lock.locked(), "writeto without try_lock"
        data = bytes(memoryview(buffer)[start:end])
        if self.write_delay_s:
            time.sleep(self.write_delay_s)  # a slow bus: the transfer itself takes this long
        if self.hold is not None:
            self.hold.wait(60)  # a hung bus, until the test lets it go
        with self._changed:
            try:
                error = self._nack(address)
                if error is not None:
                    self.failed += 1
                    raise error
                if not data:
                    self.probes += 1
                    return
                self.devices[address].receive(data)
                self.transactions += 1
                self.bytes_written += len(data)
            finally:
                self._changed.notify_all()

    def readfrom_into(self, address: int, buffer: Any, *, start: int = 0,
                      end: int | None = None) -> None:
        """A read: the SSD1306 returns its status byte (bit 6 set = display off)."""
        assert self._lock.locked(), "readfrom_into without try_lock"
        view = memoryview(buffer)[start:end]
        with self._changed:
            try:
                error = self._nack(address)
                if error is not None:
                    self.failed += 1
                    raise error
                self.probes += 1
                status = 0x00 if self.devices[address].display_on else 0x40
                view[:] = bytes([status]) * len(view)
            finally:
                self._changed.notify_all()

    def scan(self) -> list[int]:
        """Addresses of the chips that answer."""
        with self._changed:
            return sorted(a for a in self.devices if a not in self._unplugged)

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Wait (without polling) until `predicate()` holds after some transaction."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout)
