"""What each kind of screen shows, before anything is placed: a `Plan` per screen.

A plan names the status row's text, the content rows from top to bottom (text in the sizes it
may take, big digits, the progress bar), the hint row, and what a 128x32 panel shows instead
(`Plan.small`: the row that matters most, or a short form of it). `make_plan(screen, language,
panel)` picks the plan of the screen's kind and lays any prompt over it ("Resumed", "Appoint
scholars!", the NEXT+ERA hold's progress). Pure: `erabox.ui.layout` places it,
`erabox.ui.render` paints it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from erabox.core import settings as settings_menu
from erabox.core.model import Mode, Phase, Prompt, Question, Screen

from .glyphs import BIG_ROWS, big_text_width
from .guide_pages import guide_pages, guide_text
from .menu_words import menu_label, menu_note, menu_value, small_menu_note
from .panel import Panel
from .strings import (
    SCORING_STEPS,
    clock_text,
    colour_name,
    era_name,
    say,
)
from .text import LINE_PX, TextBlock, drawable, fit_text, text_width

GAP = 3  # px between items side by side (label and digits, status marks)


def line_width(text: str) -> int:
    """Width in pixels of one line of `text` as drawn (a character the font lacks is "?")."""
    return text_width(drawable(text))


# (scale, max_lines) choices for a text row, tried in order.
Sizes = tuple[tuple[int, int], ...]
ONE_LINE: Sizes = ((1, 1),)
TITLE: Sizes = ((2, 1), (1, 1))
EMPHASIS: Sizes = ((2, 1), (1, 2))
QUESTION: Sizes = ((2, 2), (1, 3))


# --- content rows (before placement) ----------------------------------------------------------


@dataclass(frozen=True)
class TextRow:
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
class DigitsRow:
    role: str
    text: str
    scales: tuple[tuple[int, int], ...]  # (x, y) scales, tried until the row fits the width
    label: str = ""  # small text left of the digits ("Round")
    under: str = ""  # small text under the label, on the digits' baseline ("= 6")

    def chosen(self, width: int) -> tuple[int, int]:
        label_w = (max(line_width(self.label), line_width(self.under)) + GAP
                   if self.label else 0)
        for scale_x, scale_y in self.scales:
            if label_w + big_text_width(self.text, scale_x) <= width:
                return scale_x, scale_y
        return self.scales[-1]

    def height(self, width: int) -> int:
        return BIG_ROWS * self.chosen(width)[1]


@dataclass(frozen=True)
class ProgressRow:
    fraction: float
    marks: tuple[float, ...]

    def height(self, width: int = 0) -> int:
        return 11  # 2 px of cue marks above and below a 7 px bar


@dataclass(frozen=True)
class PairRow:
    """Two texts side by side, each left in its half of the width: a list of places too long
    for a row each (past five, on 128x64) in two columns."""

    role: str
    texts: tuple[str, str]

    def height(self, width: int = 0) -> int:
        return LINE_PX


Row = TextRow | DigitsRow | ProgressRow | PairRow


@dataclass
class Plan:
    """What a kind of screen wants shown, before overlays and placement."""

    status: str  # left of the status row
    rows: list[Row]
    hint: str = ""
    hint_inverted: bool = False
    status_inverted: bool = False
    status_clock: str = ""  # small clock in the status row, when the big one is not shown
    status_right: str = ""  # a short hint at the right of the status row
    keep_right: bool = False  # the hint kept, the status abbreviated, where both do not fit
    # On a 128x32 panel: the rows shown (None: the first of `rows`; a big-digits row among
    # them puts the digits at the right) and the status text (None: `status`).
    small: list[Row] | None = None
    small_status: str | None = None
    small_hint: str | None = None  # None: `hint`; "": none (the content takes its row)


# --- what each kind of screen shows -----------------------------------------------------------


def _plan_setup(screen: Screen, language: str) -> Plan:
    era = era_name(screen.era, language)
    if screen.mode is Mode.INTRO:
        mode = say(language, "mode_intro", rounds=screen.rounds)
    else:
        mode = say(language, "mode_realtime", length=clock_text(screen.length_s))
    return Plan(
        status=say(language, "new_game" if screen.new_game else "setup"),
        rows=[
            TextRow("title", era, TITLE),
            TextRow("mode", mode, EMPHASIS, inverted=True),
            TextRow("hint_next", say(language, "hint_toggle_mode")),
        ],
        hint=say(language, "hint_start_era", era=era),
        # Only before Era I: the settings (players, language, ...) open from here.
        status_right=say(language, "hint_open_settings") if screen.new_game else "",
        # The era is named by the hint ("ERA: start Era I").
        small=[TextRow("mode", mode, inverted=True)],
    )


def _plan_settings(screen: Screen, language: str) -> Plan:
    item = screen.menu_item or "done"
    position = screen.menu_position
    # The position goes with the item, so the status row keeps room for how to leave.
    status = say(language, "settings")
    found = settings_menu.find(item)
    value = screen.menu_value or ""
    label, note = item, ""  # an item this box does not know (a snapshot from another version)
    if found is not None:
        row, number = found
        label, note = menu_label(row, number, language), row.note
        value = menu_value(row, value, language, screen.menu_names)
    note_text = say(language, note) if note else ""
    if screen.menu_note:
        note_text = menu_note(screen.menu_note, language)
    numbered = label if position is None else f"{position[0]}/{position[1]} {label}"
    rows: list[Row] = [TextRow("label", numbered), TextRow("value", value, EMPHASIS,
                                                           inverted=True)]
    if note_text:
        rows.append(TextRow("note", note_text))
    # What ERA does here: change the value, or (the last two items) restore or leave.
    hint = {"done": "hint_menu_done", "defaults": "hint_menu_defaults"}.get(item, "hint_menu")
    if screen.menu_note == "defaults_ask":  # a second ERA press restores; NEXT keeps them
        hint = "hint_menu_defaults_ask"
    # A game that cannot be played: the hint says what to change instead.
    hint = {"game_players": "hint_game_players", "game_broken": "hint_game_broken"}.get(
        (screen.menu_note or "").partition(":")[0], hint)
    return Plan(
        status=status,
        rows=rows,
        hint=say(language, hint),
        status_right=say(language, "hint_back"),  # every settings screen: how to leave
        # Small panel: the item in the status row ("1/17 Players"), its value in the bar (or
        # a note that says what just happened: "defaults restored").
        small=[TextRow("note", small_menu_note(screen.menu_note, value, language),
                       inverted=True)
               if screen.menu_note else TextRow("value", value, inverted=True)],
        small_status=numbered,
    )


def _plan_lead_in(screen: Screen, language: str) -> Plan:
    label, digits = lead_in_rows(screen.countdown, language)
    return Plan(status=era_name(screen.era, language), rows=[label, digits],
                hint=say(language, "hint_back"), small=[digits, label])


def _plan_running(screen: Screen, language: str) -> Plan:
    rows = running_rows(screen.seconds_left, progress_row(
        screen.length_s, screen.elapsed, screen.seconds_left, screen.cue_marks))
    return Plan(status=era_name(screen.era, language), rows=rows,
                hint=say(language, "action_phase"), small=list(rows))


def _plan_paused(screen: Screen, language: str) -> Plan:
    title, clock = paused_rows(say(language, "paused"), screen.seconds_left)
    return Plan(
        status=era_name(screen.era, language),
        rows=[title, clock],
        hint=say(language, "hint_hall_held" if screen.hall_held else "hint_resume"),
        # Small panel: "Paused" left, between the era and the hint; the clock at the right.
        small=[clock, replace(title, inverted=True)],
    )


# --- a countdown's rows: Time of Empires' and every game's (`round_plans`) --------------------


def lead_in_rows(seconds: int | None, language: str) -> tuple[TextRow, DigitsRow]:
    """"Start gong in" over the seconds to it, big."""
    countdown = "-" if seconds is None else str(max(0, seconds))
    return (TextRow("label", say(language, "lead_in")),
            DigitsRow("countdown", countdown, ((5, 4), (4, 4), (3, 4), (2, 4), (1, 4))))


def running_rows(left: float | None, progress: ProgressRow) -> list[Row]:
    """The seconds left, big, over the progress bar."""
    return [DigitsRow("clock", clock_text(left), ((4, 4), (3, 4), (2, 4), (1, 4))), progress]


def paused_rows(said: str, left: float | None) -> tuple[TextRow, DigitsRow]:
    """`said` ("Paused") over the held clock, smaller than the running one: the word is what
    must be seen first."""
    return (TextRow("title", said, TITLE),
            DigitsRow("clock", clock_text(left), ((3, 3), (2, 3), (1, 3))))


def progress_row(length: float | None, run: float | None, left: float | None,
                 calls: tuple[float, ...]) -> ProgressRow:
    """How far a clock of `length` s has run (`run` whole seconds, else from `left`), and its
    calls' marks, as fractions of the length."""
    length = length if length and length > 0 else 1.0
    done = run / length if run is not None else (
        (length - left) / length if left is not None else 0.0)
    marks = tuple(at / length for at in calls if 0 < at < length)
    return ProgressRow(min(1.0, max(0.0, done)), marks)


