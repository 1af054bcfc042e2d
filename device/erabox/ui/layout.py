"""Where everything on a screen goes: a `Plan` (erabox.ui.plans) in, a `Layout` of placed
items out. Pure: no image is drawn here (`erabox.ui.render` paints the layout).

A status row on top (which era, or "Resumed"; the small clock when the big one is covered; the
no-sound mark and the volume on the right), the plan's content rows in the middle, spread
evenly over the space between status and hint (so each kind and language finds its own
spacing), and one hint row at the bottom naming the button to press. Every piece of text is
fitted to its width here (wrapped, scaled down, or visibly abbreviated).

On a 128x32 panel (`Panel.compact`) there is room for three rows of text: the status row, one
content row and the hint row. A screen whose main thing is a number (the running clock, a
round, a countdown, points) shows it big at the right, full height, and stacks its texts at
the left: status on top, a middle line (a label, a title, the progress bar), the hint at the
bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from erabox.core.model import Screen

from .glyphs import (
    BIG_ROWS,
    NO_FILE_ICON,
    NO_SAVE_ICON,
    NO_SOUND_ICON,
    QUIET_ICON,
    big_text_width,
)
from .panel import MARGIN, Panel
from .plans import (
    GAP,
    ONE_LINE,
    DigitsRow,
    PairRow,
    Plan,
    ProgressRow,
    Row,
    TextRow,
    line_width,
    make_plan,
)
from .strings import check_language, say
from .text import LINE_PX, TextBlock, fit_text

STATUS_HEIGHT = LINE_PX  # the status row: y 2..9 on every panel


# --- placed items -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rect:
    """A rectangle on the screen: left, top, width, height in pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def overlaps(self, other: Rect) -> bool:
        """True if the two boxes share at least one pixel."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def inside(self, panel: Panel) -> bool:
        """True if the whole box lies on the panel."""
        return panel.contains(self.x, self.y, self.w, self.h)


@dataclass(frozen=True)
class TextItem:
    """Small text (Misaki, scaled 1x or 2x); `inverted` draws it dark on a lit bar."""

    role: str
    source: str  # the whole string asked for, before wrapping
    block: TextBlock
    box: Rect
    inverted: bool = False


@dataclass(frozen=True)
class DigitsItem:
    """Big digits ("9:00", "12/15", "5") in the box's own pixel font."""

    role: str
    text: str
    scale_x: int
    scale_y: int
    box: Rect


@dataclass(frozen=True)
class ProgressItem:
    """The era's progress bar: `fraction` done, scholar cues marked at `marks` (fractions)."""

    fraction: float
    marks: tuple[float, ...]
    box: Rect
    role: str = "progress"


@dataclass(frozen=True)
class IconItem:
    """A small pixel icon (the no-sound mark)."""

    role: str
    rows: tuple[str, ...]
    box: Rect


Item = TextItem | DigitsItem | ProgressItem | IconItem


@dataclass(frozen=True)
class Layout:
    """Everything one frame shows, placed. `render` only paints this."""

    items: tuple[Item, ...]

    def roles(self) -> list[str]:
        """The roles of the items, top to bottom as placed."""
        return [item.role for item in self.items]


# --- placement --------------------------------------------------------------------------------


