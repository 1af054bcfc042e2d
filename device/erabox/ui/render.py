"""Screen model -> 1-bit image for a 128x64 or 128x32 panel. Pure: no clock, no display, no
files beyond the font.

Drawing happens in two steps, so the second can be tested on its own:

1. `layout(screen)` decides what goes where: a status row on top (which era, or "Resumed";
   the small clock when the big one is covered; the no-sound mark and the volume on the
   right), a column of content rows in the middle (big digits, titles, the progress bar),
   and one hint row at the bottom naming the button to press. Content rows are spread evenly
   over the space between status and hint, so each kind and language finds its own spacing.
   Every piece of text is fitted to its width here (wrapped, scaled down, or visibly
   abbreviated), and the result is a `Layout` of placed items with their boxes.
2. `render(screen)` paints those items into a new image.

The panel is a value (`erabox.ui.panel.Panel`, from the config), passed to both. On a 128x32
panel (`Panel.compact`) there is room for three rows of text: the status row, one content row
(`_Plan.small`: the row that matters most, or a short form of it) and the hint row. A screen
whose main thing is a number (the running clock, a round, a countdown, points) shows it big at
the right, full height, and stacks its texts at the left: status on top, a middle line (a
label, a title, the progress bar), the hint at the bottom.

Every `Screen` renders, even one the core should never produce (a missing round, an era 7):
the box keeps showing something sensible rather than stopping on a drawing error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from erabox.core.model import Mode, Phase, Prompt, Question, Screen
from erabox.core.rules import ERAS

from .glyphs import (
    BIG_ROWS,
    NO_FILE_ICON,
    NO_SAVE_ICON,
    NO_SOUND_ICON,
    QUIET_ICON,
    big_text_image,
    big_text_width,
    icon_image,
)
from .panel import MARGIN, Panel
from .strings import (
    LANGUAGE_NAMES,
    SCORING_STEPS,
    STRINGS,
    check_language,
    clock_text,
    colour_name,
    era_name,
    say,
)
from .text import LINE_PX, TextBlock, drawable, fit_text, line_image, text_width

STATUS_HEIGHT = LINE_PX  # the status row: y 2..9 on every panel
GAP = 3  # px between items side by side (label and digits, status marks)


def _width(text: str) -> int:
    """Width in pixels of one line of `text` as drawn (a character the font lacks is "?")."""
    return text_width(drawable(text))


# (scale, max_lines) choices for a text row, tried in order.
Sizes = tuple[tuple[int, int], ...]
ONE_LINE: Sizes = ((1, 1),)
TITLE: Sizes = ((2, 1), (1, 1))
EMPHASIS: Sizes = ((2, 1), (1, 2))
QUESTION: Sizes = ((2, 2), (1, 3))


# --- placed items -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
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

    def overlaps(self, other: Box) -> bool:
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
    box: Box
    inverted: bool = False


@dataclass(frozen=True)
class DigitsItem:
    """Big digits ("9:00", "12/15", "5") in the box's own pixel font."""

    role: str
    text: str
    scale_x: int
    scale_y: int
    box: Box


@dataclass(frozen=True)
class ProgressItem:
    """The era's progress bar: `fraction` done, scholar cues marked at `marks` (fractions)."""

    fraction: float
    marks: tuple[float, ...]
    box: Box
    role: str = "progress"


@dataclass(frozen=True)
class IconItem:
    """A small pixel icon (the no-sound mark)."""

    role: str
    rows: tuple[str, ...]
    box: Box


Item = TextItem | DigitsItem | ProgressItem | IconItem


@dataclass(frozen=True)
class Layout:
    """Everything one frame shows, placed. `render` only paints this."""

    items: tuple[Item, ...]

    def roles(self) -> list[str]:
        """The roles of the items, top to bottom as placed."""
        return [item.role for item in self.items]


# --- content rows (before placement) ----------------------------------------------------------


@dataclass(frozen=True)
class _TextRow:
    role: str
    text: str
    sizes: Sizes = ONE_LINE
    inverted: bool = False

    def fitted(self, width: int) -> TextBlock:
        return fit_text(self.text, width, self.sizes)

    def height(self, width: int) -> int:
        block = self.fitted(width)
        # A lit bar gets one blank pixel row per scale step above the text; Misaki's cell
        # already has its blank row below, so the text sits in the middle of the bar.
        return block.height + (block.scale if self.inverted else 0)