def _plan_intro_round(screen: Screen, language: str) -> Plan:
    current = "-" if screen.round is None else str(screen.round)
    rows: list[Row] = [
        DigitsRow(
            "round",
            f"{current}/{screen.rounds}",
            ((3, 4), (2, 4), (2, 3), (1, 3)),
            label=say(language, "round"),
        )
    ]
    small = list(rows)
    if screen.start_player is not None:
        colour = colour_name(screen.start_player, language)
        rows.append(TextRow("start_player", say(language, "start_player", colour=colour)))
        small.append(TextRow("start_player", say(language, "start_player_short",
                                                  colour=colour)))
    last = screen.round is not None and screen.round >= screen.rounds
    can_undo = screen.round is not None and screen.round > 1
    key = "hint_end_era" if last else "hint_next_round"  # the last round's NEXT ends the era
    return Plan(
        status=era_name(screen.era, language),
        rows=rows,
        hint=say(language, key + ("_undo" if can_undo else "")),
        # Small panel: the hold to undo is left unsaid (NEXT is what the round needs).
        small=small,
        small_hint=say(language, key),
    )


def _plan_scholars(screen: Screen, language: str) -> Plan:
    last = TextRow("pass_left", say(language, "scholars_pass"))
    rows: list[Row] = [TextRow("title", say(language, "scholars_title"), EMPHASIS), last]
    if screen.start_player is not None:
        colour = colour_name(screen.start_player, language)
        last = TextRow("next_start", say(language, "scholars_next", colour=colour), EMPHASIS)
        rows.append(last)
    return Plan(
        status=era_name(screen.era, language),
        rows=rows,
        hint=say(language, "hint_resume_game"),
        # Small panel: "Appoint scholars" in the status row, who starts next below it.
        small=[replace(last, sizes=ONE_LINE)],
        small_status=say(language, "scholars_title"),
    )


