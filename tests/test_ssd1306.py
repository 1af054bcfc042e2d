"""The real `adafruit_ssd1306` driver, through `Ssd1306Display`, into an emulated panel.

Pictures are compared pixel for pixel with what the emulated panel shows (see
`ssd1306_emulator.py`: it decodes the command stream as the datasheet says), so a frame sent
upside down, mirrored, shifted or to a dark panel fails.
"""

from __future__ import annotations

import errno
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator

import adafruit_ssd1306
import pytest
from PIL import Image, ImageDraw

from erabox.adapters.display import open_display, probe_ssd1306
from erabox.adapters.oled import (
    LinuxI2CBus,
    Ssd1306Display,
    device_answers,
    find_ssd1306,
    panel_bytes,
)
from erabox.core.config import DisplayConfig
from ssd1306_emulator import PAGE, VERTICAL, EmulatedI2CBus, Ssd1306Emulator

TIMEOUT = 10.0  # generous: a shared, noisy machine


def blank() -> Image.Image:
    return Image.new("1", (128, 64), 0)


def corners() -> Image.Image:
    """One lit pixel in each corner plus an arrow: any flip or shift moves something."""
    image = blank()
    for x, y in ((0, 0), (127, 0), (0, 63), (127, 63)):
        image.putpixel((x, y), 1)
    draw = ImageDraw.Draw(image)
    draw.line((10, 10, 40, 10), fill=1)
    draw.line((10, 10, 10, 30), fill=1)
    return image


def checkerboard() -> Image.Image:
    image = blank()
    for y in range(64):
        for x in range(128):
            image.putpixel((x, y), (x + y) % 2)
    return image


def text() -> Image.Image:
    image = blank()
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.text((4, 4), "Era II  3:00", fill=1)
    draw.text((4, 40), "scholars!", fill=1)
    return image


