"""Every game's countdown is drawn as Time of Empires' clock, and its questions as Time of
Empires' question (`ui/round_plans.py`): the same rows, placed by the same `layout`, painted by
the same `render.paint`.

README's real-time example, Camp Run (device/erabox/examples/camp-run.toml: a 5 s lead-in, a 10:00
clock, "Return to camp" at 3:20 and 6:40), is played through the round machine; each of its
countdown screens is laid out as the box draws it (`render.draw`), and its clock and progress
bar are compared item for item with Time of Empires' running screen at the same time.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import (
    Button,
    Gesture,
    Input,
    Mode,
    Phase,
    Prompt,
    Question,
    Screen,
    Tick,
)
from erabox.core.play import Play, PlayScreen, new_play, screen
from erabox.core.profile import Label, parse_profile
from erabox.ui.gallery import profile_samples
from erabox.ui.game_words import word
from erabox.ui.layout import (
    DigitsItem,
    Layout,
    ProgressItem,
    StatusMarks,
    TextItem,
    layout,
    layout_plan,
)
from erabox.ui.paint import paint
from erabox.ui.panel import Panel
from erabox.ui.render import draw, turning
from erabox.ui.round_plans import clock_plan, is_clock, planned_layout
from erabox.ui.screens import Marks, layout_play, render_play
from erabox.ui.strings import colour_name
from erabox.ui.text import LINE_PX

ROOT = Path(__file__).resolve().parents[1]
CAMP_RUN = ROOT / "device" / "erabox" / "examples" / "camp-run.toml"
PANELS = [Panel(), Panel(height=32)]
LANGUAGES = ["en", "ja"]
ERA, NEXT = Input(Button.ERA, Gesture.PRESS), Input(Button.NEXT, Gesture.PRESS)


def played_to(until: float, presses: dict[float, Input] | None = None) -> Play:
    """Camp Run for red and blue: ERA at 0 starts the lead-in; the clock's own deadlines (and
    `presses` at their times) stepped up to `until`."""
    profile = parse_profile(CAMP_RUN.read_text(encoding="utf-8"), CAMP_RUN.name)
    play, _ = step(new_play(profile, ("red", "blue")), ERA, 0.0)
    pending = dict(presses or {})
    now = 0.0
    while True:
        due = min([t for t in (next_deadline(play, now), *pending) if t is not None],
                  default=until)
        if due > until:
            return play
        now = due
        press = pending.pop(now, None)
        play, _ = step(play, press or Tick(), now)
        if now == until:
            return play


def placed(shown: PlayScreen, panel: Panel, language: str = "en",
           held: float | None = None) -> Layout:
    return layout_plan(clock_plan(shown, language, panel, held), language, StatusMarks(),
                       panel)


def of_role(items: Layout, role: str) -> list[DigitsItem | TextItem | ProgressItem]:
    return [item for item in items.items if getattr(item, "role", "progress") == role]


def era_clock(seconds_left: int, elapsed: float) -> Screen:
    """Time of Empires' running screen with Camp Run's clock: 10:00, marks at 3:20, 6:40."""
    return Screen(kind=Phase.RUNNING, era=1, mode=Mode.REALTIME, seconds_left=seconds_left,
                  length_s=600.0, elapsed=elapsed, cue_marks=(200.0, 400.0))


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("at", [5.0, 65.0, 150.5, 480.0, 604.0])
def test_a_running_countdown_is_time_of_empires_clock(panel: Panel, at: float) -> None:
    shown = screen(played_to(at), at)
    assert is_clock(shown) and shown.lead_in is None and shown.call is None
    run = at - 5.0  # the start gong at 5 s
    left = int(600 - run) if run == int(run) else int(600 - run) + 1
    assert (shown.timer_left, shown.timer_run, shown.timer_s) == (left, float(int(run)), 600)
    assert shown.timer_marks == (200.0, 400.0)
    ours, theirs = placed(shown, panel), layout(era_clock(left, float(int(run))), panel=panel)
    (digits,) = of_role(ours, "clock")
    (era,) = of_role(theirs, "clock")
    assert isinstance(digits, DigitsItem) and isinstance(era, DigitsItem)
    assert digits.text == era.text == f"{left // 60}:{left % 60:02d}"
    bars = [item for item in ours.items if isinstance(item, ProgressItem)]
    if not panel.compact:  # the same text, scale and place; the same bar
        assert digits == era
        assert bars == [item for item in theirs.items if isinstance(item, ProgressItem)]
    else:  # at the right edge, full height; as wide as the texts beside them leave room for
        assert (digits.box.right, digits.box.y, digits.scale_y) == (
            era.box.right, era.box.y, era.scale_y)
    assert bars[0].marks == (200 / 600, 400 / 600)
    assert bars[0].fraction == pytest.approx(int(run) / 600)


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_box_draws_the_clock_in_place_of_the_step(panel: Panel, language: str) -> None:
    shown = screen(played_to(65.0), 65.0)
    image = draw(shown, panel, language)
    assert image.tobytes() == render_clock(shown, panel, language=language).tobytes()
    roles = [item.role for item in layout_play(shown, panel, language)]
    assert "clock" in roles and "progress" in roles and "step" not in roles
    assert image.tobytes() == render_play(shown, panel, language).tobytes()
    masks = Image.new("1", panel.size, 0)  # the items as masks (`layout_play`): the same
    for item in layout_play(shown, panel, language):
        masks.paste(1, (item.x, item.y), item.mask)
    assert masks.tobytes() == image.tobytes()
    assert image.tobytes() == draw(shown, panel, language, turn=3).tobytes()  # no pages
    assert turning(shown, panel, language) == 1
    texts = {item.role: item.source for item in placed(shown, panel, language).items
             if isinstance(item, TextItem)}
    assert texts["status"] == ("Run 1/1" if language == "en" else "ラン 1/1")
    assert texts["hint"] == ("Until the gong  hold ERA: undo" if language == "en"
                             else "終了の合図まで ERA長押し: 戻す")  # what a press does
    # the phase at the status row's right, where it fits beside the round (in Japanese)
    assert shown.title is not None
    fits = language == "ja" and not panel.compact
    assert texts.get("status_hint") == (shown.title.ja if fits else None)


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
def test_the_lead_in_shows_the_seconds_to_the_start_gong_big(panel: Panel) -> None:
    for at, seconds in ((0.0, "5"), (2.5, "3"), (4.0, "1")):
        shown = screen(played_to(at), at)
        assert is_clock(shown)
        (digits,) = of_role(placed(shown, panel), "countdown")
        assert isinstance(digits, DigitsItem) and digits.text == seconds


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
def test_paused_says_paused_over_the_held_clock_and_how_to_go_on(panel: Panel) -> None:
    hold = Input(Button.NEXT, Gesture.HOLD)  # Camp Run: hold NEXT pauses
    shown = screen(played_to(120.0, {100.0: hold}), 120.0)
    assert is_clock(shown) and shown.paused and shown.timer_left == 505
    items = placed(shown, panel)
    (digits,) = of_role(items, "clock")
    assert isinstance(digits, DigitsItem) and digits.text == "8:25"
    (title,) = of_role(items, "title")
    assert isinstance(title, TextItem) and title.source == "Paused"
    (hint,) = of_role(items, "hint")
    assert isinstance(hint, TextItem) and "resume" in hint.source


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_calls_own_words_stand_lit_over_the_clock(panel: Panel, language: str) -> None:
    shown = screen(played_to(206.0), 206.0)
    assert shown.call is not None and is_clock(shown)
    items = placed(shown, panel, language)
    assert not of_role(items, "clock")  # the prompt covers the big clock ...
    (prompt,) = of_role(items, "prompt")
    assert isinstance(prompt, TextItem) and prompt.inverted
    assert prompt.source == shown.call.text(language) and not prompt.block.abbreviated
    (clock,) = of_role(items, "status_clock")  # ... the time moves up to the status row
    assert isinstance(clock, TextItem) and clock.source == "6:39"


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
def test_holding_next_and_era_fills_the_new_game_bar(panel: Panel) -> None:
    shown = screen(played_to(65.0), 65.0)
    (hint,) = of_role(placed(shown, panel, held=0.5), "hint")
    assert isinstance(hint, TextItem) and hint.inverted and "■■■□□□" in hint.source
    drawn = draw(shown, panel, "en", hold_progress=0.5)
    assert drawn.tobytes() == render_clock(shown, panel, held=0.5).tobytes()


def render_clock(shown: PlayScreen, panel: Panel, held: float | None = None,
                 marks: Marks | None = None, language: str = "en") -> Image.Image:
    """The clock painted from its plan, with `marks` in the status row."""
    marks = marks or Marks()
    return paint(layout_plan(clock_plan(shown, language, panel, held), language,
                             StatusMarks(marks.no_sound, marks.no_save, marks.no_file), panel),
                 panel)


def test_the_box_marks_stand_in_the_clocks_status_row() -> None:
    shown = screen(played_to(65.0), 65.0)
    plain, marked = draw(shown, Panel(), "en"), draw(shown, Panel(), "en", no_sound=True)
    assert ImageChops.difference(plain, marked).getbbox() is not None
    assert marked.tobytes() == render_clock(shown, Panel(), marks=Marks(no_sound=True)).tobytes()


def test_a_countdown_phase_of_several_steps_keeps_its_step_screen() -> None:
    shown = screen(played_to(65.0), 65.0)
    several = replace(shown, position=(1, 2))
    assert not is_clock(several)
    roles = [item.role for item in layout_play(several, Panel(), "en")]
    assert "title" in roles and "status_clock" in roles and "clock" not in roles  # small, on top
    assert ImageChops.difference(draw(several, Panel(), "en"), draw(shown, Panel(), "en")
                                 ).getbbox() is not None


def test_the_end_of_the_clock_leaves_it() -> None:
    shown = screen(played_to(606.0), 606.0)  # the end gong at 605 ends the run
    assert not is_clock(shown) and shown.kind == "scoring"


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_question_is_time_of_empires_question_its_clock_in_sight(panel: Panel,
                                                                    language: str) -> None:
    both = Input(Button.BOTH, Gesture.HOLD)  # NEXT+ERA held: "New game?"
    shown = screen(played_to(65.0, {64.0: both}), 65.0)
    assert (shown.kind, shown.question, shown.timer_left) == ("confirm", "new_game", 540)
    ours = layout_play(shown, panel, language)
    era = Screen(kind=Phase.CONFIRM, era=1, mode=Mode.REALTIME, question=Question.NEW_GAME,
                 seconds_left=540)
    theirs = layout(era, language=language, panel=panel)
    for role in ("question", "hint", "status_clock"):
        (mine,) = [item for item in ours if item.role == role]
        (toe,) = [item for item in theirs.items if getattr(item, "role", "") == role]
        assert isinstance(toe, TextItem) and mine.text == toe.source
        assert (mine.x, mine.y, mine.lit) == (toe.box.x, toe.box.y, toe.inverted)
    (status,) = [item for item in ours if item.role == "status"]
    assert status.text == shown.game.text(language)  # the game, where Time of Empires' era
    assert turning(shown, panel, language) == 1


def a_number_entered(value: int = 12) -> PlayScreen:
    """Altay's points entry, as the gallery shows it (red's "Action cards in your deck")."""
    samples = {f"{game}/{name}": shown for game, _, screens in profile_samples()
               for name, shown in screens}
    return replace(samples["altay/015_scoring"], value=value, points=value)


def toe_entry(value: int = 12) -> Screen:
    """Time of Empires' points entry of the same number for red."""
    return Screen(kind=Phase.SCORING, era=1, mode=Mode.REALTIME, scoring_step=0,
                  entry="points", player="red", value=value, totals=(("red", 0),))


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_number_being_entered_is_time_of_empires_points_entry(panel: Panel,
                                                                language: str) -> None:
    shown = a_number_entered()
    ours = layout_play(shown, panel, language)
    theirs = layout(toe_entry(), language=language, panel=panel)
    (mine,) = [item for item in ours if item.role == "value"]
    (toe,) = [item for item in theirs.items if getattr(item, "role", "") == "value"]
    assert isinstance(toe, DigitsItem) and mine.text == toe.text == "12"
    if panel.compact:  # at the right, full height, as Time of Empires' number
        assert (mine.x + mine.mask.width, mine.y, mine.mask.height) == (
            toe.box.right, toe.box.y, toe.box.h)
        (status,) = [item for item in ours if item.role == "status"]
        first = status.text.removesuffix(" →")  # the category at the top, a line a page
        assert shown.title.text(language).startswith(first) and first
        (player,) = [item for item in ours if item.role == "player"]
        assert player.x + player.mask.width < mine.x and "= 12" in player.text.replace("点", "")
    else:  # the same size; the player left of it, what it is worth under the player
        assert mine.mask.size == (toe.box.w, toe.box.h)
        (label,) = [item for item in ours if item.role == "value_label"]
        (under,) = [item for item in ours if item.role == "value_under"]
        assert label.text == colour_name("red", language) and "12" in under.text
        assert label.x == under.x and label.y + label.mask.height < under.y
        assert under.x + under.mask.width < mine.x
        assert under.y + under.mask.height == mine.y + mine.mask.height  # on its baseline
        (title,) = [item for item in ours if item.role == "title"]
        assert title.text == shown.title.text(language) and title.y + title.mask.height <= mine.y
    assert turning(shown, panel, language) == (2 if panel.compact else 1)  # its two lines
    assert render_play(shown, panel, language).tobytes() == paint(
        planned_layout(shown, panel, language, Marks()), panel).tobytes()


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
def test_a_held_number_and_letting_go_are_said_as_time_of_empires_says_them(
        panel: Panel) -> None:
    held = [item for item in layout_play(a_number_entered(), panel, "en",
                                         Marks(hold_progress=0.5)) if item.role == "hold"]
    assert [item.text for item in held] == ["New game? ■■■□□□"]
    ramp = layout_play(replace(a_number_entered(), ramp=5), panel, "en")
    (hint,) = [item for item in ramp if item.role == "hint"]
    assert (hint.text, hint.lit) == ("let go: +5", True)
    if panel.compact:  # the lit row needs the width: the number steps back, its worth too
        (value,) = [item for item in ramp if item.role == "value"]
        assert value.text == "red 12 = 12" and value.mask.height < 10  # small text
    resumed = layout_play(replace(a_number_entered(), prompt=Prompt.RESUMED), panel, "en")
    (status,) = [item for item in resumed if item.role == "status"]
    assert (status.text, status.lit) == ("Resumed", True)