def _plan_prepare(screen: Screen, language: str) -> Plan:
    """One step of the preparation guide: its text, as large as it fits (on 128x32 two
    lines a page, `make_plan` picks the page: `guide_pages`)."""
    era = era_name(screen.era, language)
    step, steps = screen.guide_position or (1, 1)
    text = guide_text(screen, language)
    status = "game_setup_status" if screen.guide_part == "game" else "guide_status"
    mode = say(language, "value_intro" if screen.mode is Mode.INTRO else "value_realtime")
    return Plan(
        status=say(language, status, era=era, step=step, steps=steps),
        rows=[TextRow("guide", text, ((1, 4),)),
              TextRow("start", say(language, "guide_start", era=era, mode=mode))],
        hint=say(language, "hint_guide_skip"),
        # Small panel: the step's text takes the hint's row too; the buttons are the same
        # on every step (NEXT: next, ERA: start).
        small=[TextRow("guide", text, ((1, 2),))],
        small_hint="",
    )


def _short_colour(colour: str, language: str) -> str:
    """A colour in a row of totals: the Japanese character, or three letters."""
    name = colour_name(colour, language)
    return name if language == "ja" else name[:3].capitalize()


def _totals_row(screen: Screen, language: str) -> TextRow:
    """Running totals, "Red 12  Blu 9": a space between colour and points where it fits."""
    width = Panel(height=32).inner  # panels differ in height only
    for text in (
        "  ".join(f"{_short_colour(c, language)} {t}" for c, t in screen.totals),
        " ".join(f"{_short_colour(c, language)} {t}" for c, t in screen.totals),
        " ".join(f"{_short_colour(c, language)}{t}" for c, t in screen.totals),
    ):
        if line_width(text) <= width:
            break
    return TextRow("totals", text)


