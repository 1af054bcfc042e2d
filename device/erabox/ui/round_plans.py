"""A round game's screens (`PlayScreen`) as `Plan`s for `layout.layout_plan`, in Time of
Empires' rows (`planned`): its countdown and its questions are Time of Empires' own screens;
its setup (and a step of the guide walked there), a step of a round, its points entry, its
standings after an era and its final ranking are laid out as Time of Empires' are, centred.

**The countdown.** A phase with a countdown (`timer_s`) and one step is, while its clock is
set, the running clock of the box's own game: the round (or era and round) in the status row
and the phase's name at its right (where both fit), the seconds left in big digits over the
progress bar with a mark at each of the phase's calls. Its lead-in shows the seconds to the
start gong big; held, "Paused" (or "Waiting for the hall") over a smaller clock; a call's
words stand lit over the clock for a while, the time moving up to the status row ("Appoint
scholars!" in Time of Empires). The hint row says what a press does there, as the step
screen's does (`screen_parts.hint_key`: "Until the gong  hold NEXT: undo", "ERA: resume
...", a hall's start). On 128x32 the digits stand at the right, full height, as Time of
Empires' do.

The rows and their sizes are Time of Empires' own (`plans.lead_in_rows`, `running_rows`,
`paused_rows`, `progress_row`), placed by the same `layout`, so a countdown looks the same in
every game. A phase of several steps keeps its step screen (`step_plan`, the countdown small
in its status row): the step is what the table reads there.

**A question** ("New game?", "Restart this era?"): Time of Empires' question screen, the game
(or its era) in the status row, the question big in the middle (lit, on 128x32), "ERA: yes /
NEXT: no" under it; a countdown running under the question stays in sight in the status row.

**A number being entered** (`scoring_plan`): Time of Empires' points entry, the category over
the player and the number in big digits, what it is worth under the player; on 128x32 the
number at the right, full height, as Time of Empires' is.

**The standings** (`standings_plan`): Time of Empires' standings, the era's name in the status
row, a row each centred (`place_rows`; past five in two columns, `PairRow`).

**The final ranking** (`ranking_plan`): "Final ranking" over the verdict lit and the places,
as Time of Empires' (past four places the verdict in the status row). A ranking whose places
say what decided them (`explained_plan`): the verdict in the status row, a place a row with its
reasons wrapped under it, as many whole places as five lines hold a page.

**A step of a round** (`step_plan`): the round, who starts and a countdown (small, in the
middle: a phase of several steps keeps its step screen) in the status row; the phase, the
step, its place and whose turn; on 128x32 the step a line a page, the footer's pages
(`compact.step_footers`) in the last row.

**A step of the guide walked at a setup** (`walk_plan`): Time of Empires' preparation guide,
its part and place in the status row, the step centred, what ERA starts under it.

**The setup** (`setup_plan`, `chosen_plan`): Time of Empires' setup, its rows centred: the
variant and the players, the notes in pages; the way to the notes kept whole in the status row
(`Plan.keep_right`).

Pure, like `plans`.
"""

from __future__ import annotations

import math
from dataclasses import replace

from erabox.core.effects import PlayScreen

from .compact import MORE, footer_parts, scoring_title_lines, step_footers, timer_text
from .game_words import word
from .layout import Layout, StatusMarks, layout_plan
from .panel import Panel
from .plans import (
    ONE_LINE,
    DigitsRow,
    PairRow,
    Plan,
    Row,
    TextRow,
    called,
    holding,
    lead_in_rows,
    paused_rows,
    progress_row,
    question_plan,
    resumed,
    running_rows,
)
from .screen_parts import (
    GAP,
    PRESS_ONLY,
    ROWS_OF_PLACES,
    STEP_KINDS,
    UNDO,
    Marks,
    _colour,
    _era_text,
    _label,
    _round_text,
    hint_key,
    line_pages,
)
from .strings import say
from .text import drawable, text_width, wrap