COLOURS = ("red", "blue", "green", "yellow", "purple", "black", "white")


def standings_after(players: int, starts: str | None = None) -> PlayScreen:
    """Act I's standings of a game of two acts, `players` of them, `starts` next."""
    labels = (Label("Act I", "第一幕"), Label("Act II", "第二幕"))
    return replace(a_number_entered(), kind="standings", era=1, era_labels=labels,
                   next_start_player=starts,
                   standings=tuple((n + 1, colour, 9 - n, 20 - n)
                                   for n, colour in enumerate(COLOURS[:players])))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_are_time_of_empires_standings(language: str) -> None:
    """A row each, centred, where Time of Empires puts its standings' rows; who starts next
    where a row is left; the next era's ERA in the hint row."""
    ours = layout_play(standings_after(4), Panel(), language)
    places = ((1, "red", 20, None), (2, "blue", 19, None), (3, "green", 18, None),
              (4, "yellow", 17, None))
    theirs = layout(Screen(Phase.SCORING, 2, Mode.REALTIME, scoring_step=5, entry="standings",
                           places=places), language=language)
    rows = [item for item in ours if item.role == "place"]
    toe = [item for item in theirs.items if getattr(item, "role", "").startswith("place")]
    assert [item.y for item in rows] == [item.box.y for item in toe]
    for item in rows:  # centred, as Time of Empires' are
        assert abs(item.x + item.mask.width / 2 - 64) <= 1, item.text
    assert rows[0].text == ("1 red +9 = 20" if language == "en" else "1位赤 +9 計20")
    (status,) = [item for item in ours if item.role == "status"]
    assert status.text == ("Act I standings" if language == "en" else "第一幕終了時の順位")
    with_next = [item.text for item in layout_play(standings_after(4, "yellow"), Panel(),
                                                   language) if item.role == "place"]
    assert len(with_next) == 5 and ("yellow" in with_next[-1] or "黄" in with_next[-1])
    (hint,) = [item for item in ours if item.role == "hint"]
    assert hint.text == ("ERA: start Act II" if language == "en" else "ERA: 第二幕開始")