def _short_places_row(screen: Screen, language: str) -> TextRow:
    """The ranking on one line ("1.Gre123 2.Red123 3.Blu98 4.Yel7"), for a small panel;
    without the places when that is too wide (the order is the ranking)."""
    width = Panel(height=32).inner  # panels differ in height only
    text = " ".join(f"{place}.{_short_colour(colour, language)}{total}"
                    for place, colour, total, _ in screen.places)
    if line_width(text) > width:
        text = " ".join(f"{_short_colour(colour, language)}{total}"
                        for _, colour, total, _ in screen.places)
    return TextRow("places", text)


def _place_rows(screen: Screen, language: str) -> list[Row]:
    rows: list[Row] = []
    for place, colour, total, built in screen.places:
        name = colour_name(colour, language)
        if built is None:
            line = say(language, "place_line", place=place, colour=name, total=total)
        else:
            line = say(language, "place_buildings", place=place, colour=name, total=total,
                       n=built)
        rows.append(TextRow(f"place{len(rows) + 1}", line))
    return rows


def _step_text(screen: Screen, language: str) -> str:
    index = min(len(SCORING_STEPS) - 1, max(0, screen.scoring_step or 0))
    return say(language, "scoring_step", step=index + 1, steps=len(SCORING_STEPS),
               text=say(language, SCORING_STEPS[index]))


def _plan_entry(screen: Screen, language: str) -> Plan:
    """Victory points being entered: the step, the player and the number, running totals.
    Every screen says what NEXT and ERA do on it."""
    era = era_name(screen.era, language)
    after = (say(language, "hint_final_ranking") if screen.era >= screen.eras
             else say(language, "hint_prepare_era", era=era_name(screen.era + 1, language)))
    if screen.entry == "standings":
        return Plan(status=say(language, "standings_title", era=era),
                     rows=_place_rows(screen, language), hint=after,
                     small=[_short_places_row(screen, language)])
    if screen.entry == "shown":
        no_points = TextRow("no_points", say(language, "no_points"))
        # One text size for every step, asked or shown, so the steps read alike.
        return Plan(status=era, rows=[TextRow("step", _step_text(screen, language), ((1, 2),)),
                                       no_points, _totals_row(screen, language)],
                     hint=say(language, "hint_go_on"), status_right=say(language, "hint_undo"),
                     small=[no_points], small_status=_step_text(screen, language))
    if screen.entry == "buildings":
        title = say(language, "tie_title")
    elif screen.era_total:
        title = say(language, "era_total_title", era=era)
    elif screen.value_vp is not None:  # destruction: buildings, shown in VP
        title = say(language, "destruction_title", step=_step_text(screen, language),
                    n=screen.value_vp, k=screen.value_times or 1)
    else:
        title = _step_text(screen, language)
    player = colour_name(screen.player or "?", language)
    value = DigitsRow("value", str(screen.value or 0), ((3, 3), (2, 3), (1, 3)), label=player)
    rows: list[Row] = [TextRow("step", title, ((1, 2),)), value]
    if screen.entry == "points":
        rows.append(_totals_row(screen, language))
    # While NEXT is held: what letting go adds, lit (the ramp grows as the hold goes on).
    ramp = screen.ramp is not None
    hint = say(language, "hint_ramp", n=screen.ramp) if ramp else say(language, "hint_points")
    # Small panel: the step in the status row, the player left of the big number.
    return Plan(status=era, rows=rows, hint=hint, hint_inverted=ramp,
                 status_right=say(language, "hint_confirm_undo"),
                 small=[value, TextRow("player", player)], small_status=title)


