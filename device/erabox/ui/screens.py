"""A game profile's screen model (`PlayScreen`) -> 1-bit image for a 128x64 or 128x32 panel.

Every screen but one is planned by `round_plans.py` in Time of Empires' rows and placed and
painted as Time of Empires' are (`layout.layout_plan`, `paint.py`); `layout_play` gives its
items as masks (each at a position, with the role it plays: tests measure them),
`render_play` paints it. The one laid out here: a ranking whose places say what decided them
("2 blue 4 on 2nd criterion; tie broken by ..."), the reasons wrapped over the rows (128x64:
as many whole places as five rows hold a page; 128x32: a line a page), NEXT turning them.

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

from .game_words import word
from .layout import DigitsItem, Item, TextItem
from .paint import item_masks, paint
from .panel import MARGIN, Panel
from .plans import HOLD_BLOCKS
from .round_plans import is_planned, planned_layout, planned_pages, verdict
from .screen_parts import GAP as GAP
from .screen_parts import NO_MARKS as NO_MARKS
from .screen_parts import (
    ROWS_OF_PLACES,
    Placed,
    _colour,
    _hint,
    _status,
    _text,
)
from .screen_parts import Marks as Marks
from .strings import check_language, say
from .text import LINE_PX, drawable, fit_text, line_image, text_width, wrap

PAGE_S = 4.0  # seconds a page that turns on its own stays (the setup's hint, a long step)
MORE = "→"  # ends a page of a step that goes on on the next


def turning(screen: PlayScreen, panel: Panel, language: str) -> int:
    """How many pages `screen` turns through on its own on `panel` (1: it stays as it is):
    the setup's hint row two, a step too long for 128x32's line its lines
    (`round_plans.planned_pages`)."""
    return planned_pages(screen, panel, language) if is_planned(screen) else 1


def layout_play(screen: PlayScreen, panel: Panel | None = None, language: str = "en",
                marks: Marks = NO_MARKS) -> tuple[Placed, ...]:
    """Where each item of `screen` goes on `panel`, with the box's `marks`."""
    panel = panel or Panel()
    check_language(language)
    placed = planned_layout(screen, panel, language, marks)
    if placed is not None:  # one of Time of Empires' screens (`round_plans.is_planned`)
        held = marks.hold_progress is not None  # the lit hint row is the hold's bar
        return tuple(_as_placed(item, mask, held) for item, mask in item_masks(placed, panel))
    items = _game_over(screen, panel, language, marks)
    if marks.hold_progress is None:
        return items
    return _holding(items, marks.hold_progress, panel, language)


def render_play(screen: PlayScreen, panel: Panel | None = None, language: str = "en",
                marks: Marks = NO_MARKS) -> Image.Image:
    """The screen as a mode "1" image of the panel's size."""
    panel = panel or Panel()
    check_language(language)
    placed = planned_layout(screen, panel, language, marks)
    if placed is not None:  # painted at once (`layout_play` gives the same as masks)
        return paint(placed, panel)
    image = Image.new("1", panel.size, 0)
    for item in layout_play(screen, panel, language, marks):
        image.paste(1, (item.x, item.y), item.mask)
    return image


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


def _holding(items: tuple[Placed, ...], held: float, panel: Panel,
             language: str) -> tuple[Placed, ...]:
    """The hint row as a lit bar, "New game? ■■■□□□", filled as far as NEXT+ERA are held (as
    on Time of Empires' screens); what the row showed gives way."""
    done = round(min(1.0, max(0.0, held)) * HOLD_BLOCKS)
    text = say(language, "hold_new_game", bar="■" * done + "□" * (HOLD_BLOCKS - done))
    block = fit_text(text, panel.inner, ((1, 1),))
    bar = Image.new("1", (panel.width, LINE_PX + 1), 1)
    x = (panel.width - block.width) // 2
    for line in block.lines:
        mask = line_image(line)
        bar.paste(0, (x, 1, x + mask.width, 1 + mask.height), mask)
    kept = tuple(item for item in items if item.y < panel.hint_top)
    return (*kept, Placed("hold", 0, panel.hint_top - 1, bar, block.abbreviated))


def _game_over(screen: PlayScreen, panel: Panel, language: str, marks: Marks
               ) -> tuple[Placed, ...]:
    """The ranking with what decided each place (`round_plans.explained`; the plain ranking is
    `round_plans.ranking_plan`'s): the verdict in the status row, the places' reasons below."""
    items = _status(screen, panel, language, verdict(screen, language), marks=marks)
    return tuple(items + _explained(screen, panel, language))


def _explained(screen: PlayScreen, panel: Panel, language: str) -> list[Placed]:
    """The places each with what decided it ("2 blue 4 on 2nd criterion; out at stage 2;
    tie broken by ..."), wrapped: on 128x64 as many whole places as the content rows hold
    a page, on 128x32 a line a page (short places side by side); NEXT turns the pages."""
    blocks = [wrap(drawable(_why(screen, index, language)), panel.inner)
              for index in range(len(screen.places))]
    pages: list[list[str]] = []
    if panel.compact:
        whole = False  # the last page holds whole places only: a short one may join it
        for block in blocks:
            joined = f"{pages[-1][0]}  {block[0]}" if pages else ""
            if len(block) == 1 and whole and text_width(joined) <= panel.inner:
                pages[-1] = [joined]
            else:
                pages += [[row] for row in block]
                whole = len(block) == 1
    else:
        for block in blocks:
            if pages and len(pages[-1]) + len(block) <= ROWS_OF_PLACES:
                pages[-1] += block
            else:
                pages.append(list(block))
    rows = pages[screen.page % len(pages)]
    top = 12 if panel.compact else panel.content_top
    items: list[Placed] = []
    for index, row in enumerate(rows[:1] if panel.compact else rows[:ROWS_OF_PLACES]):
        items += _text("places" if panel.compact else "place", row, MARGIN,
                       top + index * LINE_PX, panel.inner)
    hint = "hint_over_more" if len(pages) > 1 else "hint_over"
    return items + _hint(word(language, hint), panel)


def _why(screen: PlayScreen, index: int, language: str) -> str:
    """One place and what decided it, in words."""
    place, colour, score, out, _ = screen.places[index]
    by, tie, unbroken = screen.decided[index]
    head = word(language, "place", place=place, colour=_colour(colour, language))
    parts = [head + (str(score) if by is None else
                     word(language, "by", score=score, category=by.text(language)))]
    if out is not None:
        parts.append(word(language, "out_at", n=out))
    if tie is not None:
        parts.append(word(language, "tie_by", rule=tie.text(language)))
    elif unbroken:
        parts.append(word(language, "tie_shared"))
    return word(language, "and").join(parts)
