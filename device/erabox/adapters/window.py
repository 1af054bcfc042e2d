"""The box on a laptop: a desktop window (pygame) showing the OLED, with clickable buttons.

The OLED image is drawn scaled up, white on black like the panel, as bright as the panel's
contrast makes it (OLED care dims an idle screen: the window dims with it). Below it sit the
NEXT and ERA buttons (and VOL- / VOL+). Mouse and keys drive gpiozero's mock pins, so every press
goes through the same `Button` code as on a Pi:
    N = NEXT, E = ERA (holding a key is a hold; holding N and E together is "both"),
    + / - = volume, Esc or closing the window quits.

SDL wants its video on the main thread: `run()` is called there and blocks on
`pygame.event.wait()` (no polling); `show()` may be called from any thread and wakes it with
a posted event.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from dataclasses import dataclass

from PIL import Image

from erabox.adapters.mixer import load_pygame
from erabox.core.config import Config
from erabox.core.model import Button
from erabox.ports import Post, SimulatedInput, Stop

log = logging.getLogger("erabox.window")

SCALE = 5
MARGIN = 24
BUTTON_H = 64
INK = (120, 210, 255)  # the panel's pixels (a blue-white OLED)
PANEL = (6, 8, 12)
CASE = (38, 40, 46)
KEY_FACE = (210, 60, 50)
KEY_FACE_DOWN = (140, 35, 30)
LABEL = (235, 235, 235)


def panel_ink(contrast: int) -> tuple[int, int, int]:
    """The colour of a lit pixel at the panel's `contrast` (0..255). The SSD1306's contrast
    sets the pixels' current, so their light is about proportional to it; the screen's colours
    are gamma-encoded (sRGB, about 2.2), so the light is encoded before it is drawn. Full
    contrast is `INK`; 32 (a dimmed game) about 39 % of it, 8 (a faint idle screen) 21 %."""
    share = (max(0, min(255, contrast)) / 255) ** (1 / 2.2)
    return tuple(round(p + (i - p) * share) for p, i in zip(PANEL, INK, strict=True))


@dataclass(frozen=True)
class _Key:
    button: Button
    label: str
    rect: tuple[int, int, int, int]  # x, y, w, h
    hotkeys: tuple[str, ...]


class WindowDisplay:
    """A pygame window: `show(image)` from any thread, `run(...)` on the main thread."""

    def __init__(self, config: Config, scale: int = SCALE) -> None:
        self._pg = pygame = load_pygame()
        self.problem: str | None = None
        self.scale = scale
        self._lock = threading.Lock()
        self._image: Image.Image | None = None
        self._ink = INK
        self.frames = 0
        panel_w, panel_h = config.display.width * scale, config.display.height * scale
        self.size = (panel_w + 2 * MARGIN, panel_h + 3 * MARGIN + BUTTON_H + 20)
        self.panel_rect = (MARGIN, MARGIN, panel_w, panel_h)
        y = MARGIN * 2 + panel_h
        big = (panel_w - MARGIN) // 2 - 100
        pins = config.buttons
        fitted_vol = pins.vol_up_pin is not None and pins.vol_down_pin is not None
        self.keys = [
            _Key(Button.NEXT, "NEXT", (MARGIN, y, big, BUTTON_H), ("n",)),
            _Key(Button.ERA, "ERA", (MARGIN + big + MARGIN, y, big, BUTTON_H), ("e",)),
        ]
        if fitted_vol:
            x = MARGIN + 2 * (big + MARGIN)
            small = (panel_w - (x - MARGIN) - MARGIN // 2) // 2
            self.keys += [
                _Key(Button.VOL_DOWN, "VOL-", (x, y, small, BUTTON_H), ("-", "[-]")),
                _Key(Button.VOL_UP, "VOL+", (x + small + MARGIN // 2, y, small, BUTTON_H),
                     ("+", "=", "[+]")),
            ]
        self._down: set[Button] = set()
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
            # SDL found no desktop and fell back to drawing nowhere: nobody would see it.
            pygame.display.quit()
            raise RuntimeError(f"no desktop to draw on (SDL fell back to its {driver} driver)")
        pygame.font.init()
        self._redraw_event = pygame.event.custom_type()
        self._surface = pygame.display.set_mode(self.size)
        pygame.display.set_caption("erabox")
        self._font = pygame.font.Font(None, 30)
        self._small = pygame.font.Font(None, 20)
        self._paint()

    # -- any thread --

    def show(self, image: Image.Image, label: str | None = None) -> None:
        """Take a new OLED frame; the window repaints on its own thread."""
        with self._lock:
            self._image = image.convert("1")
        self._wake()

    def set_contrast(self, level: int) -> None:
        """The panel's contrast (0..255), as OLED care and the brightness setting set it."""
        with self._lock:
            self._ink = panel_ink(level)
        self._wake()

    def close(self) -> None:
        """Close the window (call on the main thread after `run` returned)."""
        try:
            self._pg.display.quit()
        except Exception as exc:  # closing is best effort
            log.debug("closing the window: %s", exc)

    def _wake(self) -> None:
        with contextlib.suppress(self._pg.error):  # the window is gone
            self._pg.event.post(self._pg.event.Event(self._redraw_event))

    # -- main thread --

    def run(self, buttons: SimulatedInput | None, post: Post, stopped: threading.Event) -> None:
        """The window's event loop, until the window is closed or the box stops."""
        pg = self._pg
        threading.Thread(target=self._wake_when, args=(stopped,), daemon=True,
                         name="erabox-window-stop").start()
        while not stopped.is_set():
            event = pg.event.wait()
            if event.type == pg.QUIT or (event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE):
                post(Stop("window closed"))
                break
            if event.type == pg.KEYDOWN or event.type == pg.KEYUP:
                key = self._key_for(pg.key.name(event.key), event.unicode
                                    if event.type == pg.KEYDOWN else "")
                if key is not None:
                    self._press(key.button, event.type == pg.KEYDOWN, buttons, post)
            elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
                key = self._key_at(event.pos)
                if key is not None:
                    self._press(key.button, True, buttons, post)
            elif event.type == pg.MOUSEBUTTONUP and event.button == 1:
                for button in list(self._down):
                    self._press(button, False, buttons, post)
            self._paint()
        for button in list(self._down):
            self._press(button, False, buttons, post)

    def _wake_when(self, stopped: threading.Event) -> None:
        stopped.wait()
        self._wake()

    def _key_for(self, name: str, text: str) -> _Key | None:
        for key in self.keys:
            if name in key.hotkeys or (text and text in key.hotkeys):
                return key
        return None

    def _key_at(self, pos: tuple[int, int]) -> _Key | None:
        for key in self.keys:
            x, y, w, h = key.rect
            if x <= pos[0] < x + w and y <= pos[1] < y + h:
                return key
        return None

    def _press(self, button: Button, down: bool, buttons: SimulatedInput | None,
               post: Post) -> None:
        if down == (button in self._down):
            return  # key repeat, or a release we already handled
        if down:
            self._down.add(button)
        else:
            self._down.discard(button)
        if buttons is None:
            log.warning("the window's buttons only work with simulated pins "
                        "(GPIOZERO_PIN_FACTORY=mock); use the real buttons")
            return
        if button not in buttons.fitted:
            return
        if down:
            buttons.pin_down(button)
        else:
            buttons.pin_up(button)

    def _paint(self) -> None:
        pg = self._pg
        surface = self._surface
        surface.fill(CASE)
        x, y, w, h = self.panel_rect
        pg.draw.rect(surface, PANEL, (x - 6, y - 6, w + 12, h + 12), border_radius=6)
        with self._lock:
            image, ink = self._image, self._ink
        if image is not None:
            mask = image.convert("L").tobytes()
            frame = pg.image.frombuffer(mask, image.size, "P")
            frame.set_palette([PANEL] + [PANEL] * 254 + [ink])
            surface.blit(pg.transform.scale(frame, (w, h)), (x, y))
            self.frames += 1
        for key in self.keys:
            face = KEY_FACE_DOWN if key.button in self._down else KEY_FACE
            pg.draw.rect(surface, face, key.rect, border_radius=10)
            text = self._font.render(key.label, True, LABEL)
            kx, ky, kw, kh = key.rect
            surface.blit(text, (kx + (kw - text.get_width()) // 2,
                                ky + (kh - text.get_height()) // 2))
        hint = self._small.render(
            "N = NEXT   E = ERA   hold a key to hold   N+E held 3 s = new game   +/- volume",
            True, (170, 170, 170))
        surface.blit(hint, (MARGIN, self.size[1] - MARGIN - 4))
        pg.display.flip()