def _plan_scoring(screen: Screen, language: str) -> Plan:
    if screen.entry is not None:
        return _plan_entry(screen, language)
    era = era_name(screen.era, language)
    if screen.scoring_step is None:  # score kept on paper: the era is over, ERA goes on
        over = TextRow("title", say(language, "era_over", era=era), ((1, 2),))
        return Plan(status=era, rows=[over, TextRow("paper", say(language, "score_on_paper"))],
                     hint=say(language, "hint_final_scoring") if screen.era >= screen.eras
                     else say(language, "hint_prepare_era",
                              era=era_name(screen.era + 1, language)),
                     small=[replace(over, sizes=ONE_LINE)])
    title = TextRow("title", say(language, "scoring_title", era=era), ((1, 2),))
    rows: list[Row] = [title]
    small: list[Row] = [replace(title, sizes=ONE_LINE)]
    done = screen.scoring_step is not None and screen.scoring_step >= len(SCORING_STEPS)
    if done:  # after 6/6: done, not round again to 1/6
        step_row = TextRow("step", say(language, "scoring_done"), ((1, 2),), inverted=True)
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
        step_row = TextRow("step", step, ((1, 2),))
        rows.append(step_row)
        small = [replace(step_row, sizes=ONE_LINE)]
    if not done:
        rows.append(TextRow("hint_next", say(language, "hint_next_step")))
    if screen.era >= screen.eras:
        hint = say(language, "hint_final_scoring")
    else:
        hint = say(language, "hint_prepare_era", era=era_name(screen.era + 1, language))
    # Small panel: the title in the status row, the step (or "done") below it.
    return Plan(status=era, rows=rows, hint=hint, small=small,
                 small_status=None if len(rows) == 1 else title.text)


def _plan_game_over(screen: Screen, language: str) -> Plan:
    if screen.places:
        first = [colour for place, colour, _, _ in screen.places if place == 1]
        title = (say(language, "winner", colour=colour_name(first[0], language))
                 if len(first) == 1 else say(language, "shared_victory"))
        return Plan(
            status=say(language, "final_ranking"),
            rows=[TextRow("title", title, inverted=True), *_place_rows(screen, language)],
            hint=say(language, "hint_new_game"),
            # Small panel: who won in the status row, the ranking on one line below.
            small=[_short_places_row(screen, language)],
            small_status=title,
        )
    return Plan(
        status=era_name(screen.era, language),
        rows=[TextRow("title", say(language, "game_over"), QUESTION)],
        hint=say(language, "hint_new_game"),
        small=[TextRow("title", say(language, "game_over"))],
    )


def _plan_confirm(screen: Screen, language: str) -> Plan:
    # A question over a running era does not stop its clock: keep it in sight.
    return question_plan(era_name(screen.era, language), screen.question, language,
                         screen.seconds_left)


_QUESTIONS = frozenset(asked.value for asked in Question)