def noise(seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("1", (128, 64), bytes(rng.randrange(256) for _ in range(1024)))


def numbered(n: int) -> Image.Image:
    """Distinct frames (for n below 128 * 128): pixels 0..n of the top row lit, and a marker
    for every 128 frames in the bottom row."""
    image = blank()
    ImageDraw.Draw(image).line((0, 0, n % 128, 0), fill=1)
    image.putpixel(((n // 128) % 128, 63), 1)
    return image


PATTERNS = {"blank": blank, "corners": corners, "checkerboard": checkerboard, "text": text,
            "noise": lambda: noise(7), "all lit": lambda: Image.new("1", (128, 64), 1)}


def upright(image: Image.Image, rotate: int) -> Image.Image:
    """What a person sees on a panel mounted `rotate` degrees turned."""
    return image.transpose(Image.Transpose.ROTATE_180) if rotate == 180 else image


def assert_same_pixels(seen: Image.Image, expected: Image.Image) -> None:
    assert seen.size == expected.size
    if seen.tobytes() != expected.tobytes():
        diff = [(x, y) for y in range(seen.height) for x in range(seen.width)
                if bool(seen.getpixel((x, y))) != bool(expected.getpixel((x, y)))]
        pytest.fail(f"{len(diff)} pixels differ, first: {diff[:8]}")


@pytest.fixture
def bus() -> EmulatedI2CBus:
    return EmulatedI2CBus()


@pytest.fixture
def make_display(bus: EmulatedI2CBus) -> Iterator[Callable[..., Ssd1306Display]]:
    """Makes displays on the emulated bus (or another) and closes them after the test."""
    made: list[Ssd1306Display] = []

    def make(*, on_bus: EmulatedI2CBus | None = None, retry_s: float = 2.0,
             on_problem: Callable[[str | None], None] | None = None,
             **config: int) -> Ssd1306Display:
        display = Ssd1306Display(DisplayConfig(**config), bus=on_bus or bus, retry_s=retry_s,
                                 on_problem=on_problem)
        made.append(display)
        return display

    yield make
    for display in made:
        display.close()


# --- the panel shows exactly the image ------------------------------------------------------


def test_panel_bytes_match_the_drivers_own_image_method() -> None:
    """Our fast packing against adafruit_framebuf's slow, obvious `image()`."""
    driver = adafruit_ssd1306.SSD1306_I2C(128, 64, EmulatedI2CBus())
    for image in [noise(seed) for seed in range(5)] + [corners(), text()]:
        driver.image(image)
        assert panel_bytes(image) == bytes(driver.buffer[1:])


@pytest.mark.parametrize("rotate", [0, 180])
@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_patterns_reach_the_panel_pixel_exact(make_display, bus, rotate, pattern) -> None:
    display = make_display(rotate=rotate)
    image = PATTERNS[pattern]()
    display.show(image)
    assert display.flush(TIMEOUT)
    assert display.problem is None
    assert_same_pixels(upright(bus.chip.panel_image(), rotate), image)
    assert bus.chip.errors == []
    assert not bus.chip.scrolling


def test_rotation_180_is_not_a_mirror(make_display, bus) -> None:
    """A mirror in x or y alone would pass a symmetric picture; this one is not symmetric."""
    display = make_display(rotate=180)
    display.show(corners())
    assert display.flush(TIMEOUT)
    seen = bus.chip.panel_image()
    assert seen.getpixel((127 - 10, 63 - 30)) and not seen.getpixel((10, 30))
    assert_same_pixels(seen.transpose(Image.Transpose.ROTATE_180), corners())


def _samples() -> list[tuple[str, object]]:
    from erabox.ui.samples import sample_screens

    samples = list(sample_screens())
    assert len(samples) >= 3, "expected several sample screens"
    return samples  # type: ignore[return-value]


@pytest.mark.parametrize("rotate", [0, 180])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_real_screens_reach_the_panel_pixel_exact(make_display, bus, rotate, language) -> None:
    from erabox.ui.render import render

    display = make_display(rotate=rotate)
    shown = 0
    for index, (name, screen) in enumerate(_samples()):
        image = render(screen, language=language, no_sound=index % 2 == 1)
        assert image.getbbox() is not None, f"{name} renders blank"
        display.show(image)
        assert display.flush(TIMEOUT), name
        assert_same_pixels(upright(bus.chip.panel_image(), rotate), image)
        shown += 1
    assert bus.chip.errors == []
    assert shown >= 3


def test_init_turns_the_panel_on_with_the_configured_contrast(make_display, bus) -> None:
    display = make_display(contrast=40)
    assert display.flush(TIMEOUT)
    chip = bus.chip
    assert chip.display_on and chip.charge_pump
    assert chip.contrast == 40
    assert chip.multiplex == 64 and chip.display_offset == 0 and not chip.inverted
    # Nothing shown yet: the driver's init blanked the noise of power-up.
    assert_same_pixels(chip.panel_image(), blank())


def test_unchanged_frame_is_not_resent(make_display, bus) -> None:
    display = make_display()
    display.show(text())
    assert display.flush(TIMEOUT)
    before = (bus.transactions, bus.bytes_written, display.frames_sent)
    display.show(text())  # equal content, a different image object
    display.show(text().copy())
    assert display.flush(TIMEOUT)
    assert (bus.transactions, bus.bytes_written, display.frames_sent) == before
    display.show(corners())
    assert display.flush(TIMEOUT)
    assert display.frames_sent == before[2] + 1
    # One frame: column and page windows as single-byte commands, then 1 KiB of data.
    assert bus.bytes_written - before[1] == 6 * 2 + 1 + 1024
    assert_same_pixels(bus.chip.panel_image(), corners())


def test_bad_frame_is_refused_and_loses_nothing(make_display, bus) -> None:
    display = make_display()
    display.show(text())
    assert display.flush(TIMEOUT)
    with pytest.raises(ValueError, match="128x64 mode '1'"):
        display.show(Image.new("L", (128, 64)))
    with pytest.raises(ValueError, match="got 64x32"):
        display.show(Image.new("1", (64, 32)))
    assert display.flush(TIMEOUT)
    assert_same_pixels(bus.chip.panel_image(), text())


# --- the caller never waits -----------------------------------------------------------------


def shows_return_while_the_bus_hangs(display, bus, frames: int) -> None:
    """Behaviour, not timing: with every bus write hung, `show` still returns for each frame
    (a caller that waited for the bus would hang here, and the test would say so)."""
    bus.hold = threading.Event()
    caller = threading.Thread(target=lambda: [display.show(numbered(n)) for n in range(frames)],
                              daemon=True)
    caller.start()
    caller.join(TIMEOUT)
    hung = not caller.is_alive()
    bus.hold.set()
    bus.hold = None
    assert hung, "show() waited for the bus"


def test_slow_bus_never_delays_show_and_stale_frames_are_dropped(make_display, bus) -> None:
    display = make_display()
    assert display.flush(TIMEOUT)
    shows_return_while_the_bus_hangs(display, bus, 40)
    assert display.flush(TIMEOUT)
    assert_same_pixels(bus.chip.panel_image(), numbered(39))
    assert display.frames_sent < 40  # the newest frame won; most in between were skipped


def test_unplugged_panel_logs_once_reports_and_recovers(make_display, bus, caplog) -> None:
    caplog.set_level(logging.INFO, logger="erabox.display")
    problems: list[str | None] = []
    reported = threading.Event()

    def on_problem(problem: str | None) -> None:
        problems.append(problem)
        reported.set()

    display = make_display(retry_s=0.05, on_problem=on_problem)
    display.show(text())
    assert display.flush(TIMEOUT)

    bus.unplug()
    bus.write_delay_s = 0.05  # a failing bus is often a slow one too
    shows_return_while_the_bus_hangs(display, bus, 20)
    assert reported.wait(TIMEOUT)
    assert display.problem is not None
    assert "not answering at 0x3C on emulated-i2c" in display.problem
    # Many retries later, still one warning.
    failed_then = bus.failed
    assert bus.wait_until(lambda: bus.failed >= failed_then + 6, TIMEOUT)
    display.show(corners())  # the newest frame, shown while unplugged
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert not display.flush(0.1)

    bus.write_delay_s = 0.0
    bus.replug()  # back in its power-on state: dark, memory full of noise
    assert display.flush(TIMEOUT)
    assert_same_pixels(bus.chip.panel_image(), corners())
    assert display.problem is None
    assert problems[-1] is None and problems[0] is not None
    assert any("answering again" in r.getMessage() for r in caplog.records)
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1


def test_retries_are_spaced_not_per_frame(make_display, bus) -> None:
    bus.unplug()
    reported = threading.Event()
    display = make_display(retry_s=2.0, on_problem=lambda problem: reported.set())
    assert reported.wait(TIMEOUT)
    failed_after_first_try = bus.failed
    # Half a second of frames at a far higher rate than the game ever draws.
    n = 0
    until = time.monotonic() + 0.5
    while time.monotonic() < until:
        display.show(numbered(n))
        n += 1
    assert n > 50
    # At most one more attempt (should the machine stall for over 1.5 s), not one per frame.
    assert bus.failed <= 2 * failed_after_first_try


def test_glitch_mid_frame_is_retried(make_display, bus) -> None:
    display = make_display(retry_s=0.01)
    display.show(text())
    assert display.flush(TIMEOUT)
    bus.glitch(3)
    display.show(corners())
    assert display.flush(TIMEOUT)
    assert_same_pixels(bus.chip.panel_image(), corners())
    assert display.problem is None


def test_close_sends_the_newest_frame_then_stops(make_display, bus) -> None:
    display = make_display()
    display.show(text())
    display.close()
    assert_same_pixels(bus.chip.panel_image(), text())
    with pytest.raises(RuntimeError):
        display.show(corners())


def test_close_does_not_wait_for_a_hung_bus(make_display, bus, caplog) -> None:
    """A bus that hangs mid-frame at shutdown: close gives up after its timeout, says so, and
    leaves the worker behind rather than stopping the box from exiting."""
    display = make_display()
    assert display.flush(TIMEOUT)
    bus.hold = threading.Event()
    display.show(corners())  # the worker hangs in its first write of this frame
    closer = threading.Thread(target=lambda: display.close(timeout=0.1), daemon=True)
    closer.start()
    closer.join(TIMEOUT)
    returned = not closer.is_alive()
    bus.hold.set()
    bus.hold = None
    assert returned, "close() waited for the hung bus"
    assert any("still busy" in r.getMessage() for r in caplog.records)
    with pytest.raises(RuntimeError):
        display.show(text())


def test_close_does_not_try_an_unplugged_panel_again(make_display, bus) -> None:
    bus.unplug()
    reported = threading.Event()
    display = make_display(retry_s=60.0, on_problem=lambda problem: reported.set())
    assert reported.wait(TIMEOUT)
    display.show(text())  # waits for the retry in a minute
    failed = bus.failed
    display.close(timeout=TIMEOUT)
    assert bus.failed == failed  # no last attempt on the way out


def test_a_contrast_change_does_not_resend_the_picture(make_display, bus) -> None:
    display = make_display()
    display.show(text())
    assert display.flush(TIMEOUT)
    before = (bus.chip.data_bytes, display.frames_sent)
    display.set_contrast(8)
    assert display.flush(TIMEOUT)
    assert bus.chip.contrast == 8
    assert (bus.chip.data_bytes, display.frames_sent) == before


# --- finding the panel ----------------------------------------------------------------------


def test_probe_finds_the_panel_at_either_address() -> None:
    at_3d = EmulatedI2CBus({0x3D: Ssd1306Emulator()})
    assert find_ssd1306(DisplayConfig(address=0x3C), at_3d) == 0x3D
    assert find_ssd1306(DisplayConfig(address=0x3D), at_3d) == 0x3D
    both = EmulatedI2CBus({0x3C: Ssd1306Emulator(), 0x3D: Ssd1306Emulator()})
    assert find_ssd1306(DisplayConfig(address=0x3D), both) == 0x3D  # the configured one first
    assert find_ssd1306(DisplayConfig(address=0x3C), both) == 0x3C
    at_3d.unplug()
    assert find_ssd1306(DisplayConfig(), at_3d) is None
    other = EmulatedI2CBus({0x27: Ssd1306Emulator()})  # something else on the bus
    assert find_ssd1306(DisplayConfig(), other) is None
    assert device_answers(other, 0x27)


def test_display_at_0x3d(make_display, caplog) -> None:
    at_3d = EmulatedI2CBus({0x3D: Ssd1306Emulator()})
    display = make_display(address=0x3D, on_bus=at_3d)
    display.show(text())
    assert display.flush(TIMEOUT)
    assert_same_pixels(at_3d.chip.panel_image(), text())
    assert not caplog.records


def test_panel_at_the_other_address_is_used_and_said(make_display, caplog) -> None:
    at_3d = EmulatedI2CBus({0x3D: Ssd1306Emulator()})
    display = make_display(address=0x3C, on_bus=at_3d)
    display.show(text())
    assert display.flush(TIMEOUT)
    assert_same_pixels(at_3d.chip.panel_image(), text())
    assert display.problem is None
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "0x3D" in warning and "display.address" in warning


def test_no_panel_at_either_address(make_display) -> None:
    elsewhere = EmulatedI2CBus({0x27: Ssd1306Emulator()})
    reported = threading.Event()
    display = make_display(on_bus=elsewhere, on_problem=lambda problem: reported.set())
    assert reported.wait(TIMEOUT)
    assert display.problem is not None
    assert "not answering at 0x3C on emulated-i2c (nor at 0x3D)" in display.problem
    assert elsewhere.chip.commands == []  # nothing was sent to a chip that is not ours


class ClaimedBus(EmulatedI2CBus):
    """i2c-dev when a kernel driver owns the address: selecting it fails with EBUSY."""

    def writeto(self, address: int, buffer: object, *, start: int = 0,
                end: int | None = None) -> None:
        raise OSError(errno.EBUSY, "Device or resource busy")

    readfrom_into = writeto


def test_address_claimed_by_a_kernel_driver(make_display) -> None:
    reported = threading.Event()
    display = make_display(on_bus=ClaimedBus(), on_problem=lambda problem: reported.set())
    assert reported.wait(TIMEOUT)
    assert display.problem is not None and "claimed by a kernel driver" in display.problem


def test_missing_i2c_bus_is_a_clear_problem() -> None:
    config = DisplayConfig(i2c_bus=97)  # no such bus here, nor on a Pi
    assert not probe_ssd1306(config)
    reported = threading.Event()
    display = Ssd1306Display(config, on_problem=lambda problem: reported.set())
    try:
        assert reported.wait(TIMEOUT)
        assert display.problem is not None
        assert "/dev/i2c-97" in display.problem and "enable I2C" in display.problem
        display.show(text())  # keeps accepting frames
    finally:
        display.close()
    told: list[str | None] = []
    reported.clear()
    opened = open_display("ssd1306", config,
                          on_problem=lambda problem: (told.append(problem), reported.set()))
    try:
        assert isinstance(opened, Ssd1306Display)
        assert reported.wait(TIMEOUT)
        assert told[0] is not None and "/dev/i2c-97" in told[0]
    finally:
        opened.close()


def test_linux_bus_sends_the_bytes_the_driver_gives(tmp_path, monkeypatch) -> None:
    """`LinuxI2CBus` over a plain file: what reaches the fd is what the emulated bus got."""
    device_file = tmp_path / "i2c-fake"
    device_file.write_bytes(b"")
    ioctls: list[tuple[int, object]] = []

    def fake_ioctl(fd: int, request: int, argument: object) -> int:
        ioctls.append((request, argument))
        return 0

    monkeypatch.setattr("fcntl.ioctl", fake_ioctl)
    linux_bus = LinuxI2CBus(0, path=str(device_file))
    adafruit_ssd1306.SSD1306_I2C(128, 64, linux_bus, addr=0x3D).show()
    linux_bus.close()

    recorder = EmulatedI2CBus({0x3D: Ssd1306Emulator()})
    sent: list[bytes] = []
    original = recorder.writeto

    def record(address: int, buffer: object, *, start: int = 0, end: int | None = None) -> None:
        sent.append(bytes(memoryview(buffer)[start:end]))  # type: ignore[arg-type]
        original(address, buffer, start=start, end=end)

    recorder.writeto = record  # type: ignore[method-assign]
    adafruit_ssd1306.SSD1306_I2C(128, 64, recorder, addr=0x3D).show()
    assert device_file.read_bytes() == b"".join(sent)
    assert ioctls[0] == (0x0703, 0x3D)  # I2C_SLAVE, once: the address never changed
    assert [request for request, _ in ioctls[1:]] == [0x0720]  # the probe's SMBus quick write


def test_linux_bus_reports_a_missing_device_file(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        LinuxI2CBus(5, path=str(tmp_path / "i2c-5"))


# --- the emulator itself, against the datasheet ---------------------------------------------


def test_emulator_vertical_addressing_fills_columns_first() -> None:
    chip = Ssd1306Emulator()
    chip.receive(bytes([0x00, 0x20, VERTICAL, 0x21, 2, 3, 0x22, 6, 7]))
    chip.receive(bytes([0x40, 0x01, 0x02, 0x03, 0x04, 0x05]))
    # Down the pages of column 2, then column 3, then back to the window's start.
    assert chip.gddram[7 * 128 + 2] == 0x02
    assert chip.gddram[6 * 128 + 3] == 0x03 and chip.gddram[7 * 128 + 3] == 0x04
    assert chip.gddram[6 * 128 + 2] == 0x05
    assert (chip.page, chip.column) == (7, 2)


def test_emulator_page_addressing_and_single_byte_control() -> None:
    chip = Ssd1306Emulator()
    assert chip.addressing == PAGE  # the reset value
    # Co=1 pairs: page 3, column 0x25 (low nibble 5, high nibble 2), then a data byte.
    chip.receive(bytes([0x80, 0xB3, 0x80, 0x05, 0x80, 0x12, 0xC0, 0xAA, 0x40, 0x55]))
    assert chip.gddram[3 * 128 + 0x25] == 0xAA
    assert chip.gddram[3 * 128 + 0x26] == 0x55
    assert chip.errors == []


def test_emulator_segment_remap_only_affects_later_data() -> None:
    chip = Ssd1306Emulator()
    chip.receive(bytes([0x00, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7, 0x8D, 0x14, 0xAF]))
    chip.receive(bytes([0x40, 0xFF]))  # column 0 -> SEG0
    chip.receive(bytes([0x00, 0xA1, 0x21, 0, 127, 0x22, 0, 0]))
    chip.receive(bytes([0x40, 0x01]))  # column 0 -> SEG127 now
    assert chip.gddram[0] == 0xFF and chip.gddram[127] == 0x01
    seen = chip.panel_image()  # normal COM scan: RAM row 0 is at the bottom on the module
    assert seen.getpixel((127, 63 - 7)) and seen.getpixel((0, 63))


def test_emulator_invert_entire_on_start_line_and_power() -> None:
    chip = Ssd1306Emulator()
    chip.receive(bytes([0x00, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7]))
    chip.receive(bytes([0x40]) + bytes(1024))
    assert chip.panel_image().getbbox() is None  # display and charge pump still off
    chip.receive(bytes([0x00, 0x8D, 0x14, 0xAF, 0xA7]))
    assert chip.panel_image().getbbox() == (0, 0, 128, 64)  # inverted: all lit
    chip.receive(bytes([0x00, 0xA6, 0xA5]))
    assert chip.panel_image().getbbox() == (0, 0, 128, 64)  # entire display on
    chip.receive(bytes([0x00, 0xA4, 0x22, 0, 0, 0x21, 0, 0]))
    chip.receive(bytes([0x40, 0x01]))  # RAM row 0, SEG0
    assert chip.panel_image().getbbox() == (127, 63, 128, 64)
    chip.receive(bytes([0x00, 0x41]))  # start line 1: RAM row 0 moves to the last COM
    assert chip.panel_image().getbbox() == (127, 0, 128, 1)


def test_emulator_arguments_may_come_in_later_writes_and_unknowns_are_noted() -> None:
    chip = Ssd1306Emulator()
    chip.receive(bytes([0x80, 0x81]))
    assert chip.contrast == 0x7F  # still waiting for its argument
    chip.receive(bytes([0x80, 0x10]))
    assert chip.contrast == 0x10
    chip.receive(bytes([0x00, 0xFF]))
    assert chip.errors == ["unknown command 0xFF"]


def test_emulated_bus_nacks_like_i2c_dev() -> None:
    bus = EmulatedI2CBus()
    assert bus.try_lock()
    try:
        with pytest.raises(OSError) as raised:
            bus.writeto(0x3D, b"\x00\xaf")
        assert raised.value.errno == errno.EREMOTEIO
        bus.unplug()
        with pytest.raises(OSError):
            bus.writeto(0x3C, b"\x00\xaf")
        assert bus.failed == 2 and bus.transactions == 0
    finally:
        bus.unlock()


def test_set_contrast_reaches_the_panel_for_oled_care(make_display, bus) -> None:
    display = make_display(contrast=200)
    display.show(checkerboard())
    assert display.flush(TIMEOUT)
    display.set_contrast(8)  # OLED care dims
    assert display.flush(TIMEOUT)
    assert bus.chip.contrast == 8
    assert_same_pixels(bus.chip.panel_image(), checkerboard())  # the picture is untouched
    display.set_contrast(200)
    assert display.flush(TIMEOUT)
    assert bus.chip.contrast == 200


# --- a 128x32 panel ([display] height = 32) ---------------------------------------------------


@pytest.mark.parametrize("rotate", [0, 180])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_128x32_panel_gets_32_row_frames_pixel_exact(rotate, language) -> None:
    """The real driver, told the config's height, drives a 32-row module: multiplex 32, four
    pages of data per frame, and the 128x32 layouts appear upright and pixel-exact."""
    from erabox.ui.panel import Panel
    from erabox.ui.render import render

    bus = EmulatedI2CBus({0x3C: Ssd1306Emulator(rows=32)})
    display = Ssd1306Display(DisplayConfig(height=32, rotate=rotate), bus=bus)
    try:
        assert display.flush(TIMEOUT)
        assert bus.chip.multiplex == 32
        shown = 0
        for name, screen in _samples():
            image = render(screen, language=language, panel=Panel(height=32))
            assert image.size == (128, 32), name
            before = bus.chip.data_bytes
            display.show(image)
            assert display.flush(TIMEOUT), name
            assert display.problem is None
            seen = bus.chip.panel_image()
            assert seen.size == (128, 32)
            assert_same_pixels(upright(seen, rotate), image)
            if bus.chip.data_bytes != before:  # an unchanged frame is not sent again
                assert bus.chip.data_bytes - before == 128 * 32 // 8, name
                shown += 1
        assert shown >= 3
        assert bus.chip.errors == []
        with pytest.raises(ValueError, match="128x32"):
            display.show(Image.new("1", (128, 64), 0))  # a frame for the other panel size
    finally:
        display.close()


def test_a_128x64_driver_on_a_32_row_module_shows_half_the_picture() -> None:
    """The emulated module is honest about its rows: the config's height is what makes the
    32-row panel show the whole frame (the test above), not the emulator. (The emulator
    models the glass's rows, not the COM pin wiring option the driver also sets for 32 rows,
    so a real module shows a differently wrong picture.)"""
    from erabox.ui.panel import Panel
    from erabox.ui.render import render
    from erabox.ui.samples import sample_screens

    bus = EmulatedI2CBus({0x3C: Ssd1306Emulator(rows=32)})
    display = Ssd1306Display(DisplayConfig(), bus=bus)  # height 64: the wrong key for it
    try:
        screen = dict(sample_screens())["running"]
        big = render(screen, panel=Panel(height=64))
        display.show(big)
        assert display.flush(TIMEOUT)
        assert bus.chip.multiplex == 64
        # COM0..31 scan RAM rows 63..32: the glass shows the frame's lower half.
        assert_same_pixels(bus.chip.panel_image(), big.crop((0, 32, 128, 64)))
    finally:
        display.close()