@dataclass(frozen=True)
class _DigitsRow:
    role: str
    text: str
    scales: tuple[tuple[int, int], ...]  # (x, y) scales, tried until the row fits the width
    label: str = ""  # small text left of the digits ("Round")

    def chosen(self, width: int) -> tuple[int, int]:
        label_w = _width(self.label) + GAP if self.label else 0
        for scale_x, scale_y in self.scales:
            if label_w + big_text_width(self.text, scale_x) <= width:
                return scale_x, scale_y
        return self.scales[-1]

    def height(self, width: int) -> int:
        return BIG_ROWS * self.chosen(width)[1]


@dataclass(frozen=True)
class _ProgressRow:
    fraction: float
    marks: tuple[float, ...]

    def height(self, width: int = 0) -> int:
        return 11  # 2 px of cue marks above and below a 7 px bar


_Row = _TextRow | _DigitsRow | _ProgressRow


@dataclass
class _Plan:
    """What a kind of screen wants shown, before overlays and placement."""

    status: str  # left of the status row
    rows: list[_Row]
    hint: str = ""
    hint_inverted: bool = False
    status_inverted: bool = False
    status_clock: str = ""  # small clock in the status row, when the big one is not shown
    status_right: str = ""  # a short hint at the right of the status row
    # On a 128x32 panel: the rows shown (None: the first of `rows`; a big-digits row among
    # them puts the digits at the right) and the status text (None: `status`).
    small: list[_Row] | None = None
    small_status: str | None = None
    small_hint: str | None = None  # None: `hint`; "": none (the content takes its row)


# --- what each kind of screen shows -----------------------------------------------------------


def _plan_setup(screen: Screen, language: str) -> _Plan:
    era = era_name(screen.era, language)
    if screen.mode is Mode.INTRO:
        mode = say(language, "mode_intro", rounds=screen.rounds)
    else:
        mode = say(language, "mode_realtime", length=clock_text(screen.length_s))
    return _Plan(
        status=say(language, "new_game" if screen.new_game else "setup"),
        rows=[
            _TextRow("title", era, TITLE),
            _TextRow("mode", mode, EMPHASIS, inverted=True),
            _TextRow("hint_next", say(language, "hint_toggle_mode")),
        ],
        hint=say(language, "hint_start_era", era=era),
        # Only before Era I: the settings (players, language, ...) open from here.
        status_right=say(language, "hint_open_settings") if screen.new_game else "",
        # The era is named by the hint ("ERA: start Era I").
        small=[_TextRow("mode", mode, inverted=True)],
    )


def _menu_value(item: str, value: str, language: str) -> str:
    """A settings value as the screen says it."""
    if item == "players":
        return say(language, "value_players", n=value)
    if item.startswith("seat") or item == "oldest":
        return colour_name(value, language)
    if item == "language":
        return LANGUAGE_NAMES.get(value, value)
    if item.startswith("mode"):
        return say(language, f"value_{value}") if value in ("realtime", "intro") else value
    if item in ("final_ticks", "cue_led", "guide"):
        return say(language, f"value_{value}") if value in ("on", "off") else value
    if item in ("volume", "music_level"):
        return say(language, "value_percent", n=value)
    if item == "lead_in":
        return say(language, "value_seconds", n=value)
    if item == "brightness":
        return say(language, "value_level", n=value)
    if item == "defaults":
        return say(language, "value_restore")
    if item == "done":
        return say(language, "value_back")
    return value


def _menu_label(item: str, language: str) -> str:
    if item.startswith("seat") and item[4:].isdigit():
        return say(language, "set_seat", n=item[4:])
    if item.startswith("mode") and item[4:].isdigit():
        return say(language, "set_mode", era=era_name(int(item[4:]), language))
    key = f"set_{item}"
    return say(language, key) if key in STRINGS[language] else item


# A line under a setting's value, where it says something the value does not.
_MENU_NOTES = {"players": "players", "oldest": "oldest", "volume": "volume",
               "music_level": "music_level",
               "final_ticks": "final_ticks", "defaults": "defaults"}


def _plan_settings(screen: Screen, language: str) -> _Plan:
    item = screen.menu_item or "done"
    position = screen.menu_position
    status = say(language, "settings")
    if position is not None:
        status += f" {position[0]}/{position[1]}"
    note_key = screen.menu_note or _MENU_NOTES.get(
        "players" if item.startswith("seat") else item)
    label = _menu_label(item, language)
    value = _menu_value(item, screen.menu_value or "", language)
    rows: list[_Row] = [
        _TextRow("label", label),
        _TextRow("value", value, EMPHASIS, inverted=True),
    ]
    if note_key:
        rows.append(_TextRow("note", say(language, f"note_{note_key}")))
    small_status = label if position is None else f"{position[0]}/{position[1]} {label}"
    return _Plan(
        status=status,
        rows=rows,
        hint=say(language, "hint_menu"),
        status_right=say(language, "hint_back"),  # every settings screen: how to leave
        # Small panel: the item in the status row ("1/17 Players"), its value in the bar (or
        # a note that says what just happened: "defaults restored").
        small=[_TextRow("note", say(language, f"note_{screen.menu_note}"), inverted=True)
               if screen.menu_note else _TextRow("value", value, inverted=True)],
        small_status=small_status,
    )