def test_seven_places_stand_in_two_columns_and_a_small_panel_turns_them() -> None:
    items = sorted((item for item in layout_play(standings_after(7, "yellow"), Panel(), "en")
                    if item.role == "place"), key=lambda item: (item.x, item.y))
    assert [item.text.split()[0] for item in items] == [str(n) for n in range(1, 8)]
    left, right = items[:4], items[4:]  # the first half left, the rest right, no next start
    assert {item.x for item in left} == {2} and len({item.x for item in right}) == 1
    assert [item.y for item in right] == [item.y for item in left[:3]]
    assert right[0].x >= max(item.x + item.mask.width for item in left)
    small = Panel(height=32)
    seen = []
    for page in range(12):  # NEXT turns the pages, round again after the last
        shown = replace(standings_after(7), page=page)
        (row,) = [item for item in layout_play(shown, small, "en") if item.role == "places"]
        seen.append(row.text)
    count = seen.index(seen[0], 1)
    assert seen[0] == "1 red +9 = 20  2 blue +8 = 19" and seen[count:2 * count] == seen[:count]
    assert [part.split()[0] for page in seen[:count] for part in page.split("  ")] == [
        str(n) for n in range(1, 8)]
    (hint,) = [item for item in layout_play(standings_after(7), small, "en")
               if item.role == "hint"]
    assert hint.text == "NEXT: more ERA: Act II"
    assert turning(standings_after(7), small, "en") == 1  # NEXT turns them, not the clock


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
def test_the_standings_hold_bar_and_resumed_are_time_of_empires(panel: Panel) -> None:
    (bar,) = [item for item in layout_play(standings_after(4), panel, "en",
                                           Marks(hold_progress=1.0)) if item.role == "hold"]
    assert bar.text == "New game? ■■■■■■" and (bar.x, bar.mask.width) == (0, panel.width)
    resumed = layout_play(replace(standings_after(4), prompt=Prompt.RESUMED), panel, "en")
    (status,) = [item for item in resumed if item.role == "status"]
    assert (status.text, status.lit) == ("Resumed", True)