def planned_pages(screen: PlayScreen, panel: Panel, language: str) -> int:
    """How many pages `screen` turns through on its own on `panel`: the
    setup two (its hint row, then the settings'); on 128x32 a step (or a call) too long for
    its line its lines, with its hint row's pages (`math.lcm`), a step walked at a setup its
    lines, a number's category too long for its line its lines; else 1."""
    if screen.kind == "setup" and not screen.guide:
        return 2
    if not panel.compact or is_clock(screen):
        return 1
    if screen.guide:
        return len(step_lines(_label(screen.text, language), panel))
    if screen.kind in STEP_KINDS:
        shown = screen.text if screen.call is None else screen.call
        lines = len(step_lines(_label(shown, language), panel))
        return math.lcm(lines, len(step_footers_of(screen, panel, language)))
    if screen.kind == "scoring" and not screen.shown:
        return len(scoring_title_lines(screen, language, panel))
    return 1


def planned_layout(screen: PlayScreen, panel: Panel, language: str,
                   marks: Marks) -> Layout:
    """`screen` placed on `panel` with the box's `marks`."""
    plan = planned(screen, language, panel, marks.hold_progress, marks.turn)
    return layout_plan(plan, language, StatusMarks(marks.no_sound, marks.no_save,
                                                   marks.no_file), panel)


def planned(screen: PlayScreen, language: str, panel: Panel,
            held: float | None = None, turn: int = 0) -> Plan:
    """The plan of `screen`; `held`: how far NEXT and ERA are held toward
    "New game?" (0..1), None while they are not; `turn`: the page it has turned to on its own
    (`planned_pages`)."""
    if screen.kind == "confirm":
        return confirm_plan(screen, language)
    if is_clock(screen):
        return clock_plan(screen, language, panel, held)
    if screen.guide:
        plan = walk_plan(screen, language, panel, turn)
    elif screen.kind in ("setup", "era_setup"):
        plan = setup_plan(screen, language, panel, turn)
    elif screen.kind == "scoring":
        plan = scoring_plan(screen, language, panel, turn)
    elif screen.kind == "standings":
        plan = standings_plan(screen, language, panel)
    elif screen.kind == "game_over" and explained(screen):
        plan = explained_plan(screen, language, panel)
    elif screen.kind == "game_over":
        plan = ranking_plan(screen, language, panel)
    else:  # a step of a round, a special round, an event
        plan = step_plan(screen, language, panel, turn)
    if held is not None:
        return holding(plan, held, language)
    if screen.prompt is not None and screen.prompt.value == "resumed":
        return resumed(plan, language)
    return plan


def confirm_plan(screen: PlayScreen, language: str) -> Plan:
    """A question the box asks (`PlayScreen.question`: "new_game", "restart_era")."""
    status = _era_text(screen, language) or _label(screen.game, language)
    return question_plan(status, screen.question, language, screen.timer_left)


def is_clock(screen: PlayScreen) -> bool:
    """Whether `screen` is drawn as the clock: a countdown set on a phase of one step."""
    return (screen.kind in STEP_KINDS and not screen.guide and screen.timer_left is not None
            and (screen.position is None or screen.position[1] <= 1))