def question_plan(status: str, question: str | None, language: str,
                  left: float | None = None) -> Plan:
    """A question the box asks ("new_game", "restart_era"), in every game: `status` in the
    status row, the question big, the answers under it; `left`: the seconds of a clock that
    runs on under the question, kept in sight in the status row."""
    said = say(language, f"question_{question}") if question in _QUESTIONS else "?"
    return Plan(
        status=status,
        rows=[TextRow("question", said, QUESTION)],
        hint=say(language, "confirm_answers"),
        small=[TextRow("question", said, inverted=True)],
        status_clock="" if left is None else clock_text(left),
    )


PLANS: dict[Phase, Callable[[Screen, str], Plan]] = {
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


def with_prompt(plan: Plan, screen: Screen, language: str, panel: Panel) -> Plan:
    """Lay a prompt over the plan: where each one goes is part of the screen design."""
    if screen.hold_progress is not None and screen.question is None:
        return holding(plan, screen.hold_progress, language)
    if screen.prompt is Prompt.RESUMED:
        return resumed(plan, language)
    if screen.prompt is Prompt.PAUSE_HINT:
        return replace(plan, hint=say(language, "prompt_pause_hint"), hint_inverted=True,
                       small_hint=None)
    if screen.prompt is Prompt.UNDONE:
        round_ = "-" if screen.round is None else str(screen.round)
        return replace(plan, hint=say(language, "prompt_undone", round=round_),
                       hint_inverted=True, small_hint=None)
    if screen.prompt is Prompt.SCHOLARS:
        # A timed call's own text (the game's profile) or the box's "Appoint scholars!".
        text = (say(language, "prompt_scholars") if screen.prompt_text is None
                else screen.prompt_text[1 if language == "ja" else 0])
        return called(plan, text, panel)
    return plan


def resumed(plan: Plan, language: str) -> Plan:
    """"Resumed" lit in the status row, for a moment after a pause or a power cut."""
    return replace(plan, status=say(language, "prompt_resumed"), status_inverted=True,
                   small_status=None)


def holding(plan: Plan, held: float, language: str) -> Plan:
    """The hint row as a lit "New game? ■■■□□□", filled as far as NEXT+ERA are held (0..1)."""
    done = round(min(1.0, max(0.0, held)) * HOLD_BLOCKS)
    bar = "■" * done + "□" * (HOLD_BLOCKS - done)
    return replace(plan, hint=say(language, "hold_new_game", bar=bar), hint_inverted=True,
                   small_hint=None)


def called(plan: Plan, text: str, panel: Panel) -> Plan:
    """A timed call's prompt over the plan: over its big clock (the time moves up to the status
    row), else lit in the hint row."""
    prompt = TextRow("prompt", text, QUESTION, inverted=True)
    clocks = [row for row in plan.rows if isinstance(row, DigitsRow) and row.role == "clock"]
    if not clocks:
        return replace(plan, hint=prompt.text, hint_inverted=True, small_hint=None)
    rows = [prompt if row is clocks[0] else row for row in plan.rows]
    if sum(row.height(panel.inner) for row in rows) > panel.content_bottom - panel.content_top:
        # Beside other rows (a paused clock has its title) it takes small type.
        rows = [replace(prompt, sizes=((1, 2),)) if row is prompt else row for row in rows]
    # A small panel shows the prompt alone, as a bar, where the clock was.
    small: list[Row] = [replace(prompt, sizes=ONE_LINE)]
    return replace(plan, rows=rows, status_clock=clocks[0].text, small=small)


def make_plan(screen: Screen, language: str, panel: Panel, turn: int = 0) -> Plan:
    """What `screen` shows in `language` on `panel`, its prompt laid over it; `turn`: the
    page it has turned to on its own (a long guide step on 128x32, `guide_pages`)."""
    plan = PLANS[screen.kind](screen, language)
    if screen.kind is Phase.PREPARE and panel.compact:
        shown = guide_pages(guide_text(screen, language), panel)
        plan = replace(plan, small=[TextRow("guide", line) for line in
                                    shown[turn % len(shown)]])
    return with_prompt(plan, screen, language, panel)