def ranked(players: int, decided: bool = False) -> PlayScreen:
    """A final ranking of `players`, red first, each 10 behind the one before."""
    why = (None, None, decided)  # a tie left shared: said beside its place
    return replace(a_number_entered(), kind="game_over",
                   places=tuple((n + 1, colour, 100 - 10 * n, None, None)
                                for n, colour in enumerate(COLOURS[:players])),
                   decided=(why,) * players)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ranking_is_time_of_empires_ranking(language: str) -> None:
    """"Final ranking" in the status row, the verdict lit where Time of Empires' is, the places
    in its rows; past four the verdict takes the status row; on 128x32 the status row too."""
    ours = layout_play(ranked(4), Panel(), language)
    places = tuple((n + 1, colour, 100 - 10 * n, None) for n, colour in enumerate(COLOURS[:4]))
    theirs = layout(Screen(Phase.GAME_OVER, 3, Mode.REALTIME, entry="ranking", places=places),
                    language=language)
    (title,) = [item for item in ours if item.role == "title"]
    (toe,) = [item for item in theirs.items if getattr(item, "role", "") == "title"]
    assert isinstance(toe, TextItem) and (title.x, title.y, title.mask.width, title.lit) == (
        toe.box.x, toe.box.y, toe.box.w, True)
    assert title.text == ("red wins!" if language == "en" else "赤の勝ち！")
    rows = [item for item in ours if item.role == "place"]
    toe_rows = [item for item in theirs.items if getattr(item, "role", "").startswith("place")]
    assert [item.y for item in rows] == [item.box.y for item in toe_rows]
    (status,) = [item for item in ours if item.role == "status"]
    assert status.text == ("Final ranking" if language == "en" else "最終順位")
    five = layout_play(ranked(5), Panel(), language)
    assert [item.text for item in five if item.role == "status"] == [title.text]
    assert len([item for item in five if item.role == "place"]) == 5
    assert not [item for item in five if item.role == "title"]
    small = layout_play(ranked(4), Panel(height=32), language)
    assert [item.text for item in small if item.role == "status"] == [title.text]