def clock_plan(screen: PlayScreen, language: str, panel: Panel,
               held: float | None = None) -> Plan:
    """The plan of a clock screen (`is_clock`) in `language` on `panel`; `held`: how far NEXT
    and ERA are held toward "New game?" (0..1), None while they are not."""
    status = _round_text(screen, language)
    name = _label(screen.title, language)  # the phase, at the status row's right where it fits
    key = hint_key(screen)
    hint = word(language, key)  # what a press does here, as on the step screen
    if screen.paused:  # held (its lead-in too: at its full time), or waiting for the hall
        title, clock = paused_rows(word(language, "hall_start" if screen.hall_start
                                        else "paused"), screen.timer_left)
        short = PRESS_ONLY.get(key)  # 128x32's column beside the clock: the press alone
        plan = Plan(status=status, rows=[title, clock], hint=hint,
                    small=[clock, replace(title, inverted=True)],
                    small_hint=None if short is None else word(language, short))
    elif screen.lead_in is not None:
        label, digits = lead_in_rows(screen.lead_in, language)
        plan = Plan(status=status, rows=[label, digits], hint=hint, small=[digits, label])
    else:
        rows = running_rows(screen.timer_left, progress_row(
            screen.timer_s, screen.timer_run, screen.timer_left, screen.timer_marks))
        plan = Plan(status=status, rows=rows, hint=hint, small=list(rows))
    plan = replace(plan, status_right=name)
    if held is not None:
        return holding(plan, held, language)
    if screen.call is not None:
        return called(plan, screen.call.text(language), panel)
    if screen.prompt is not None and screen.prompt.value == "resumed":
        return resumed(plan, language)
    return plan


def scoring_plan(screen: PlayScreen, language: str, panel: Panel, turn: int = 0) -> Plan:
    """A number being entered for a player, as Time of Empires' points entry: where the
    category stands ("Points 2/5", "+" where more may be asked) in the status row, the
    category, the player beside the number in big digits, what it is worth ("= 6"); on 128x32
    the number at the right, full height, the category a line a page in the status row
    (`compact.scoring_title_lines`), the player and the worth beside it, the position (or
    the minus gesture) in the hint row. A category that gives no points (`shown`): its name
    and "No points", NEXT goes on."""
    n, count = screen.position or (1, 1)
    position = word(language, "points", n=n, count=f"{count}+" if screen.more else count)
    title = _label(screen.title, language)
    if screen.shown:
        no_points = TextRow("worth", say(language, "no_points"))
        return Plan(status=position, rows=[TextRow("title", title, ((1, 2),)), no_points],
                    hint=word(language, "hint_step_hold"), small=[no_points],
                    small_status=title)
    value = str(screen.value or 0)
    worth = word(language, "worth", points=screen.points or 0)
    player = _colour(screen.player, language)
    if screen.listed is not None:  # an `each` category: which of the list, the sum so far
        worth = word(language, "worth_listed", points=screen.points or 0,
                     sum=sum(screen.listed) + (screen.points or 0))
        player = word(language, "listed", colour=player, n=len(screen.listed) + 1)
    ramp = screen.ramp is not None  # NEXT held at the era total: what letting go adds
    hint = (say(language, "hint_ramp", n=screen.ramp) if ramp else
            word(language, "hint_minus" if screen.minus else "hint_scoring"))
    digits = DigitsRow("value", value, ((3, 3), (2, 3), (1, 3)), label=player)
    if panel.compact:
        name = page_of(scoring_title_lines(screen, language, panel), turn)  # a line a page
        small_hint = (hint if ramp else f"{n}/{count}{'+' if screen.more else ''} "
                      f"{word(language, 'minus')}" if screen.minus else position)
        return Plan(status=position, rows=[digits], hint=hint, hint_inverted=ramp,
                    small=[replace(digits, under=worth),  # stepped back: "red 3 = 6"
                           TextRow("player", f"{player} {worth}")],
                    small_status=name, small_hint=small_hint)
    if screen.checklist:  # the era total: what it adds up
        title += ": " + word(language, "and").join(_label(c, language)
                                                    for c in screen.checklist)
    # ERA held clears the number (on 0: back to the one before); the minus hint says its own
    return Plan(status=position, rows=[TextRow("title", title, ((1, 2),)),
                                       replace(digits, under=worth)],
                hint=hint, hint_inverted=ramp,
                status_right="" if screen.minus else say(language, "hint_undo"))


