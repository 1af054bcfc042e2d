"""The real screen: a 128x64 or 128x32 SSD1306 OLED on I2C (`[display] height`), driven by
Adafruit's `adafruit_ssd1306`.

Two layers, as on the wire:

- `LinuxI2CBus`: `/dev/i2c-N` through the kernel's i2c-dev interface, with just the methods
  the Adafruit driver and `adafruit_bus_device.i2c_device.I2CDevice` call (`try_lock`,
  `unlock`, `writeto`, `readfrom_into`, plus `scan`). Our own, so Blinka's board detection
  is never needed to find the bus. Tests pass an emulated bus instead.
- `Ssd1306Display`: the `DisplayPort` for the panel. `show()` only hands the frame to a worker
  thread (`erabox.adapters.workers.NewestWorker`) and returns at once: a full frame is ~1 KiB of I2C
  (about 25 ms at 400 kHz, far more on a struggling bus), and the game loop must never wait for
  it. What the worker is handed is the panel's wanted state, (newest frame, contrast): it sends
  what differs from what the panel has (stale frames in between are dropped). It looks for the
  panel at once, before any frame, so `problem` is known early. When the panel stops answering
  (loose wire, unplugged), the error is logged once, `problem` says what is wrong, and the
  worker tries again at most every `retry_s` however many frames come (`Again.PART`),
  re-initialising the panel when it answers (a panel that lost power comes back dark, with
  garbage in its memory). `flush` waits until the panel really shows the newest state; `close`
  sends it if the panel works and does not wait for one that does not.

`adafruit_ssd1306` is imported late, inside the worker, so this module imports anywhere.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image

from erabox.adapters.workers import Again, NewestWorker

from .packed_frames import frame_bytes, frame_image

if TYPE_CHECKING:
    from ..core.config import DisplayConfig

log = logging.getLogger("erabox.display")

SSD1306_ADDRESSES = (0x3C, 0x3D)  # the SA0 pin picks one of these two

# From <linux/i2c-dev.h> and <linux/i2c.h>.
I2C_SLAVE = 0x0703
I2C_SMBUS = 0x0720
I2C_SMBUS_WRITE = 0
I2C_SMBUS_QUICK = 0


class I2CBus(Protocol):
    """What `adafruit_ssd1306` (through `I2CDevice`) calls on its `i2c` argument."""

    def try_lock(self) -> bool: ...

    def unlock(self) -> None: ...

    def writeto(self, address: int, buffer: Any, *, start: int = 0,
                end: int | None = None) -> None: ...

    def readfrom_into(self, address: int, buffer: Any, *, start: int = 0,
                      end: int | None = None) -> None: ...


class _SmbusIoctlData(ctypes.Structure):
    """`struct i2c_smbus_ioctl_data`: ctypes lays it out as the C compiler does on this CPU."""

    _fields_ = (
        ("read_write", ctypes.c_uint8),
        ("command", ctypes.c_uint8),
        ("size", ctypes.c_uint32),
        ("data", ctypes.c_void_p),
    )


class LinuxI2CBus:
    """An I2C bus through Linux's `/dev/i2c-N` (needs `dtparam=i2c_arm=on` on a Pi).

    Raises `OSError` when the device file cannot be opened (FileNotFoundError: I2C not
    enabled; PermissionError: user not in the `i2c` group).
    """

    def __init__(self, number: int, *, path: str | None = None) -> None:
        self.name = path or f"/dev/i2c-{number}"
        self._fd = os.open(self.name, os.O_RDWR | os.O_CLOEXEC)
        self._lock = threading.Lock()
        self._address: int | None = None  # the slave address the fd is set to

    def try_lock(self) -> bool:
        """Take the bus for one transaction (busio's API); False when someone else has it."""
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        """Release the bus."""
        self._lock.release()

    def _select(self, address: int) -> None:
        if address != self._address:
            # EBUSY here means a kernel driver (e.g. an ssd1306 overlay) owns the address.
            fcntl.ioctl(self._fd, I2C_SLAVE, address)
            self._address = address

    def writeto(self, address: int, buffer: Any, *, start: int = 0,
                end: int | None = None) -> None:
        """Write `buffer[start:end]` to the device at `address` as one transaction."""
        data = bytes(memoryview(buffer)[start:end])
        self._select(address)
        if not data:
            # A zero-length write is how I2CDevice probes; i2c-dev's write() cannot express
            # it portably, SMBus "quick write" (what i2cdetect does) can.
            request = _SmbusIoctlData(I2C_SMBUS_WRITE, 0, I2C_SMBUS_QUICK, None)
            fcntl.ioctl(self._fd, I2C_SMBUS, bytes(request))
            return
        written = os.write(self._fd, data)
        if written != len(data):
            raise OSError(errno.EIO, f"short I2C write: {written} of {len(data)} bytes")

    def readfrom_into(self, address: int, buffer: Any, *, start: int = 0,
                      end: int | None = None) -> None:
        """Read into `buffer[start:end]` from the device at `address`."""
        view = memoryview(buffer)[start:end]
        self._select(address)
        data = os.read(self._fd, len(view))
        if len(data) != len(view):
            raise OSError(errno.EIO, f"short I2C read: {len(data)} of {len(view)} bytes")
        view[:] = data

    def scan(self) -> list[int]:
        """Addresses that acknowledge a quick write or are in use, like `i2cdetect -q`."""
        found = []
        for address in range(0x08, 0x78):
            try:
                if device_answers(self, address):
                    found.append(address)
            except OSError as exc:
                if exc.errno != errno.EBUSY:
                    raise
                found.append(address)  # claimed by a kernel driver ("UU" in i2cdetect)
        return found

    def close(self) -> None:
        """Close the device file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    deinit = close  # busio's name for it


def device_answers(bus: I2CBus, address: int) -> bool:
    """Whether a device acknowledges `address`: a zero-length write, else a one-byte read.

    The same probe `I2CDevice` makes before the driver talks to the panel. Raises the
    OSError (EBUSY) when a kernel driver has claimed the address.
    """
    while not bus.try_lock():
        time.sleep(0)
    try:
        try:
            bus.writeto(address, b"")
            return True
        except OSError as exc:
            if exc.errno == errno.EBUSY:
                raise  # there, but a kernel driver owns it: not "absent"
        try:
            bus.readfrom_into(address, bytearray(1))
            return True
        except OSError as exc:
            if exc.errno == errno.EBUSY:
                raise
            return False
    finally:
        bus.unlock()


def find_ssd1306(config: DisplayConfig, bus: I2CBus | None = None) -> int | None:
    """The address (0x3C or 0x3D, the configured one first) where a panel answers, or None.

    Opens `/dev/i2c-<config.i2c_bus>` unless a `bus` is given; a bus that cannot be opened
    means no panel.
    """
    opened: LinuxI2CBus | None = None
    if bus is None:
        try:
            bus = opened = LinuxI2CBus(config.i2c_bus)
        except OSError:
            return None
    try:
        return _find_address(config, bus)[0]
    finally:
        if opened is not None:
            opened.close()


def _find_address(config: DisplayConfig, bus: I2CBus) -> tuple[int | None, OSError | None]:
    """The answering address, or None and the error that says why not (if not a plain NACK)."""
    order = [config.address] + [a for a in SSD1306_ADDRESSES if a != config.address]
    refused: OSError | None = None
    for address in order:
        try:
            if device_answers(bus, address):
                return address, None
        except OSError as exc:  # e.g. EBUSY: claimed by a kernel driver, not ours to use
            refused = refused or exc
    return None, refused


# Bit order reversed, for each byte value (MSB-first pixel rows -> LSB-first page columns).
_REVERSED_BITS = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def panel_bytes(image: Image.Image) -> bytes:
    """The image in the SSD1306's memory layout, as the driver's buffer holds it.

    8 pages (4 on a 128x32 panel) of 128 column bytes; in each byte bit 0 is the page's top
    pixel row. Done with
    Pillow instead of the driver's `image()` (8192 Python calls): transposing makes each
    pixel column one packed row, whose bytes only need their bit order reversed.
    """
    frame = frame_bytes(image)
    columns = frame_image(frame).transpose(Image.Transpose.TRANSPOSE).tobytes()
    pages = image.height // 8
    # columns[x * pages + page] holds pixels (x, 8*page .. 8*page+7), MSB first.
    return b"".join(columns[page::pages].translate(_REVERSED_BITS) for page in range(pages))


class Ssd1306Display:
    """The SSD1306 OLED as a `DisplayPort`; see the module docstring.

    The panel is looked for at `config.address` first, then at the other SSD1306 address (a
    warning says so): a jumper set otherwise than the config should not leave the box blind.

    `bus`: an I2C bus object to use instead of opening `/dev/i2c-<config.i2c_bus>` (tests pass
    an emulated one; it is not closed by `close`). `retry_s`: the least time between two
    attempts to reach a panel that did not answer. `on_problem`: called from the worker thread
    with the new `problem` (or None when the panel answers again) whenever it changes.
    """

    def __init__(
        self,
        config: DisplayConfig,
        *,
        bus: I2CBus | None = None,
        retry_s: float = 2.0,
        on_problem: Callable[[str | None], None] | None = None,
    ) -> None:
        if config.rotate not in (0, 180):
            raise ValueError(f"display rotate must be 0 or 180, got {config.rotate}")
        self.config = config
        self.retry_s = retry_s
        self.problem: str | None = None
        self.frames_sent = 0
        self._on_problem = on_problem
        self._given_bus = bus
        self._bus: I2CBus | None = bus
        self._bus_name = getattr(bus, "name", None) or f"/dev/i2c-{config.i2c_bus}"
        self._panel: Any = None  # the driver, once the panel answered its initialisation
        self._failing = False  # logged already: stay quiet until it works again
        self._address_warned: int | None = None  # the unconfigured address we said we use
        self._lock = threading.Lock()  # the wanted state, for callers on several threads
        self._closing = False
        self._wanted: tuple[bytes | None, int] = (None, config.contrast)  # frame, contrast
        # On the panel now (worker side; None: not known / nothing since it was initialised).
        self._sent_frame: bytes | None = None
        self._sent_contrast: int | None = None
        self._worker = NewestWorker[tuple[bytes | None, int]](
            "erabox-oled", self._update, again=Again.PART)
        self._worker.put(self._wanted)  # find the panel now: `problem` is known early

    # --- caller side -------------------------------------------------------------------------

    def show(self, image: Image.Image, label: str | None = None) -> None:
        """Queue `image` for the panel and return at once; an unchanged frame is ignored."""
        frame = frame_bytes(image, self.config.size)
        self._want(frame, None)

    def set_contrast(self, level: int) -> None:
        """Set the panel's contrast (0..255) soon, on the worker; returns at once."""
        self._want(None, min(255, max(0, int(level))))

    def _want(self, frame: bytes | None, contrast: int | None) -> None:
        """Hand the worker the new wanted state, unless it is the one already wanted."""
        with self._lock:
            if self._closing:
                raise RuntimeError("the OLED display is closed")
            old_frame, old_contrast = self._wanted
            wanted = (old_frame if frame is None else frame,
                      old_contrast if contrast is None else contrast)
            if wanted == self._wanted:
                return
            self._wanted = wanted
            self._worker.put(wanted)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the panel shows the newest frame and contrast. False if that took over
        `timeout` (a panel that does not answer never gets there)."""
        return self._worker.flush(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Send the newest frame if the panel works, stop the worker, close our own bus."""
        with self._lock:
            self._closing = True  # no show() from here on: what is wanted now is final
        if not self._worker.close(timeout):
            log.warning("OLED worker still busy after %.1f s; leaving it behind", timeout)
            return
        if self._given_bus is None and isinstance(self._bus, LinuxI2CBus):
            self._bus.close()

    # --- worker side -------------------------------------------------------------------------

    def _update(self, wanted: tuple[bytes | None, int]) -> float | None:
        """Bring the panel to `wanted` (frame, contrast); on failure: seconds until a retry."""
        frame, contrast = wanted
        try:
            if self._panel is None:
                self._panel = self._start_panel()
                self._sent_frame, self._sent_contrast = None, self.config.contrast
            if contrast != self._sent_contrast:
                self._panel.contrast(contrast)
                self._sent_contrast = contrast
            if frame is not None and frame != self._sent_frame:
                self._send(frame)
                self._sent_frame = frame
                self.frames_sent += 1
        except Exception as exc:  # a display failure must not end the box
            self._panel = None
            self._report(self._describe(exc), exc)
            return self.retry_s
        self._report(None, None)
        return None

    def _start_panel(self) -> Any:
        """Open the bus if needed, find the panel and initialise it (the driver blanks it)."""
        import adafruit_ssd1306  # type: ignore[import-untyped]  # late: pulls in Blinka

        if self._bus is None:
            self._bus = LinuxI2CBus(self.config.i2c_bus)
        address, refused = _find_address(self.config, self._bus)
        if address is None:
            raise refused or OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
        if address != self.config.address and address != self._address_warned:
            # The SA0 jumper says otherwise than the config: show the game rather than nothing.
            self._address_warned = address
            log.warning("display: no OLED at the configured 0x%02X but one at 0x%02X on %s;"
                        " using it (set display.address = 0x%02X)", self.config.address,
                        address, self._bus_name, address)
        try:
            panel = adafruit_ssd1306.SSD1306_I2C(self.config.width, self.config.height,
                                                 self._bus, addr=address)
        except ValueError as exc:  # I2CDevice's probe: "No I2C device at address"
            raise OSError(errno.ENXIO, str(exc)) from exc
        panel.contrast(self.config.contrast)
        return panel

    def _send(self, frame: bytes) -> None:
        image = frame_image(frame)
        if self.config.rotate == 180:
            # Rotating the picture (not the panel's scan direction) keeps one code path
            # for the driver and is pixel-exact.
            image = image.transpose(Image.Transpose.ROTATE_180)
        self._panel.buffer[1:] = panel_bytes(image)
        self._panel.show()

    def _describe(self, exc: BaseException) -> str:
        at = f"0x{self.config.address:02X} on {self._bus_name}"
        other = " or ".join(f"0x{a:02X}" for a in SSD1306_ADDRESSES if a != self.config.address)
        retry = f"; retrying every {self.retry_s:g} s"
        if isinstance(exc, ImportError):
            return f"SSD1306 driver not installed ({exc}); install adafruit-circuitpython-ssd1306"
        if isinstance(exc, FileNotFoundError):
            return (f"no I2C bus {self._bus_name} (enable I2C: raspi-config > Interface "
                    f"Options > I2C){retry}")
        if isinstance(exc, PermissionError):
            return f"no permission to open {self._bus_name} (add the user to group 'i2c')"
        if isinstance(exc, OSError) and exc.errno == errno.EBUSY:
            return (f"I2C address {at} is claimed by a kernel driver (an ssd1306 overlay "
                    f"in config.txt?){retry}")
        if isinstance(exc, OSError) and exc.errno in (errno.EREMOTEIO, errno.ENXIO, errno.EIO,
                                                      errno.ETIMEDOUT, errno.EAGAIN):
            return (f"OLED not answering at {at} (nor at {other}): "
                    f"{os.strerror(exc.errno)}{retry}")
        return f"OLED at {at} failed: {exc!r}{retry}"

    def _report(self, problem: str | None, exc: BaseException | None) -> None:
        """Log a failure once (not per frame) and its end; keep `problem` current."""
        if problem is not None and not self._failing:
            self._failing = True
            if isinstance(exc, OSError | ImportError):
                log.warning("display: %s", problem)
            else:  # not an I/O error: a bug worth a traceback, once
                log.error("display: %s", problem, exc_info=exc)
        elif problem is None and self._failing:
            self._failing = False
            log.info("display: OLED on %s answering again", self._bus_name)
        if problem != self.problem:
            self.problem = problem
            if self._on_problem is not None:
                with contextlib.suppress(Exception):  # the app's callback must not stop us
                    self._on_problem(problem)