def _plan_lead_in(screen: Screen, language: str) -> _Plan:
    countdown = "-" if screen.countdown is None else str(max(0, screen.countdown))
    label = _TextRow("label", say(language, "lead_in"))
    digits = _DigitsRow("countdown", countdown, ((5, 4), (4, 4), (3, 4), (2, 4), (1, 4)))
    return _Plan(
        status=era_name(screen.era, language),
        rows=[label, digits],
        hint=say(language, "hint_back"),
        small=[digits, label],
    )


def _progress(screen: Screen) -> _ProgressRow:
    length = screen.length_s if screen.length_s > 0 else 1.0
    if screen.elapsed is not None:
        done = screen.elapsed / length
    elif screen.seconds_left is not None:
        done = (length - screen.seconds_left) / length
    else:
        done = 0.0
    marks = tuple(cue / length for cue in screen.cue_marks if 0 < cue < length)
    return _ProgressRow(min(1.0, max(0.0, done)), marks)


_CLOCK_SCALES = ((4, 4), (3, 4), (2, 4), (1, 4))


def _plan_running(screen: Screen, language: str) -> _Plan:
    rows: list[_Row] = [
        _DigitsRow("clock", clock_text(screen.seconds_left), _CLOCK_SCALES),
        _progress(screen),
    ]
    return _Plan(
        status=era_name(screen.era, language),
        rows=rows,
        hint=say(language, "action_phase"),
        small=list(rows),
    )


def _plan_paused(screen: Screen, language: str) -> _Plan:
    title = _TextRow("title", say(language, "paused"), TITLE)
    # Smaller than the running clock: the word "Paused" is what must be seen first.
    clock = _DigitsRow("clock", clock_text(screen.seconds_left), ((3, 3), (2, 3), (1, 3)))
    return _Plan(
        status=era_name(screen.era, language),
        rows=[title, clock],
        hint=say(language, "hint_resume"),
        # Small panel: "Paused" left, between the era and the hint; the clock at the right.
        small=[clock, replace(title, inverted=True)],
    )


def _plan_intro_round(screen: Screen, language: str) -> _Plan:
    current = "-" if screen.round is None else str(screen.round)
    rows: list[_Row] = [
        _DigitsRow(
            "round",
            f"{current}/{screen.rounds}",
            ((3, 4), (2, 4), (2, 3), (1, 3)),
            label=say(language, "round"),
        )
    ]
    small = list(rows)
    if screen.start_player is not None:
        colour = colour_name(screen.start_player, language)
        rows.append(_TextRow("start_player", say(language, "start_player", colour=colour)))
        small.append(_TextRow("start_player", say(language, "start_player_short",
                                                  colour=colour)))
    last = screen.round is not None and screen.round >= screen.rounds
    can_undo = screen.round is not None and screen.round > 1
    key = "hint_end_era" if last else "hint_next_round"  # the last round's NEXT ends the era
    return _Plan(
        status=era_name(screen.era, language),
        rows=rows,
        hint=say(language, key + ("_undo" if can_undo else "")),
        # Small panel: the hold to undo is left unsaid (NEXT is what the round needs).
        small=small,
        small_hint=say(language, key),
    )


def _plan_scholars(screen: Screen, language: str) -> _Plan:
    last = _TextRow("pass_left", say(language, "scholars_pass"))
    rows: list[_Row] = [_TextRow("title", say(language, "scholars_title"), EMPHASIS), last]
    if screen.start_player is not None:
        colour = colour_name(screen.start_player, language)
        last = _TextRow("next_start", say(language, "scholars_next", colour=colour), EMPHASIS)
        rows.append(last)
    return _Plan(
        status=era_name(screen.era, language),
        rows=rows,
        hint=say(language, "hint_resume_game"),
        # Small panel: "Appoint scholars" in the status row, who starts next below it.
        small=[replace(last, sizes=ONE_LINE)],
        small_status=say(language, "scholars_title"),
    )