def standings_plan(screen: PlayScreen, language: str, panel: Panel) -> Plan:
    """After an era, as Time of Empires' standings: "Act I standings" in the status row, each
    player's place by the total so far, the era's points and the total ("1 red +6 = 14"), a
    line each (past five in two columns), who starts next where a row is left; on 128x32 as
    many places as fit the row, NEXT showing the next of them. ERA: the next era (or the
    tie-break, or the ranking)."""
    status = word(language, "standings", era=_era_text(screen, language))
    lines = [word(language, "standing", place=place, colour=_colour(colour, language),
                  points=points, total=total)
             for place, colour, points, total in screen.standings]
    upcoming = _era_text(screen, language, (screen.era or 0) + 1)
    key = ("hint_tie_break" if screen.tie_break else "hint_ranking"
           if screen.era == len(screen.era_labels) else "hint_next_era")  # what ERA opens
    if panel.compact:
        pages = line_pages(lines, panel.inner)
        hint = word(language, f"{key}_more" if len(pages) > 1 else key, era=upcoming)
        return Plan(status=status, rows=[TextRow("places", pages[screen.page % len(pages)])],
                    hint=hint)
    if screen.next_start_player is not None and len(lines) < ROWS_OF_PLACES:  # room for it
        lines.append(word(language, "next_starts",
                          colour=_colour(screen.next_start_player, language)))
    return Plan(status=status, rows=place_rows(lines), hint=word(language, key, era=upcoming))


def place_rows(lines: list[str]) -> list[Row]:
    """Places a row each, centred, as Time of Empires' are; past five (`ROWS_OF_PLACES`) in
    two columns, the first half of them left (eight fit)."""
    if len(lines) <= ROWS_OF_PLACES:
        return [TextRow("place", line) for line in lines]
    rows = (len(lines) + 1) // 2
    return [PairRow("place", (lines[i], lines[i + rows] if i + rows < len(lines) else ""))
            for i in range(rows)]


def verdict(screen: PlayScreen, language: str) -> str:
    """Who won ("yellow wins!", "Shared victory!"), or a solo score and its rank."""
    winners = [p for p in screen.places if p[0] == 1]
    if len(screen.places) == 1:  # solo: the score, and its rank if the profile gives one
        _, _, score, _, rank = screen.places[0]
        return (word(language, "solo", score=score) if rank is None else
                word(language, "solo_rank", score=score, rank=rank.text(language)))
    if len(winners) == 1:
        return word(language, "wins", colour=_colour(winners[0][1], language))
    return word(language, "shared") if winners else word(language, "ranking")


def explained(screen: PlayScreen) -> bool:
    """Whether a place of the ranking says what decided it (a category, a tie-break, a tie
    left shared): `explained_plan` shows those, a place's reasons wrapped."""
    return any(by is not None or tie is not None or unbroken
               for by, tie, unbroken in screen.decided)


LIT_PLACES = 4  # the places that fit under the verdict lit, as Time of Empires' ranking


def ranking_plan(screen: PlayScreen, language: str, panel: Panel) -> Plan:
    """The final ranking, as Time of Empires': "Final ranking" in the status row, the verdict
    lit, the places a row each ("2 green 122", "3 red 62 (out 2)": who was out after which
    stage). Past four places the verdict takes the status row, the places the rows (past five
    in two columns); on 128x32 the verdict in the status row, as many places as fit the
    line, NEXT showing the next of them."""
    said = verdict(screen, language)
    lines = []
    for place, colour, score, out, _ in screen.places:
        line = f"{place} {_colour(colour, language)} {score}"
        lines.append(line + (f" ({word(language, 'out', n=out)})" if out is not None else ""))
    if panel.compact:
        pages = line_pages(lines, panel.inner)
        hint = word(language, "hint_over_more" if len(pages) > 1 else "hint_over")
        return Plan(status=said, rows=[TextRow("places", pages[screen.page % len(pages)])],
                    hint=hint)
    hint = word(language, "hint_over")
    title = word(language, "ranking")
    if len(lines) > LIT_PLACES or said == title:
        return Plan(status=said, rows=place_rows(lines), hint=hint)
    sizes = ((1, 2), (1, 1)) if len(lines) < LIT_PLACES else ONE_LINE  # room for two lines
    return Plan(status=title, rows=[TextRow("title", said, sizes, inverted=True),
                                    *place_rows(lines)], hint=hint)