def tied(players: int, page: int = 0) -> PlayScreen:
    """A final ranking of `players` whose places say what decided them: each a tie broken by
    a long-named rule, so a place wraps over two lines on 128x64."""
    rule = Label("fewer Disdain cards at the end", "終了時の軽蔑カードが少ない方")
    return replace(ranked(players), page=page, decided=((None, rule, False),) * players)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_ranking_with_reasons_keeps_each_place_whole(language: str) -> None:
    """A place and its reasons are one centred row, wrapped under it; a page holds as many
    whole places as five lines do (two of two lines), NEXT showing the next; on 128x32 a line
    a page, every line of every place in turn."""
    pages = []
    for page in range(3):
        shown = layout_play(tied(5, page), Panel(), language)
        rows = [item for item in shown if item.role == "place"]
        assert all(item.mask.height == 2 * LINE_PX for item in rows)  # wrapped, kept together
        assert all(abs(2 * item.x + item.mask.width - 128) <= 1 for item in rows)  # centred
        pages.append([item.text for item in rows])
    assert [len(texts) for texts in pages] == [2, 2, 1]
    assert [text[0] for texts in pages for text in texts] == ["1", "2", "3", "4", "5"]
    (verdict_row,) = [item for item in shown if item.role == "status"]
    assert verdict_row.text == ("red wins!" if language == "en" else "赤の勝ち！")
    small = [[item.text for item in layout_play(tied(2, page), Panel(height=32), language)
              if item.role == "places"] for page in range(5)]
    assert all(len(texts) == 1 for texts in small)
    assert [texts[0][0] for texts in small[:3:2]] == ["1", "2"]  # each place's first line ...
    assert small[1] == small[3] and small[1][0][0] not in "12"  # ... then its reasons' rest
    assert small[4] == small[0]  # two places of two lines: four pages, then round again