def _plan_prepare(screen: Screen, language: str) -> _Plan:
    """One step of the preparation guide: its text, as large as it fits."""
    era = era_name(screen.era, language)
    step, steps = screen.guide_position or (1, 1)
    key = screen.guide_step if screen.guide_step in STRINGS[language] else None
    text = say(language, key, n=screen.guide_n if screen.guide_n is not None else "")\
        if key else say(language, "setup")
    return _Plan(
        status=say(language, "guide_status", era=era, step=step, steps=steps),
        rows=[_TextRow("guide", text, ((1, 5),))],
        hint=say(language, "hint_guide", era=era),
        # Small panel: the step's text takes the hint's row too (two lines); the buttons are
        # the same on every step (NEXT: next, ERA: start).
        small=[_TextRow("guide", text, ((1, 2),))],
        small_hint="",
    )


def _short_colour(colour: str, language: str) -> str:
    """A colour in a row of totals: the Japanese character, or three letters."""
    name = colour_name(colour, language)
    return name if language == "ja" else name[:3].capitalize()


def _totals_row(screen: Screen, language: str) -> _TextRow:
    text = " ".join(f"{_short_colour(c, language)}{t}" for c, t in screen.totals)
    return _TextRow("totals", text)


def _short_places_row(screen: Screen, language: str) -> _TextRow:
    """The ranking on one line ("1.Gre123 2.Red123 3.Blu98 4.Yel7"), for a small panel;
    without the places when that is too wide (the order is the ranking)."""
    width = Panel(height=32).inner  # panels differ in height only
    text = " ".join(f"{place}.{_short_colour(colour, language)}{total}"
                    for place, colour, total, _ in screen.places)
    if _width(text) > width:
        text = " ".join(f"{_short_colour(colour, language)}{total}"
                        for _, colour, total, _ in screen.places)
    return _TextRow("places", text)


def _place_rows(screen: Screen, language: str) -> list[_Row]:
    rows: list[_Row] = []
    for place, colour, total, built in screen.places:
        name = colour_name(colour, language)
        if built is None:
            line = say(language, "place_line", place=place, colour=name, total=total)
        else:
            line = say(language, "place_buildings", place=place, colour=name, total=total,
                       n=built)
        rows.append(_TextRow(f"place{len(rows) + 1}", line))
    return rows


def _step_text(screen: Screen, language: str) -> str:
    index = min(len(SCORING_STEPS) - 1, max(0, screen.scoring_step or 0))
    return say(language, "scoring_step", step=index + 1, steps=len(SCORING_STEPS),
               text=say(language, SCORING_STEPS[index]))


def _plan_entry(screen: Screen, language: str) -> _Plan:
    """Victory points being entered: the step, the player and the number, running totals."""
    era = era_name(screen.era, language)
    after = (say(language, "hint_final_ranking") if screen.era >= ERAS
             else say(language, "hint_prepare_era", era=era_name(screen.era + 1, language)))
    if screen.entry == "standings":
        return _Plan(status=say(language, "standings_title", era=era),
                     rows=_place_rows(screen, language), hint=after,
                     small=[_short_places_row(screen, language)])
    if screen.entry == "shown":
        no_points = _TextRow("no_points", say(language, "no_points"))
        return _Plan(status=era, rows=[_TextRow("step", _step_text(screen, language), EMPHASIS),
                                       no_points, _totals_row(screen, language)],
                     hint=say(language, "hint_go_on"), status_right=say(language, "hint_undo"),
                     small=[no_points], small_status=_step_text(screen, language))
    title = (say(language, "tie_title") if screen.entry == "buildings"
             else _step_text(screen, language))
    player = colour_name(screen.player or "?", language)
    value = _DigitsRow("value", str(screen.value or 0), ((3, 3), (2, 3), (1, 3)), label=player)
    rows: list[_Row] = [_TextRow("step", title, ((1, 2),)), value]
    if screen.entry == "points":
        rows.append(_totals_row(screen, language))
    # Small panel: the step in the status row, the player left of the big number.
    return _Plan(status=era, rows=rows, hint=say(language, "hint_points"),
                 status_right=say(language, "hint_undo"),
                 small=[value, _TextRow("player", player)], small_status=title)


