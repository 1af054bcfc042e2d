"""`erabox simulate --frames DIR`: every distinct screen of a simulated game as a PNG, each
page of a screen that turns on its own too (a game profile's setup hint row, a long step on
128x32, a step of Time of Empires' guide on 128x32): the box shows them in turn, so the
pictures show them all."""

from __future__ import annotations

from pathlib import Path

from erabox.adapters.display import PngDisplay
from erabox.core.engine import AnyScreen
from erabox.ui.panel import Panel
from erabox.ui.render import draw, turning


class FrameWriter:
    """Renders each new screen model (either game's) and writes it as `DIR/NNNN-<t>.png`
    (t: virtual seconds), and the further pages of one that turns as `NNNN-<t>-page<k>.png`.
    Screens that differ as data but draw the same pixels are written once."""

    def __init__(self, directory: Path, language: str, panel: Panel | None = None) -> None:
        self.panel = panel or Panel()
        self.display = PngDisplay(directory, self.panel.size)
        self.language = language

    def __call__(self, screen: AnyScreen, t: float) -> None:
        self.display.show(draw(screen, self.panel, self.language), label=f"{t:.3f}")
        for page in range(1, turning(screen, self.panel, self.language)):
            self.display.show(draw(screen, self.panel, self.language, turn=page),
                              label=f"{t:.3f}-page{page + 1}")
