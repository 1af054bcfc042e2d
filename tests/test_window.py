"""The laptop window on SDL's dummy video driver: clicks and keys reach the real gpiozero
`Button` code through the mock pins, and the OLED frame is painted scaled up."""

from __future__ import annotations

import os
import queue
import threading
import time

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"

from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageDraw

from erabox.adapters.buttons import SimulatedButtons
from erabox.adapters.window import INK, PANEL, WindowDisplay, panel_ink
from erabox.core.config import parse_config
from erabox.core.model import Button, Gesture, Input


@pytest.fixture
def parts():
    config = parse_config("[buttons]\nhold_s = 0.3\nbounce_s = 0.01\n", "t.toml")
    inputs: queue.Queue[Input] = queue.Queue()
    factory = MockFactory()
    buttons = SimulatedButtons(config.buttons, inputs.put, pin_factory=factory)
    window = WindowDisplay(config)
    yield config, window, buttons, inputs
    buttons.close()
    window.close()
    factory.close()


def run_window_while(window: WindowDisplay, buttons: SimulatedButtons, act) -> list[object]:
    """Run the window's loop on this (main) thread while `act` runs on another."""
    stopped = threading.Event()
    posted: list[object] = []
    errors: list[BaseException] = []

    def actor() -> None:
        try:
            act()
        except BaseException as exc:  # reported by the test below
            errors.append(exc)
        finally:
            stopped.set()

    threading.Thread(target=actor, daemon=True).start()
    window.run(buttons, posted.append, stopped)
    assert not errors, errors
    return posted


def centre(window: WindowDisplay, button: Button) -> tuple[int, int]:
    x, y, w, h = next(k.rect for k in window.keys if k.button is button)
    return x + w // 2, y + h // 2


def test_clicking_next_is_a_press_through_the_mock_pins(parts) -> None:
    _config, window, buttons, inputs = parts
    import pygame

    def act() -> None:
        pos = centre(window, Button.NEXT)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        time.sleep(0.1)  # the stimulus: mouse button held 0.1 s
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        assert inputs.get(timeout=5) == Input(Button.NEXT, Gesture.PRESS)

    run_window_while(window, buttons, act)


def test_holding_the_e_key_is_an_era_hold(parts) -> None:
    _config, window, buttons, inputs = parts
    import pygame

    def act() -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, unicode="e",
                                             mod=0, scancode=0))
        assert inputs.get(timeout=5) == Input(Button.ERA, Gesture.HOLD)  # while still down
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_e, unicode="",
                                             mod=0, scancode=0))

    run_window_while(window, buttons, act)
    with pytest.raises(queue.Empty):
        inputs.get(timeout=0.3)  # nothing more on release


def test_the_frame_is_painted_scaled_up(parts) -> None:
    _config, window, buttons, _inputs = parts
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((0, 0, 63, 63), fill=1)  # left half lit

    def act() -> None:
        window.show(image)

    run_window_while(window, buttons, act)
    window._paint()
    import pygame

    surface = pygame.display.get_surface()
    x, y, w, h = window.panel_rect
    lit = surface.get_at((x + w // 4, y + h // 2))[:3]
    dark = surface.get_at((x + 3 * w // 4, y + h // 2))[:3]
    assert tuple(lit) == INK and tuple(dark) == PANEL


def test_the_window_shows_the_panels_contrast(parts) -> None:
    """OLED care dims the panel by its contrast: the window's lit pixels dim with it (the
    light about proportional to the contrast, gamma-encoded), and full contrast is INK."""
    _config, window, _buttons, _inputs = parts
    image = Image.new("1", (128, 64), 1)
    import pygame

    x, y, w, h = window.panel_rect
    seen = []
    for level in (255, 128, 32, 8, 0):
        window.show(image)
        window.set_contrast(level)
        window._paint()
        seen.append(tuple(pygame.display.get_surface().get_at((x + w // 2, y + h // 2))[:3]))
    assert seen[0] == INK and seen[-1] == PANEL
    brightness = [sum(c) for c in seen]
    assert brightness == sorted(brightness, reverse=True) and len(set(brightness)) == 5
    assert seen[2] == panel_ink(32) and 0.3 < sum(seen[2]) / sum(INK) < 0.5  # dim, readable