def _plan_scoring(screen: Screen, language: str) -> _Plan:
    if screen.entry is not None:
        return _plan_entry(screen, language)
    era = era_name(screen.era, language)
    title = _TextRow("title", say(language, "scoring_title", era=era), ((1, 2),))
    rows: list[_Row] = [title]
    small: list[_Row] = [replace(title, sizes=ONE_LINE)]
    done = screen.scoring_step is not None and screen.scoring_step >= len(SCORING_STEPS)
    if done:  # after 6/6: done, not round again to 1/6
        step_row = _TextRow("step", say(language, "scoring_done"), ((1, 2),), inverted=True)
        rows.append(step_row)
        small = [replace(step_row, sizes=ONE_LINE)]
    elif screen.scoring_step is not None:
        index = max(0, screen.scoring_step)
        step = say(
            language,
            "scoring_step",
            step=index + 1,
            steps=len(SCORING_STEPS),
            text=say(language, SCORING_STEPS[index]),
        )
        # One text size for every step (small, up to two lines), so the steps read alike.
        step_row = _TextRow("step", step, ((1, 2),))
        rows.append(step_row)
        small = [replace(step_row, sizes=ONE_LINE)]
    if not done:
        rows.append(_TextRow("hint_next", say(language, "hint_next_step")))
    if screen.era >= ERAS:
        hint = say(language, "hint_final_scoring")
    else:
        hint = say(language, "hint_prepare_era", era=era_name(screen.era + 1, language))
    # Small panel: the title in the status row, the step (or "done") below it.
    return _Plan(status=era, rows=rows, hint=hint, small=small,
                 small_status=None if len(rows) == 1 else title.text)


def _plan_game_over(screen: Screen, language: str) -> _Plan:
    if screen.places:
        first = [colour for place, colour, _, _ in screen.places if place == 1]
        title = (say(language, "winner", colour=colour_name(first[0], language))
                 if len(first) == 1 else say(language, "shared_victory"))
        return _Plan(
            status=say(language, "final_ranking"),
            rows=[_TextRow("title", title, inverted=True), *_place_rows(screen, language)],
            hint=say(language, "hint_new_game"),
            # Small panel: who won in the status row, the ranking on one line below.
            small=[_short_places_row(screen, language)],
            small_status=title,
        )
    return _Plan(
        status=era_name(screen.era, language),
        rows=[_TextRow("title", say(language, "game_over"), QUESTION)],
        hint=say(language, "hint_new_game"),
        small=[_TextRow("title", say(language, "game_over"))],
    )


_QUESTION_KEYS = {
    Question.RESTART_ERA: "question_restart_era",
    Question.NEW_GAME: "question_new_game",
}


def _plan_confirm(screen: Screen, language: str) -> _Plan:
    key = _QUESTION_KEYS.get(screen.question) if screen.question is not None else None
    question = say(language, key) if key else "?"
    return _Plan(
        status=era_name(screen.era, language),
        rows=[_TextRow("question", question, QUESTION)],
        hint=say(language, "confirm_answers"),
        small=[_TextRow("question", question, inverted=True)],
        # A question over a running era does not stop its clock: keep it in sight.
        status_clock="" if screen.seconds_left is None else clock_text(screen.seconds_left),
    )


_PLANS: dict[Phase, Callable[[Screen, str], _Plan]] = {
    Phase.SETUP: _plan_setup,
    Phase.LEAD_IN: _plan_lead_in,
    Phase.RUNNING: _plan_running,
    Phase.PAUSED: _plan_paused,
    Phase.INTRO_ROUND: _plan_intro_round,
    Phase.SCHOLARS: _plan_scholars,
    Phase.SCORING: _plan_scoring,
    Phase.GAME_OVER: _plan_game_over,
    Phase.CONFIRM: _plan_confirm,
    Phase.SETTINGS: _plan_settings,
    Phase.PREPARE: _plan_prepare,
}


HOLD_BLOCKS = 6  # the NEXT+ERA hold's progress, in blocks of the hint row