def explained_plan(screen: PlayScreen, language: str, panel: Panel) -> Plan:
    """A ranking whose places say what decided them ("2 blue 4 on 2nd criterion; tie broken
    by ..."): the verdict in the status row, a place a row, centred, its reasons wrapped over
    as many lines as they take; on 128x64 as many whole places as five lines hold a page, on
    128x32 a line a page (short places side by side). NEXT turns the pages."""
    pages = explained_pages(screen, language, panel)
    hint = word(language, "hint_over_more" if len(pages) > 1 else "hint_over")
    rows: list[Row] = [TextRow("places" if panel.compact else "place", text,
                               ((1, min(lines, ROWS_OF_PLACES)),))
                       for text, lines in pages[screen.page % len(pages)]]
    return Plan(status=verdict(screen, language), rows=rows, hint=hint)


def explained_pages(screen: PlayScreen, language: str,
                    panel: Panel) -> list[list[tuple[str, int]]]:
    """The explained ranking's pages: each a list of (text, lines it wraps to)."""
    whys = [why(screen, index, language) for index in range(len(screen.places))]
    pages: list[list[tuple[str, int]]] = []
    if panel.compact:  # a line a page; a place of one line joins one before it that fits
        whole = False
        for text in whys:
            block = wrap(drawable(text), panel.inner)
            joined = f"{pages[-1][0][0]}  {text}" if pages else ""
            if len(block) == 1 and whole and text_width(drawable(joined)) <= panel.inner:
                pages[-1] = [(joined, 1)]
            else:
                pages += [[(line, 1)] for line in block]
                whole = len(block) == 1
        return pages
    for text in whys:
        lines = len(wrap(drawable(text), panel.inner))
        if pages and sum(n for _, n in pages[-1]) + lines <= ROWS_OF_PLACES:
            pages[-1].append((text, lines))
        else:
            pages.append([(text, lines)])
    return pages


def why(screen: PlayScreen, index: int, language: str) -> str:
    """One place of the ranking and what decided it, in words."""
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


def walk_plan(screen: PlayScreen, language: str, panel: Panel, turn: int = 0) -> Plan:
    """A step of the guide walked at a setup (`[rounds] guide_at_setup`), as Time of Empires'
    preparation guide: its part and place in the status row ("Game setup 2/11"), the step
    (up to four lines), what ERA starts (the era, its variant), how NEXT walks (hold: skip
    the rest). On 128x32 the step a line a page, " →" ending each but the last, the hint
    saying all three gestures."""
    assert screen.position is not None
    n, count = screen.position
    title = f"{_label(screen.title, language)} {n}/{count}"
    era, variant = _era_text(screen, language), _label(screen.variant, language)
    starts = word(language, "era_variant", era=era, variant=variant) if era and variant else (
        era or variant)
    text = _label(screen.text, language)
    if panel.compact:
        return Plan(status=title, rows=[TextRow("step", page_of(step_lines(text, panel), turn))],
                    hint=word(language, "hint_walk_short"))
    start = word(language, "walk_start", era=starts) if starts else word(language, "hint_setup")
    return Plan(status=title, rows=[TextRow("step", text, ((1, 4),)),
                                    TextRow("footer", start)],
                hint=word(language, "hint_walk"))


NOTE_ROWS = 4  # the rows under the variant on 128x64


