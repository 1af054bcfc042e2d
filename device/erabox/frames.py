"""`erabox simulate --frames DIR`: every distinct screen of a simulated game as a PNG."""

from __future__ import annotations

from pathlib import Path

from erabox.adapters.display import PngDisplay
from erabox.core.model import Screen
from erabox.ui.panel import Panel
from erabox.ui.render import render


class FrameWriter:
    """Renders each new screen model and writes it as `DIR/NNNN-<t>.png` (t: virtual seconds).

    Screens that differ as data but draw the same pixels are written once.
    """

    def __init__(self, directory: Path, language: str, panel: Panel | None = None) -> None:
        self.panel = panel or Panel()
        self.display = PngDisplay(directory, self.panel.size)
        self.language = language

    def __call__(self, screen: Screen, t: float) -> None:
        # The game's own language first: the settings on the box may have changed it.
        language = screen.language or self.language
        self.display.show(render(screen, language=language, panel=self.panel),
                          label=f"{t:.3f}")