def _with_prompt(plan: _Plan, screen: Screen, language: str, panel: Panel) -> _Plan:
    """Lay a prompt over the plan: where each one goes is part of the screen design."""
    if screen.hold_progress is not None and screen.question is None:
        done = round(min(1.0, max(0.0, screen.hold_progress)) * HOLD_BLOCKS)
        bar = "■" * done + "□" * (HOLD_BLOCKS - done)
        return replace(plan, hint=say(language, "hold_new_game", bar=bar), hint_inverted=True,
                       small_hint=None)
    if screen.prompt is Prompt.RESUMED:
        return replace(plan, status=say(language, "prompt_resumed"), status_inverted=True,
                       small_status=None)
    if screen.prompt is Prompt.PAUSE_HINT:
        return replace(plan, hint=say(language, "prompt_pause_hint"), hint_inverted=True,
                       small_hint=None)
    if screen.prompt is Prompt.UNDONE:
        round_ = "-" if screen.round is None else str(screen.round)
        return replace(plan, hint=say(language, "prompt_undone", round=round_),
                       hint_inverted=True,
                       small_hint=None)
    if screen.prompt is Prompt.SCHOLARS:
        prompt = _TextRow("prompt", say(language, "prompt_scholars"), QUESTION, inverted=True)
        clocks = [row for row in plan.rows if isinstance(row, _DigitsRow) and row.role == "clock"]
        if clocks:
            # "Appoint scholars!" covers the big clock; the time moves up to the status row.
            rows = [prompt if row is clocks[0] else row for row in plan.rows]
            if (sum(row.height(panel.inner) for row in rows)
                    > panel.content_bottom - panel.content_top):
                # Beside other rows (a paused clock has its title) it takes small type.
                rows = [replace(prompt, sizes=((1, 2),)) if row is prompt else row for row in rows]
            # A small panel shows the prompt alone, as a bar, where the clock was.
            small: list[_Row] = [replace(prompt, sizes=ONE_LINE)]
            return replace(plan, rows=rows, status_clock=clocks[0].text, small=small)
        return replace(plan, hint=prompt.text, hint_inverted=True,
                       small_hint=None)
    return plan


# --- placement --------------------------------------------------------------------------------


