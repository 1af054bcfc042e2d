"""The self-test's screens (`erabox selftest`): test patterns and short pages of text, in the
box's language. Pure drawing, like `render`: lines in, an image the size of the panel out."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from .panel import MARGIN, Panel
from .strings import say
from .text import LINE_PX, fit_text, line_image

PATTERNS = ("all_on", "checkerboard", "border")


def pattern_image(name: str, panel: Panel | None = None) -> Image.Image:
    """A full-panel test pattern: "all_on", "checkerboard" (1 px squares) or "border"."""
    panel = panel or Panel()
    width, height = panel.size
    image = Image.new("1", panel.size, 0)
    if name == "all_on":
        image.paste(1, (0, 0, width, height))
    elif name == "checkerboard":
        pixels = image.load()
        assert pixels is not None
        for y in range(height):
            for x in range(y % 2, width, 2):
                pixels[x, y] = 1
    elif name == "border":
        ImageDraw.Draw(image).rectangle((0, 0, width - 1, height - 1), outline=1, fill=0)
    else:
        raise ValueError(f"unknown pattern {name!r}: expected one of {', '.join(PATTERNS)}")
    return image


def page_image(lines: Sequence[str], panel: Panel | None = None) -> Image.Image:
    """Up to six lines (three on a 32 px panel) of small text, each kept 2 px from the panel's
    edges (longer lines are visibly abbreviated; lines beyond the panel are left out)."""
    panel = panel or Panel()
    image = Image.new("1", panel.size, 0)
    rows = (panel.height - 2 * MARGIN) // (LINE_PX + 1)
    for row, line in enumerate(lines[:rows]):
        block = fit_text(line, panel.inner, ((1, 1),))
        mask = line_image(block.lines[0])
        y = MARGIN + row * (LINE_PX + 1)
        image.paste(1, (MARGIN, y, MARGIN + mask.width, y + mask.height), mask)
    return image


def found_page(language: str, pins: str, oled: int | None, sound_ok: bool, *,
               compact: bool = False) -> list[str]:
    """What the self-test found: the pin library, the OLED's address, the sound (on a
    `compact` 32 px panel without the title line: three lines are all it shows)."""
    where = say(language, "selftest_none") if oled is None else f"0x{oled:02X}"
    sound = say(language, "selftest_ok" if sound_ok else "selftest_none")
    found = [say(language, "selftest_pins", name=pins),
             say(language, "selftest_oled", where=where),
             say(language, "selftest_sound", state=sound)]
    return found if compact else [say(language, "selftest_found"), *found]


def sound_page(language: str, sound: str, percent: int, led: bool, *,
               silent: bool = False) -> list[str]:
    """A cue ("gong", "cry", "tick") playing (or not, `silent`: no sound device), and whether
    the LED flashed."""
    name = say(language, f"sound_{sound}")
    return [say(language, "selftest_title"),
            say(language, "selftest_led", state=say(language, "selftest_flashing" if led
                                                     else "selftest_none")),
            say(language, "selftest_not_played", sound=name) if silent
            else say(language, "selftest_playing", sound=name, percent=percent)]


def buttons_page(language: str, states: Sequence[tuple[str, int, bool]], *,
                 compact: bool = False) -> list[str]:
    """Each button's live state: (label, BCM pin, down). On a `compact` 32 px panel two
    buttons share a line, without their pins, so four fit under the title."""
    lines = [say(language, "selftest_buttons")]
    shown = [(label, pin, say(language, "selftest_down" if down else "selftest_up"))
             for label, pin, down in states]
    if compact:
        pairs = [shown[i:i + 2] for i in range(0, len(shown), 2)]
        lines += ["  ".join(f"{label} {state}" for label, _, state in pair) for pair in pairs]
        return lines
    lines += [f"{label:<5} GPIO{pin:<3} {state}" for label, pin, state in shown]
    return lines


def done_page(language: str) -> list[str]:
    return [say(language, "selftest_done")]
