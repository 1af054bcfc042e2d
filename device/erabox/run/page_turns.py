"""The pages a screen turns on its own (`ui/render.py`, `turning`): a game profile's setup
hint row and "hold ERA: settings" in turn, a step too long for a 128x32 panel's line a line
at a time, and that panel's hint row under a step with its undo gesture
(`ui/screens.py`); a step of Time of Empires' guide two lines a page on a 128x32
panel (`ui/guide_pages.py`). Counted
on the box's clock from when the screen was first shown (a countdown ticking, "Resumed" going
away, do not start it again); each turn is a deadline of the loop (`next_deadline`), never
polled.
"""

from __future__ import annotations

import math
from dataclasses import replace

from erabox.core.model import Phase, Screen
from erabox.core.play import EPS, PlayScreen
from erabox.ui.panel import Panel


class PageTurns:
    """Which page of its own the screen shown is at, and when it turns next."""

    def __init__(self, panel: Panel) -> None:
        self._panel = panel
        self._page_s = 0.0  # the renderer's `PAGE_S`, read with it when a screen turns
        self._shown: tuple[Screen | PlayScreen, str] | None = None
        self._since = 0.0
        self._pages = 1

    def turn(self, screen: Screen | PlayScreen, language: str, now: float) -> int:
        """The page `screen`, drawn in `language`, shows at `now` (0: the first, and for a
        screen that does not turn)."""
        if isinstance(screen, Screen):  # Time of Empires' own: only its guide on 128x32
            if not (self._panel.compact and screen.kind is Phase.PREPARE):
                self._shown, self._pages = None, 1
                return 0
            key: tuple[Screen | PlayScreen, str] = (
                screen, screen.language or language)
        else:
            key = (replace(screen, timer_left=None, timer_done=False, prompt=None), language)
        if key != self._shown:
            from erabox.ui.render import turning
            from erabox.ui.screens import PAGE_S  # not at a box's start

            self._shown, self._since, self._page_s = key, now, PAGE_S
            self._pages = turning(screen, self._panel, language)
        return self._turned(now) % self._pages

    def next_deadline(self, now: float) -> float | None:
        """When the screen shown turns its next page (None: it does not turn)."""
        if self._pages <= 1:
            return None
        return self._since + (self._turned(now) + 1) * self._page_s

    def _turned(self, now: float) -> int:
        return max(0, math.floor((now - self._since) / self._page_s + EPS))