def _place_text(role: str, text: str, block: TextBlock, y: int, *, inverted: bool,
                left: int, right: int) -> TextItem:
    """A text row across x left..right-1: centred, or a bar across it all when inverted."""
    if inverted:
        box = Box(left, y, right - left, block.height + block.scale)
    else:
        box = Box(left + (right - left - block.width) // 2, y, block.width, block.height)
    return TextItem(role, text, block, box, inverted)


def _place_row(row: _Row, y: int, panel: Panel) -> list[Item]:
    width = panel.width
    if isinstance(row, _TextRow):
        return [_place_text(row.role, row.text, row.fitted(panel.inner), y,
                            inverted=row.inverted, left=0, right=width)]
    if isinstance(row, _DigitsRow):
        scale_x, scale_y = row.chosen(panel.inner)
        digits_w = big_text_width(row.text, scale_x)
        height = BIG_ROWS * scale_y
        if not row.label:
            x = (width - digits_w) // 2
            return [DigitsItem(row.role, row.text, scale_x, scale_y, Box(x, y, digits_w, height))]
        label = fit_text(row.label, panel.inner - digits_w - GAP, ONE_LINE)
        x = (width - label.width - GAP - digits_w) // 2
        # The label sits on the digits' baseline, like a unit written before a number.
        label_box = Box(x, y + height - label.height, label.width, label.height)
        digits_box = Box(x + label.width + GAP, y, digits_w, height)
        return [
            TextItem(f"{row.role}_label", row.label, label, label_box),
            DigitsItem(row.role, row.text, scale_x, scale_y, digits_box),
        ]
    return [ProgressItem(row.fraction, row.marks, Box(2, y, width - 4, row.height()))]


def _place_column(rows: Sequence[_Row], top: int, bottom: int, panel: Panel) -> list[Item]:
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
class _Marks:
    """The status marks asked for besides the screen's own (volume, quiet)."""

    no_sound: bool = False
    no_save: bool = False
    no_file: bool = False


def _place_status(plan: _Plan, screen: Screen, language: str, marks: _Marks, panel: Panel,
                  right_edge: int, status: str) -> list[Item]:
    """The status row: `status` (or a prompt) on the left, small clock, marks on the right,
    within x 0..right_edge-1 (the panel's width less its margin, or a column of it)."""
    items: list[Item] = []
    top = panel.status_top
    right = right_edge - MARGIN
    if screen.volume is not None:
        volume = say(language, "volume", percent=screen.volume)
        block = fit_text(volume, panel.width // 2, ONE_LINE)
        right -= block.width
        items.append(TextItem("volume", volume, block, Box(right, top, block.width, 8)))
        right -= GAP
    icons = ((marks.no_sound, "no_sound", NO_SOUND_ICON), (marks.no_save, "no_save", NO_SAVE_ICON),
             (marks.no_file, "no_file", NO_FILE_ICON),
             # the volume itself is shown otherwise
             (screen.quiet and screen.volume is None, "quiet", QUIET_ICON))
    for shown, role, icon in icons:
        if shown:
            icon_w, icon_h = len(icon[0]), len(icon)
            right -= icon_w
            items.append(IconItem(role, icon, Box(right, top, icon_w, icon_h)))
            right -= GAP
    hint_w = _width(plan.status_right) if plan.status_right else 0
    if hint_w and right - hint_w - GAP - MARGIN >= _width(status):  # room for both
        block = fit_text(plan.status_right, hint_w, ONE_LINE)
        right -= block.width
        items.append(TextItem("status_hint", plan.status_right, block,
                              Box(right, top, block.width, block.height)))
        right -= GAP
    if plan.status_clock:
        block = fit_text(plan.status_clock, panel.inner, ONE_LINE)
        x = min((panel.width - block.width) // 2, right - block.width)
        items.append(TextItem("status_clock", plan.status_clock, block,
                              Box(x, top, block.width, STATUS_HEIGHT)))
        right = x - GAP
    if status:
        # A lit label runs from the edge, its text keeping the margin; it has a row above too.
        block = fit_text(status, max(8, right - MARGIN), ONE_LINE)
        if plan.status_inverted:
            box = Box(0, top - 1, block.width + 2 * MARGIN, STATUS_HEIGHT + 1)
        else:
            box = Box(MARGIN, top, block.width, STATUS_HEIGHT)
        items.append(TextItem("status", status, block, box, plan.status_inverted))
    return items


def _status_width(plan: _Plan, screen: Screen, language: str, marks: _Marks,
                  status: str) -> int:
    """The width the status row needs for its text and marks (not its right-hand hint)."""
    need = _width(status) + 2 * MARGIN
    if screen.volume is not None:
        need += _width(say(language, "volume", percent=screen.volume)) + GAP
    icons = ((marks.no_sound, NO_SOUND_ICON), (marks.no_save, NO_SAVE_ICON),
             (marks.no_file, NO_FILE_ICON), (screen.quiet and screen.volume is None, QUIET_ICON))
    need += sum(len(icon[0]) + GAP for shown, icon in icons if shown)
    return need


def _place_hint(plan: _Plan, hint: str, panel: Panel, left: int, right: int) -> TextItem:
    """The hint row across x left..right-1 (a lit bar runs to the bottom edge)."""
    block = fit_text(hint, right - left - 2 * MARGIN, ONE_LINE)
    top = panel.hint_top
    if plan.hint_inverted:
        # The lit bar runs to the bottom edge; the text keeps the hint row's baseline.
        box = Box(left, top - 1, right - left, block.height + 1)
    else:
        box = Box(left + (right - left - block.width) // 2, top, block.width, block.height)
    return TextItem("hint", hint, block, box, plan.hint_inverted)


def _small_row(row: _Row, height: int) -> _Row:
    """`row` with only the text sizes that fit `height` px (the smallest if none does)."""
    if not isinstance(row, _TextRow):
        return row
    extra = 1 if row.inverted else 0
    sizes = tuple((scale, lines) for scale, lines in row.sizes
                  if LINE_PX * scale * lines + extra * scale <= height)
    return replace(row, sizes=sizes or ((1, 1),))


def _layout_small(plan: _Plan, screen: Screen, language: str, marks: _Marks,
                  panel: Panel) -> list[Item]:
    """A 128x32 panel: status, one content row, hint; or big digits with texts beside."""
    status = plan.status if plan.small_status is None else plan.small_status
    hint = plan.hint if plan.small_hint is None else plan.small_hint
    rows = plan.small if plan.small is not None else plan.rows[:1]
    digits = next((row for row in rows if isinstance(row, _DigitsRow)), None)
    if digits is not None and (plan.hint_inverted or not _fits_beside(
            digits, _status_width(plan, screen, language, marks, "") + 8, panel)):
        # A prompt in the hint row ("New game? ■■■□□□") needs the whole width, and a number
        # too wide to leave room for the status marks beside it cannot stand there: the
        # number steps back into the content row as small text.
        text = f"{digits.label} {digits.text}" if digits.label else digits.text
        rows = [_TextRow(digits.role, text) if row is digits else row for row in rows]
        digits = None
    if digits is not None:
        return _layout_beside(plan, screen, language, marks, panel, status, hint, digits,
                              [row for row in rows if row is not digits])
    items = _place_status(plan, screen, language, marks, panel, panel.width, status)
    bottom = panel.content_bottom if hint else panel.height - MARGIN
    room = bottom - panel.content_top
    shown: list[_Row] = []
    for row in rows:
        small = _small_row(row, room - sum(r.height(panel.inner) for r in shown))
        if sum(r.height(panel.inner) for r in [*shown, small]) > room:
            break
        shown.append(small)
    items.extend(_place_column(shown, panel.content_top, bottom, panel))
    if hint:
        items.append(_place_hint(plan, hint, panel, 0, panel.width))
    return items


def _fits_beside(digits: _DigitsRow, need: int, panel: Panel) -> bool:
    """Whether `digits` at their narrowest big size (2x) leave a column `need` px wide."""
    return panel.width - MARGIN - big_text_width(digits.text, 2) - GAP >= need


def _layout_beside(plan: _Plan, screen: Screen, language: str, marks: _Marks, panel: Panel,
                   status: str, hint: str, digits: _DigitsRow, others: list[_Row]) -> list[Item]:
    """Big digits at the right, full height; status, one middle row and the hint at the left.

    The digits take the widest of 4x, 3x, 2x that leaves the left column room for its texts;
    at 2x the texts are abbreviated if they must be.
    """
    middle = others[0] if others else None
    if middle is None and digits.label:
        middle = _TextRow(f"{digits.role}_label", digits.label)
    needs = [_status_width(plan, screen, language, marks, status)]
    if hint:
        needs.append(_width(hint) + 2 * MARGIN)
    if isinstance(middle, _TextRow):
        needs.append(_width(middle.text) + 2 * MARGIN)
    scale_y = (panel.height - 2 * MARGIN) // BIG_ROWS
    for scale_x in (4, 3, 2):
        digits_w = big_text_width(digits.text, scale_x)
        column = panel.width - MARGIN - digits_w - GAP  # x 0..column-1 is the left column
        if max(needs) <= column:
            break
    x = panel.width - MARGIN - digits_w
    items = _place_status(replace(plan, status_clock=""), screen, language, marks, panel,
                          column, status)
    if isinstance(middle, _TextRow):
        block = fit_text(middle.text, column - 2 * MARGIN, ONE_LINE)
        top = panel.content_top + (panel.content_bottom - panel.content_top
                                   - block.height - (1 if middle.inverted else 0) + 1) // 2
        if middle.inverted:  # a lit label: a bar as wide as its text plus the margins
            items.append(TextItem(middle.role, middle.text, block,
                                  Box(0, top, block.width + 2 * MARGIN, block.height + 1), True))
        else:
            items.append(_place_text(middle.role, middle.text, block, top, inverted=False,
                                     left=0, right=column))
    elif isinstance(middle, _ProgressRow):
        items.append(ProgressItem(middle.fraction, middle.marks,
                                  Box(MARGIN, panel.content_top, column - 2 * MARGIN,
                                      middle.height())))
    if hint:
        items.append(_place_hint(plan, hint, panel, 0, column))
    items.append(DigitsItem(digits.role, digits.text, scale_x, scale_y,
                            Box(x, MARGIN, digits_w, BIG_ROWS * scale_y)))
    return items


def layout(screen: Screen, *, language: str = "en", no_sound: bool = False,
           no_save: bool = False, no_file: bool = False, panel: Panel | None = None) -> Layout:
    """Decide what `screen` shows and where, in `language` ("en" or "ja"), on `panel` (default:
    the config's default panel, 128x64).

    Raises `ValueError` for an unknown language; any screen model is laid out.
    """
    check_language(language)
    panel = panel or Panel()
    marks = _Marks(no_sound, no_save, no_file)
    plan = _with_prompt(_PLANS[screen.kind](screen, language), screen, language, panel)
    if panel.compact:
        return Layout(tuple(_layout_small(plan, screen, language, marks, panel)))
    items = _place_status(plan, screen, language, marks, panel, panel.width, plan.status)
    items.extend(_place_column(plan.rows, panel.content_top, panel.content_bottom, panel))
    if plan.hint:
        items.append(_place_hint(plan, plan.hint, panel, 0, panel.width))
    return Layout(tuple(items))


# --- painting ---------------------------------------------------------------------------------


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
           panel: Panel | None = None) -> Image.Image:
    """Draw `screen` as a new mode "1" image (lit pixels = 1) the size of `panel` (default: the
    config's default panel, 128x64), in `language`.

    `no_sound` adds the no-sound mark to the status row (the box runs without audio);
    `no_save` the cannot-save mark (the state file cannot be written: the log says why);
    `no_file` the missing-sound-file mark (a configured sound file cannot be read).
    Raises `ValueError` for an unknown language; every screen model renders.
    """
    panel = panel or Panel()
    image = Image.new("1", panel.size, 0)
    draw = ImageDraw.Draw(image)
    for item in layout(screen, language=language, no_sound=no_sound, no_save=no_save,
                       no_file=no_file, panel=panel).items:
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
