"""A layout painted: its placed items (`layout.Layout`) into a 1-bit image the panel's size,
or each into a mask of its own (a round game's screens place masks, `screens.layout_play`).
Pure: no clock, no display."""

from __future__ import annotations

from PIL import Image, ImageDraw

from .glyphs import big_text_image, icon_image
from .layout import DigitsItem, Item, Layout, ProgressItem, TextItem
from .panel import Panel
from .text import line_image


def _paint_text(image: Image.Image, item: TextItem) -> None:
    block, box = item.block, item.box
    ink = 1
    if item.inverted:
        image.paste(1, (box.x, box.y, box.right, box.bottom))
        ink = 0
    y = box.bottom - block.height  # a lit bar's extra rows are above the text
    for line in block.lines:
        mask = line_image(line, block.scale)
        x = box.x + (box.w - mask.width) // 2  # each line centred in the item's box
        image.paste(ink, (x, y, x + mask.width, y + mask.height), mask)
        y += mask.height


def _paint_progress(draw: ImageDraw.ImageDraw, item: ProgressItem) -> None:
    box = item.box
    bar_top, bar_bottom = box.y + 2, box.bottom - 3  # 7 px bar, 2 px of marks either side
    draw.rectangle((box.x, bar_top, box.right - 1, bar_bottom), outline=1, fill=0)
    inner = box.w - 4
    done = round(item.fraction * inner)
    if done > 0:
        draw.rectangle((box.x + 2, bar_top + 2, box.x + 1 + done, bar_bottom - 2), fill=1)
    for mark in item.marks:
        x = box.x + 2 + round(mark * inner)
        draw.line((x, box.y, x, bar_top - 1), fill=1)
        draw.line((x, bar_bottom + 1, x, box.bottom - 1), fill=1)
        # Inside the bar the mark shows as a gap in the fill (or a dot in the empty part).
        draw.line((x, bar_top + 2, x, bar_bottom - 2), fill=0 if x <= box.x + 1 + done else 1)


def paint(placed: Layout, panel: Panel) -> Image.Image:
    """A layout's items painted into a new mode "1" image the size of `panel`."""
    image = Image.new("1", panel.size, 0)
    draw = ImageDraw.Draw(image)
    for item in placed.items:
        _paint_item(image, draw, item)
    return image


def item_masks(placed: Layout, panel: Panel) -> list[tuple[Item, Image.Image]]:
    """Each item of `placed` with its own mask (lit = ink), the size of its box: a round
    game's screens (`screens.layout_play`) place masks, these among them."""
    masks = []
    for item in placed.items:
        image = Image.new("1", panel.size, 0)
        _paint_item(image, ImageDraw.Draw(image), item)
        box = item.box
        masks.append((item, image.crop((box.x, box.y, box.right, box.bottom))))
    return masks


def _paint_item(image: Image.Image, draw: ImageDraw.ImageDraw, item: Item) -> None:
    if isinstance(item, TextItem):
        _paint_text(image, item)
    elif isinstance(item, DigitsItem):
        mask = big_text_image(item.text, item.scale_x, item.scale_y)
        image.paste(1, (item.box.x, item.box.y, item.box.right, item.box.bottom), mask)
    elif isinstance(item, ProgressItem):
        _paint_progress(draw, item)
    else:
        mask = icon_image(item.rows)
        image.paste(1, (item.box.x, item.box.y, item.box.right, item.box.bottom), mask)
