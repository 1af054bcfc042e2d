"""A game profile's screen model (`PlayScreen`) -> 1-bit image for a 128x64 or 128x32 panel.

Every screen is planned by `round_plans.py` in Time of Empires' rows and placed and painted as
Time of Empires' are (`layout.layout_plan`, `paint.py`); `layout_play` gives its items as
masks (each at a position, with the role it plays: tests measure them), `render_play` paints
it.

Some screens turn pages on their own, every `PAGE_S` seconds of the box's clock while they are
shown (`Marks.turn`; `turning` says how many pages there are): the setup's hint row alternates
with "hold ERA: settings" (the way back to another game or player count), and on 128x32 a step
too long for its line shows a line at a time, "→" at the end of each but the last, its hint row
(the footer) saying the undo gesture every other page (its three rows are full). No button
is taken for it: a step's buttons stay as they are.

The box's status marks (`Marks`: no sound, cannot save, a sound file missing) sit at the right
of the status row; while NEXT and ERA are held together the hint row becomes a lit "New game?
■■■□□□" bar, filling as the hold goes on.
"""

from __future__ import annotations

from PIL import Image

from erabox.core.play import (
    PlayScreen,
)

from .compact import MORE as MORE  # ends a page of a step that goes on on the next
from .layout import DigitsItem, Item, TextItem
from .paint import item_masks, paint
from .panel import Panel
from .round_plans import planned_layout, planned_pages
from .screen_parts import GAP as GAP
from .screen_parts import NO_MARKS as NO_MARKS
from .screen_parts import Marks as Marks
from .screen_parts import Placed
from .strings import check_language

PAGE_S = 4.0  # seconds a page that turns on its own stays (the setup's hint, a long step)


def turning(screen: PlayScreen, panel: Panel, language: str) -> int:
    """How many pages `screen` turns through on its own on `panel` (1: it stays as it is):
    the setup's hint row two, a step too long for 128x32's line its lines
    (`round_plans.planned_pages`)."""
    return planned_pages(screen, panel, language)


def layout_play(screen: PlayScreen, panel: Panel | None = None, language: str = "en",
                marks: Marks = NO_MARKS) -> tuple[Placed, ...]:
    """Where each item of `screen` goes on `panel`, with the box's `marks`."""
    panel = panel or Panel()
    check_language(language)
    placed = planned_layout(screen, panel, language, marks)
    held = marks.hold_progress is not None  # the lit hint row is the hold's bar
    return tuple(_as_placed(item, mask, held) for item, mask in item_masks(placed, panel))


def render_play(screen: PlayScreen, panel: Panel | None = None, language: str = "en",
                marks: Marks = NO_MARKS) -> Image.Image:
    """The screen as a mode "1" image of the panel's size (`layout_play` gives the same as
    masks)."""
    panel = panel or Panel()
    check_language(language)
    return paint(planned_layout(screen, panel, language, marks), panel)


def _as_placed(item: Item, mask: Image.Image, held: bool = False) -> Placed:
    """A placed item of Time of Empires' layout (`layout.Item`) as a mask of ours; `held`:
    its lit hint row is the bar of NEXT and ERA held ("hold")."""
    text = (item.source if isinstance(item, TextItem) else
            item.text if isinstance(item, DigitsItem) else "")
    inverted = isinstance(item, TextItem) and item.inverted
    role = getattr(item, "role", "progress")
    if held and inverted and role == "hint":
        role = "hold"
    return Placed(role, item.box.x, item.box.y, mask,
                  isinstance(item, TextItem) and item.block.abbreviated, text, inverted)