def setup_plan(screen: PlayScreen, language: str, panel: Panel, turn: int = 0) -> Plan:
    """The game's setup (or an era's, `era_setup`), as Time of Empires' setup: the game in the
    status row, the variant and the players (and who was drawn to start), the profile's notes
    under them (pages of them, NEXT hold turning, the last row saying so); the hint row what
    NEXT and ERA do, every other page "hold ERA: settings" (the game's setup). On 128x32 the
    variant's row, then the notes a line a page ("Notes 2/5"). The box's first setup says
    which game plays, and why (`chosen_plan`)."""
    players = word(language, "players", n=len(screen.totals))
    variant = _label(screen.variant, language)
    first = f"{variant}  {players}" if variant else players
    if screen.drawn and screen.start_player is not None:  # who was drawn to start round 1
        starts = word(language, "starts", colour=_colour(screen.start_player, language))
        first = f"{first}  {starts}"
        if text_width(drawable(first)) > panel.inner and variant:  # the start player first
            first = f"{variant}  {starts}"
    if screen.chosen:  # NEXT chooses who starts (and then the variant)
        hint = word(language, "hint_chosen_variant" if screen.variant else "hint_chosen")
    else:
        hint = word(language, "hint_variant" if screen.variant else "hint_setup")
    if turn % 2 and screen.kind == "setup":  # every other page: the settings menu
        hint = say(language, "hint_open_settings")
    title, notes = screen.game.text(language), screen.notes
    if screen.kind == "era_setup":  # `variant_per_era`: "Era II setup", no notes
        title, notes = word(language, "era_setup", era=_era_text(screen, language)), ()
    if screen.why_played is not None and screen.kind == "setup":  # which game, and why
        return chosen_plan(screen, language, panel, title, first, hint)
    lines = [line for note in notes
             for line in wrap(drawable(note.text(language)), panel.inner)]
    if panel.compact:  # the notes a line a page after the variant's, NEXT hold turning them
        page = screen.page % (len(lines) + 1)
        if page == 0:
            return Plan(status=title, rows=[TextRow("variant", first)], hint=hint,
                        status_right=word(language, "hint_notes") if lines else "",
                        keep_right=True)
        return Plan(status=word(language, "notes_page", n=page, count=len(lines)),
                    rows=[TextRow("notes", lines[page - 1])], hint=hint,
                    status_right=word(language, "hint_more"), keep_right=True)
    rows: list[Row] = [TextRow("variant", first)]
    if len(lines) <= NOTE_ROWS:
        return Plan(status=title, rows=[*rows, *(TextRow("notes", line) for line in lines)],
                    hint=hint)
    # Pages of one row fewer, the last row saying how to turn; a note starts a page unless
    # it would not fit one anyway, or shares it whole.
    pages: list[list[str]] = []
    for note in notes:
        block = wrap(drawable(note.text(language)), panel.inner)
        if pages and (len(pages[-1]) + len(block) <= NOTE_ROWS - 1
                      or len(block) > NOTE_ROWS - 1):
            pages[-1] += block
        else:
            pages.append(list(block))
    pages = [part[i:i + NOTE_ROWS - 1] for part in pages
             for i in range(0, len(part), NOTE_ROWS - 1)]
    page = screen.page % len(pages)
    more = TextRow("notes_more", word(language, "hint_more_page", n=page + 1, count=len(pages)))
    return Plan(status=title, rows=[*rows, *(TextRow("notes", line) for line in pages[page]),
                                    more], hint=hint)


def chosen_plan(screen: PlayScreen, language: str, panel: Panel, title: str, first: str,
                hint: str) -> Plan:
    """The box's first setup of a game, for a few seconds or until a press: the game (the
    status row) and why it plays ("Given with --game", "Chosen in the settings menu", "The
    config's game"): on 128x64 the variant, "Playing <game>" and why, where the notes go
    (they follow); on 128x32 why, in the variant's row."""
    why = TextRow("chosen", word(language, f"chosen_{screen.why_played}"))
    if panel.compact:
        return Plan(status=title, rows=[why], hint=hint)
    playing = TextRow("playing", word(language, "playing", game=screen.game.text(language)),
                      ((1, 2),))
    return Plan(status=title, rows=[TextRow("variant", first), playing, why], hint=hint)


