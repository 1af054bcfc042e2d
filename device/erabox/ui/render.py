"""Screen model -> 1-bit image for a 128x64 or 128x32 panel. Pure: no clock, no display, no
files beyond the font.

Three steps, each its own module so each can be read and tested on its own:

1. `erabox.ui.plans`: what a kind of screen shows (texts, big digits, the progress bar), and
   the prompts laid over it;
2. `erabox.ui.layout`: where each piece goes on the panel, fitted to its width (a `Layout`);
3. here, `render(screen)`: those placed items painted into a new image.

The panel is a value (`erabox.ui.panel.Panel`, from the config), passed to all three.
Every `Screen` renders, even one the core should never produce (a missing round, an era 7):
the box keeps showing something sensible rather than stopping on a drawing error.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from erabox.core.model import Screen
from erabox.core.play import PlayScreen

from .clock_plans import clock_plan, is_clock
from .glyphs import big_text_image, icon_image
from .guide_pages import pages
from .layout import DigitsItem, Layout, ProgressItem, StatusMarks, TextItem, layout, layout_plan
from .panel import Panel
from .strings import check_language
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


def render(screen: Screen, *, language: str = "en", no_sound: bool = False,
           no_save: bool = False, no_file: bool = False,
           panel: Panel | None = None, turn: int = 0) -> Image.Image:
    """Draw `screen` as a new mode "1" image (lit pixels = 1) the size of `panel` (default: the
    config's default panel, 128x64), in `language`.

    `no_sound` adds the no-sound mark to the status row (the box runs without audio);
    `no_save` the cannot-save mark (the state file cannot be written: the log says why);
    `no_file` the missing-sound-file mark (a configured sound file cannot be read); `turn`: the
    page it has turned to on its own (`guide_pages`).
    Raises `ValueError` for an unknown language; every screen model renders.
    """
    panel = panel or Panel()
    return paint(layout(screen, language=language, no_sound=no_sound, no_save=no_save,
                        no_file=no_file, panel=panel, turn=turn), panel)


def paint(placed: Layout, panel: Panel) -> Image.Image:
    """A layout's items painted into a new mode "1" image the size of `panel`."""
    image = Image.new("1", panel.size, 0)
    draw = ImageDraw.Draw(image)
    for item in placed.items:
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
    return image


def draw(screen: Screen | PlayScreen, panel: Panel, language: str, *, no_sound: bool = False,
         no_save: bool = False, no_file: bool = False,
         hold_progress: float | None = None, turn: int = 0) -> Image.Image:
    """Either game's screen as a new mode "1" image: Time of Empires' (`render`, in the
    game's own language first: the settings on the box may have changed it), or a game
    profile's (a countdown as the clock, `clock_plans`; else `screens.render_play`), in
    `language`; `hold_progress`: how far NEXT+ERA are held toward "New game?"); `turn`: the
    page either has turned to on its own."""
    if isinstance(screen, Screen):
        return render(screen, language=screen.language or language, no_sound=no_sound,
                      no_save=no_save, no_file=no_file, panel=panel, turn=turn)
    if is_clock(screen):
        check_language(language)
        plan = clock_plan(screen, language, panel, hold_progress)
        return paint(layout_plan(plan, language, StatusMarks(no_sound, no_save, no_file),
                                 panel), panel)
    from .screens import Marks, render_play

    return render_play(screen, panel, language, Marks(no_sound, no_save, no_file, hold_progress,
                                                        turn))


def turning(screen: Screen | PlayScreen, panel: Panel, language: str) -> int:
    """How many pages either game's screen turns through on its own on `panel` (1: none)."""
    if isinstance(screen, Screen):
        return pages(screen, panel, language)
    if is_clock(screen):
        return 1
    from .screens import turning as play_turning

    return play_turning(screen, panel, language)
