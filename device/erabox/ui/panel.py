"""The panel the screens are laid out for: its size and the rows every screen keeps.

A `Panel` is a value handed to `render` (and to the gallery and the self-test pages); nothing in
`erabox.ui` keeps the size anywhere else. Its size comes from the config (`[display] height`,
`erabox.core.config.DisplayConfig`); `Panel()` is the config's default panel.

Rows, top to bottom (8 px Misaki text lines, 2 px from every edge):

- 128x64: a status row (y 2..9), a column of content rows (y 11..52), a hint row (y 54..61);
- 128x32: three rows of text, y 2..9, 12..19 and 22..29 (`compact`): a status row, one content
  row and a hint row; screens with big digits put them at the right, full height, and stack
  their texts at the left (see `render`).
"""

from __future__ import annotations

from dataclasses import dataclass

from erabox.core.config import PANEL_HEIGHTS, DisplayConfig

from .text import LINE_PX

MARGIN = 2  # no text within 2 px of the panel's edges (and OLED care's 1 px shift loses none)


@dataclass(frozen=True)
class Panel:
    """A panel's size in pixels and the rows laid out on it."""

    width: int = DisplayConfig.width
    height: int = DisplayConfig.height

    def __post_init__(self) -> None:
        if self.width != DisplayConfig.width or self.height not in PANEL_HEIGHTS:
            sizes = ", ".join(f"{DisplayConfig.width}x{h}" for h in PANEL_HEIGHTS)
            raise ValueError(f"no screen layouts for a {self.width}x{self.height} panel"
                             f" (expected {sizes})")

    @classmethod
    def of(cls, display: DisplayConfig) -> Panel:
        """The panel a display config describes."""
        return cls(display.width, display.height)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height), as Pillow takes it."""
        return (self.width, self.height)

    @property
    def compact(self) -> bool:
        """True for a 32 px panel: three rows of text, no column of content rows."""
        return self.height < 64

    @property
    def inner(self) -> int:
        """The width text is fitted to."""
        return self.width - 2 * MARGIN

    @property
    def status_top(self) -> int:
        """The status row's top (it is LINE_PX high)."""
        return MARGIN

    @property
    def hint_top(self) -> int:
        """The hint row's top (it ends MARGIN above the bottom edge)."""
        return self.height - MARGIN - LINE_PX

    @property
    def content_top(self) -> int:
        """The first pixel row of the content rows (one blank row under the status row)."""
        return MARGIN + LINE_PX + 1

    @property
    def content_bottom(self) -> int:
        """One past the last pixel row of the content rows (one blank row above the hint)."""
        return self.hint_top - 1

    def contains(self, x: int, y: int, w: int, h: int) -> bool:
        """True if the rectangle lies on the panel."""
        return x >= 0 and y >= 0 and x + w <= self.width and y + h <= self.height