def step_plan(screen: PlayScreen, language: str, panel: Panel, turn: int = 0) -> Plan:
    """A step of a round (a phase, a special round, an event), in Time of Empires' rows: the
    round (or era and round) in the status row, who starts (or "Paused") at its right, a
    countdown of the phase in the middle of it (as Time of Empires' clock stands there under a
    question); the phase's name, the step (up to three lines), the position and whose turn;
    an event that ERA hold can start said in a row of its own under a step of two lines at
    most, else in the name's row (the step says what to do); a countdown's call big in place
    of the name and the step. On 128x32 the step (or the call) a line a page, " →" ending
    each but the last, and in the hint row the position, whose turn and the phase's name (or
    the event), every other page the undo gesture (`compact.step_footers`)."""
    starts = screen.start_player
    right = word(language, "starts", colour=_colour(starts, language)) if starts else ""
    if screen.paused:  # the countdown is held: said where the start player is
        right = word(language, "hall_start" if screen.hall_start else "paused")
    timer = timer_text(screen, language)
    room = panel.inner - sum(text_width(drawable(part)) + GAP for part in (right, timer) if part)
    status = _round_text(screen, language, room)
    title = _label(screen.title, language)
    text = _label(screen.text, language)
    if screen.call is not None:  # a countdown's call: its prompt over the step for a while
        text = title = screen.call.text(language)
    once = text == title  # a part without steps of its own: its label is its step, shown once
    event = ("" if screen.event is None
             else word(language, "hint_event", event=screen.event.text(language)))
    role = "call" if screen.call else "step"
    if panel.compact:
        footers = step_footers_of(screen, panel, language)  # every other page: how to undo
        return Plan(status=status, status_right=right, keep_right=True, status_clock=timer,
                    rows=[], small=[TextRow(role, page_of(step_lines(text, panel), turn)),
                                    TextRow("footer", footers[turn % len(footers)])])
    footer = TextRow("footer", " ".join(part for part in footer_parts(screen, language)
                                        if part))
    rows: list[Row]
    if screen.call is not None:  # big, in place of the phase and the step
        rows = [TextRow("call", text, ((2, 2), (1, 3))), footer]
    else:
        own_row = bool(event) and len(wrap(drawable(text), panel.inner)) <= 2
        title_shown = not (event and not own_row)
        rows = [TextRow("title", title) if title_shown else TextRow("event_hint", event)]
        if not (once and title_shown):
            rows.append(TextRow("step", text, ((1, 2 if own_row else 3),)))
        if own_row:
            rows.append(TextRow("event_hint", event))
        rows.append(footer)
    if not footer.text:
        rows.remove(footer)
    return Plan(status=status, status_right=right, keep_right=True, status_clock=timer,
                rows=rows, hint=word(language, hint_key(screen)))


def step_lines(text: str, panel: Panel) -> list[str]:
    """A step (of a round, or walked at a setup) on 128x32: its lines, leaving room for " →"
    at the end of each (`page_of`)."""
    if text_width(drawable(text)) <= panel.inner:
        return [text]
    return wrap(drawable(text), panel.inner - text_width(f" {MORE}"))


def page_of(lines: list[str], turn: int) -> str:
    """The line a text shown a line a page shows on page `turn`, " →" ending each but the
    last."""
    page = turn % len(lines)
    return lines[page] + (f" {MORE}" if page < len(lines) - 1 else "")


def step_footers_of(screen: PlayScreen, panel: Panel, language: str) -> list[str]:
    """128x32's hint row under a step, page by page (`compact.step_footers`)."""
    title, undo = _label(screen.title, language), UNDO.get(hint_key(screen))
    once = screen.call is not None or _label(screen.text, language) == title
    return step_footers(screen, language, panel, "" if once else title,
                        None if undo is None else word(language, undo))