LONG_STEP = Label("Each player takes a hand of five cards and one secret objective, shown to "
                  "no one", "各自カード5枚と秘密の目標1枚を受け取る（誰にも見せない）")


def walked_step(text: Label = LONG_STEP) -> PlayScreen:
    """A step of a guide walked at a setup (`guide_at_setup`): Prepare 1/1 before Act I."""
    return replace(a_number_entered(), kind="setup", guide=True, position=(1, 1),
                   title=Label("Prepare", "準備"), text=text, era=1,
                   era_labels=(Label("Act I", "第一幕"),), variant=None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_step_walked_at_a_setup_is_time_of_empires_guide_step(language: str) -> None:
    """The step centred, up to four lines, what ERA starts under it, how NEXT walks in the
    hint row; on 128x32 a line a page, turning on its own, " →" ending each but the last."""
    shown = walked_step()
    items = layout_play(shown, Panel(), language)
    (step_item,) = [item for item in items if item.role == "step"]  # its lines centred
    assert 8 < step_item.mask.height <= 32 and not step_item.abbreviated
    assert abs(step_item.x + step_item.mask.width / 2 - 64) <= 1
    (footer,) = [item for item in items if item.role == "footer"]
    assert footer.text == ("ERA: start Act I" if language == "en" else "ERA: 第一幕を開始")
    assert footer.y >= step_item.y + step_item.mask.height
    (status,) = [item for item in items if item.role == "status"]
    assert status.text == ("Prepare 1/1" if language == "en" else "準備 1/1")
    small = Panel(height=32)
    pages = turning(shown, small, language)
    read = []
    for turn in range(pages):
        (line,) = [item for item in layout_play(shown, small, language, Marks(turn=turn))
                   if item.role == "step"]
        assert not line.abbreviated and line.text.endswith(" →") == (turn < pages - 1)
        read.append(line.text.removesuffix(" →"))
    assert pages > 1 and "".join(read).replace(" ", "") == LONG_STEP.text(language).replace(
        " ", "")
    short = walked_step(Label("Deal the cards", "カードを配る"))
    assert turning(short, small, language) == 1 and turning(shown, Panel(), language) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_setup_is_time_of_empires_setup_its_way_to_the_notes_kept(language: str) -> None:
    """The game in the status row, the variant and the players centred, the notes under them;
    on 128x32 "hold NEXT: notes" stays whole at the right, a long name giving way to it."""
    altay = next(screens for game, _, screens in profile_samples() if game == "altay")
    setup = next(shown for name, shown in altay if "setup" in name)
    assert setup.kind == "setup" and setup.notes and setup.why_played is None
    items = layout_play(setup, Panel(), language)
    (variant,) = [item for item in items if item.role == "variant"]
    assert abs(variant.x + variant.mask.width / 2 - 64) <= 1
    notes = [item for item in items if item.role == "notes"]
    assert notes and all(item.y > variant.y for item in notes)
    small = layout_play(setup, Panel(height=32), language)
    (status,) = [item for item in small if item.role == "status"]
    (right,) = [item for item in small if item.role == "status_hint"]
    assert right.text == word(language, "hint_notes") and not right.abbreviated
    assert status.abbreviated and status.x + status.mask.width < right.x  # Altay's long name
    assert turning(setup, Panel(), language) == turning(setup, Panel(height=32), language) == 2


def test_a_step_is_laid_out_in_time_of_empires_rows_its_countdown_on_top() -> None:
    """A phase of several steps: the phase, the step and whose turn centred top to bottom, the
    hint at the bottom; its countdown small in the middle of the status row, between the
    round and who starts, as Time of Empires' clock stands over a question."""
    shown = replace(screen(played_to(65.0), 65.0), position=(1, 2), player="red",
                    start_player="red", text=Label("Gather two treasures each", "宝を2つ集める"))
    items = layout_play(shown, Panel(), "en")
    order = [item.role for item in sorted(items, key=lambda item: (item.y, item.x))]
    assert order == ["status", "status_clock", "status_hint", "title", "step", "footer", "hint"]
    for item in items:
        if item.role in ("title", "step", "footer", "hint"):
            assert abs(item.x + item.mask.width / 2 - 64) <= 1, item.role
    (clock,) = [item for item in items if item.role == "status_clock"]
    (status,) = [item for item in items if item.role == "status"]
    (starts,) = [item for item in items if item.role == "status_hint"]
    assert clock.text == "9:00" and starts.text == "red starts"
    assert status.x + status.mask.width < clock.x < clock.x + clock.mask.width < starts.x