def _place_text(role: str, text: str, block: TextBlock, y: int, *, inverted: bool,
                left: int, right: int) -> TextItem:
    """A text row across x left..right-1: centred, or a bar across it all when inverted."""
    if inverted:
        box = Rect(left, y, right - left, block.height + block.scale)
    else:
        box = Rect(left + (right - left - block.width) // 2, y, block.width, block.height)
    return TextItem(role, text, block, box, inverted)


def _place_row(row: Row, y: int, panel: Panel) -> list[Item]:
    width = panel.width
    if isinstance(row, TextRow):
        return [_place_text(row.role, row.text, row.fitted(panel.inner), y,
                            inverted=row.inverted, left=0, right=width)]
    if isinstance(row, PairRow):  # each text left in its column, fitted to it
        column = (panel.inner - GAP) // 2
        items: list[Item] = []
        for index, text in enumerate(row.texts):
            if text:
                block = fit_text(text, column, ONE_LINE)
                items.append(TextItem(row.role, text, block, Rect(
                    MARGIN + index * (column + GAP), y, block.width, block.height)))
        return items
    if isinstance(row, DigitsRow):
        scale_x, scale_y = row.chosen(panel.inner)
        digits_w = big_text_width(row.text, scale_x)
        height = BIG_ROWS * scale_y
        if not row.label:
            x = (width - digits_w) // 2
            return [DigitsItem(row.role, row.text, scale_x, scale_y, Rect(x, y, digits_w, height))]
        label = fit_text(row.label, panel.inner - digits_w - GAP, ONE_LINE)
        under = fit_text(row.under, panel.inner - digits_w - GAP, ONE_LINE)
        column = max(label.width, under.width if row.under else 0)
        x = (width - column - GAP - digits_w) // 2
        # The label sits on the digits' baseline, like a unit written before a number; a
        # line under it takes the baseline, the label standing over it.
        base = y + height - (under.height + 2 if row.under else 0)
        label_box = Rect(x, base - label.height, label.width, label.height)
        digits_box = Rect(x + column + GAP, y, digits_w, height)
        placed: list[Item] = [TextItem(f"{row.role}_label", row.label, label, label_box)]
        if row.under:
            placed.append(TextItem(f"{row.role}_under", row.under, under,
                                  Rect(x, y + height - under.height, under.width,
                                       under.height)))
        return [*placed, DigitsItem(row.role, row.text, scale_x, scale_y, digits_box)]
    return [ProgressItem(row.fraction, row.marks, Rect(2, y, width - 4, row.height()))]


def _place_column(rows: Sequence[Row], top: int, bottom: int, panel: Panel) -> list[Item]:
    """Spread the rows evenly over y top..bottom-1 (equal gaps above, between and below)."""
    heights = [row.height(panel.inner) for row in rows]
    free = bottom - top - sum(heights)
    gaps = len(rows) + 1
    items: list[Item] = []
    y = top
    for index, (row, height) in enumerate(zip(rows, heights, strict=True)):
        # Integer gaps that add up to `free` exactly, the larger ones first.
        y += max(0, free * (index + 1) // gaps - free * index // gaps)
        items.extend(_place_row(row, y, panel))
        y += height
    return items


@dataclass(frozen=True)
class StatusMarks:
    """What the status row shows at its right: the box's marks (no sound, cannot save, a sound
    file missing) and the volume (in percent while it is being changed; `quiet`: the mark of a
    muted or very quiet box)."""

    no_sound: bool = False
    no_save: bool = False
    no_file: bool = False
    volume: int | None = None
    quiet: bool = False


def _place_status(plan: Plan, language: str, marks: StatusMarks, panel: Panel,
                  right_edge: int, status: str) -> list[Item]:
    """The status row: `status` (or a prompt) on the left, small clock, marks on the right,
    within x 0..right_edge-1 (the panel's width less its margin, or a column of it)."""
    items: list[Item] = []
    top = panel.status_top
    right = right_edge - MARGIN
    if marks.volume is not None:
        volume = say(language, "volume", percent=marks.volume)
        block = fit_text(volume, panel.width // 2, ONE_LINE)
        right -= block.width
        items.append(TextItem("volume", volume, block, Rect(right, top, block.width, 8)))
        right -= GAP
    icons = ((marks.no_sound, "no_sound", NO_SOUND_ICON), (marks.no_save, "no_save", NO_SAVE_ICON),
             (marks.no_file, "no_file", NO_FILE_ICON),
             # the volume itself is shown otherwise
             (marks.quiet and marks.volume is None, "quiet", QUIET_ICON))
    for shown, role, icon in icons:
        if shown:
            icon_w, icon_h = len(icon[0]), len(icon)
            right -= icon_w
            items.append(IconItem(role, icon, Rect(right, top, icon_w, icon_h)))
            right -= GAP
    hint_w = line_width(plan.status_right) if plan.status_right else 0
    if hint_w and (plan.keep_right or right - hint_w - GAP - MARGIN >= line_width(status)):
        block = fit_text(plan.status_right, hint_w, ONE_LINE)
        right -= block.width
        items.append(TextItem("status_hint", plan.status_right, block,
                              Rect(right, top, block.width, block.height)))
        right -= GAP
    if plan.status_clock:
        block = fit_text(plan.status_clock, panel.inner, ONE_LINE)
        x = min((panel.width - block.width) // 2, right - block.width)
        items.append(TextItem("status_clock", plan.status_clock, block,
                              Rect(x, top, block.width, STATUS_HEIGHT)))
        right = x - GAP
    if status:
        # A lit label runs from the edge, its text keeping the margin; it has a row above too.
        block = fit_text(status, max(8, right - MARGIN), ONE_LINE)
        if plan.status_inverted:
            box = Rect(0, top - 1, block.width + 2 * MARGIN, STATUS_HEIGHT + 1)
        else:
            box = Rect(MARGIN, top, block.width, STATUS_HEIGHT)
        items.append(TextItem("status", status, block, box, plan.status_inverted))
    return items


def _statusline_width(plan: Plan, language: str, marks: StatusMarks,
                  status: str) -> int:
    """The width the status row needs for its text and marks (not its right-hand hint)."""
    need = line_width(status) + 2 * MARGIN
    if marks.volume is not None:
        need += line_width(say(language, "volume", percent=marks.volume)) + GAP
    icons = ((marks.no_sound, NO_SOUND_ICON), (marks.no_save, NO_SAVE_ICON),
             (marks.no_file, NO_FILE_ICON), (marks.quiet and marks.volume is None, QUIET_ICON))
    need += sum(len(icon[0]) + GAP for shown, icon in icons if shown)
    return need


def _place_hint(plan: Plan, hint: str, panel: Panel, left: int, right: int) -> TextItem:
    """The hint row across x left..right-1 (a lit bar runs to the bottom edge)."""
    block = fit_text(hint, right - left - 2 * MARGIN, ONE_LINE)
    top = panel.hint_top
    if plan.hint_inverted:
        # The lit bar runs to the bottom edge; the text keeps the hint row's baseline.
        box = Rect(left, top - 1, right - left, block.height + 1)
    else:
        box = Rect(left + (right - left - block.width) // 2, top, block.width, block.height)
    return TextItem("hint", hint, block, box, plan.hint_inverted)


def _small_row(row: Row, height: int) -> Row:
    """`row` with only the text sizes that fit `height` px (the smallest if none does)."""
    if not isinstance(row, TextRow):
        return row
    extra = 1 if row.inverted else 0
    sizes = tuple((scale, lines) for scale, lines in row.sizes
                  if LINE_PX * scale * lines + extra * scale <= height)
    return replace(row, sizes=sizes or ((1, 1),))


def _layout_small(plan: Plan, language: str, marks: StatusMarks,
                  panel: Panel) -> list[Item]:
    """A 128x32 panel: status, one content row, hint; or big digits with texts beside."""
    status = plan.status if plan.small_status is None else plan.small_status
    hint = plan.hint if plan.small_hint is None else plan.small_hint
    rows = plan.small if plan.small is not None else plan.rows[:1]
    digits = next((row for row in rows if isinstance(row, DigitsRow)), None)
    if digits is not None and (plan.hint_inverted or not _fits_beside(
            digits, _statusline_width(plan, language, marks, "") + 8, panel)):
        # A prompt in the hint row ("New game? ■■■□□□") needs the whole width, and a number
        # too wide to leave room for the status marks beside it cannot stand there: the
        # number steps back into the content row as small text.
        text = " ".join(part for part in (digits.label, digits.text, digits.under) if part)
        rows = [TextRow(digits.role, text) if row is digits else row for row in rows]
        digits = None
    if digits is not None:
        return _layout_beside(plan, language, marks, panel, status, hint, digits,
                              [row for row in rows if row is not digits])
    items = _place_status(plan, language, marks, panel, panel.width, status)
    bottom = panel.content_bottom if hint else panel.height - MARGIN
    room = bottom - panel.content_top
    shown: list[Row] = []
    for row in rows:
        small = _small_row(row, room - sum(r.height(panel.inner) for r in shown))
        if sum(r.height(panel.inner) for r in [*shown, small]) > room:
            break
        shown.append(small)
    items.extend(_place_column(shown, panel.content_top, bottom, panel))
    if hint:
        items.append(_place_hint(plan, hint, panel, 0, panel.width))
    return items


def _fits_beside(digits: DigitsRow, need: int, panel: Panel) -> bool:
    """Whether `digits` at their narrowest big size (2x) leave a column `need` px wide."""
    return panel.width - MARGIN - big_text_width(digits.text, 2) - GAP >= need


def _layout_beside(plan: Plan, language: str, marks: StatusMarks, panel: Panel,
                   status: str, hint: str, digits: DigitsRow, others: list[Row]) -> list[Item]:
    """Big digits at the right, full height; status, one middle row and the hint at the left.

    The digits take the widest of 4x, 3x, 2x that leaves the left column room for its texts;
    at 2x the texts are abbreviated if they must be.
    """
    middle = others[0] if others else None
    if middle is None and digits.label:
        middle = TextRow(f"{digits.role}_label", digits.label)
    needs = [_statusline_width(plan, language, marks, status)]
    if hint:
        needs.append(line_width(hint) + 2 * MARGIN)
    if isinstance(middle, TextRow):
        needs.append(line_width(middle.text) + 2 * MARGIN)
    scale_y = (panel.height - 2 * MARGIN) // BIG_ROWS
    for scale_x in (4, 3, 2):
        digits_w = big_text_width(digits.text, scale_x)
        column = panel.width - MARGIN - digits_w - GAP  # x 0..column-1 is the left column
        if max(needs) <= column:
            break
    x = panel.width - MARGIN - digits_w
    items = _place_status(replace(plan, status_clock=""), language, marks, panel,
                          column, status)
    if isinstance(middle, TextRow):
        block = fit_text(middle.text, column - 2 * MARGIN, ONE_LINE)
        top = panel.content_top + (panel.content_bottom - panel.content_top
                                   - block.height - (1 if middle.inverted else 0) + 1) // 2
        if middle.inverted:  # a lit label: a bar as wide as its text plus the margins
            items.append(TextItem(middle.role, middle.text, block,
                                  Rect(0, top, block.width + 2 * MARGIN, block.height + 1), True))
        else:
            items.append(_place_text(middle.role, middle.text, block, top, inverted=False,
                                     left=0, right=column))
    elif isinstance(middle, ProgressRow):
        items.append(ProgressItem(middle.fraction, middle.marks,
                                  Rect(MARGIN, panel.content_top, column - 2 * MARGIN,
                                      middle.height())))
    if hint:
        items.append(_place_hint(plan, hint, panel, 0, column))
    items.append(DigitsItem(digits.role, digits.text, scale_x, scale_y,
                            Rect(x, MARGIN, digits_w, BIG_ROWS * scale_y)))
    return items


def layout(screen: Screen, *, language: str = "en", no_sound: bool = False,
           no_save: bool = False, no_file: bool = False, panel: Panel | None = None,
           turn: int = 0) -> Layout:
    """Decide what `screen` shows and where, in `language` ("en" or "ja"), on `panel` (default:
    the config's default panel, 128x64); `turn`: the page it has turned to on its own.

    Raises `ValueError` for an unknown language; any screen model is laid out.
    """
    check_language(language)
    panel = panel or Panel()
    marks = StatusMarks(no_sound, no_save, no_file, screen.volume, screen.quiet)
    return layout_plan(make_plan(screen, language, panel, turn), language, marks, panel)


def layout_plan(plan: Plan, language: str, marks: StatusMarks, panel: Panel) -> Layout:
    """Place `plan` on `panel` with the status row's `marks`: the one placement of every
    planned screen (Time of Empires' from `make_plan`, a countdown of any game's from
    `round_plans`)."""
    if panel.compact:
        return Layout(tuple(_layout_small(plan, language, marks, panel)))
    items = _place_status(plan, language, marks, panel, panel.width, plan.status)
    items.extend(_place_column(plan.rows, panel.content_top, panel.content_bottom, panel))
    if plan.hint:
        items.append(_place_hint(plan, plan.hint, panel, 0, panel.width))
    return Layout(tuple(items))
