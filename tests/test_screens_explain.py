"""Screens that explain themselves, in the core: what the screen model says and when."""

from __future__ import annotations

from collections.abc import Callable

from era_table import Table
from erabox.core.config import Config
from erabox.core.machine import screen
from erabox.core.model import Button, Gesture, Phase, Prompt
from erabox.ui.layout import layout

N, E, VD = Button.NEXT, Button.ERA, Button.VOL_DOWN
P, H = Gesture.PRESS, Gesture.HOLD


def hint(t: Table) -> str:
    items = {i.role: i for i in layout(screen(t.game, t.now)).items}
    return items["hint"].source  # type: ignore[union-attr]


def intro(table: Callable[..., Table]) -> Table:
    t: Table = table()
    t.close_guide()
    t.do(N)  # intro mode
    t.do(E)
    return t


def test_the_scholar_prompt_keeps_its_15_s_of_running_time_across_a_pause(
        table: Callable[..., Table]) -> None:
    t: Table = table()
    t.do(E)
    t.wait(5 + 180 + 5)  # lead-in, then 5 s into the scholar prompt
    assert t.game.prompt is Prompt.SCHOLARS
    t.do(N, H)  # pause for a minute
    t.wait(60)
    assert t.game.phase is Phase.PAUSED and t.game.prompt is Prompt.SCHOLARS
    t.do(N)  # resume: 10 s of running time left
    t.wait(10 - 0.01)
    assert t.game.prompt is Prompt.SCHOLARS
    t.wait(0.02)
    assert t.game.prompt is None


def test_the_last_intro_round_says_next_ends_the_era(table: Callable[..., Table]) -> None:
    t = intro(table)
    assert hint(t) == "NEXT: next round"  # round 1: nothing to undo
    t.do(N)
    assert hint(t) == "NEXT: next round  hold: undo"
    while t.game.round != 15:
        t.do(N)
    assert hint(t) == "NEXT: end era  hold: undo"
    t.do(N)
    assert t.game.phase is Phase.SCORING


def test_an_undo_says_what_it_undid(table: Callable[..., Table]) -> None:
    t = intro(table)
    for _ in range(7):  # rounds 1..6, scholars after 5 in between
        t.do(N)
    assert t.game.round == 7
    t.do(N, H)
    assert t.game.round == 6 and t.game.prompt is Prompt.UNDONE
    assert hint(t) == "Back to round 6"
    t.wait(3.01)
    assert t.game.prompt is None and hint(t).startswith("NEXT: next round")


def test_a_quiet_box_marks_every_screen(table: Callable[..., Table]) -> None:
    t: Table = table()
    assert not screen(t.game, t.now).quiet
    for _ in range(7):  # 80 % -> 10 %
        t.do(VD)
    assert screen(t.game, t.now).quiet
    t.wait(3)  # the volume overlay is gone; the mark stays
    roles = [i.role for i in layout(screen(t.game, t.now)).items]
    assert "quiet" in roles and "volume" not in roles
    t.do(E)
    t.wait(100)
    assert screen(t.game, t.now).quiet and "quiet" in layout(screen(t.game, t.now)).roles()


def test_the_checklist_ends_in_the_standings(table: Callable[..., Table]) -> None:
    t: Table = table(Config(points_entry="steps"))
    t.close_guide()
    t.do(N)
    t.do(E)
    for _ in range(17):  # through an introductory era
        t.do(N)
    assert t.game.phase is Phase.SCORING
    steps = []
    for _ in range(4 * 4 + 2):  # four players' points at four steps; two steps shown
        steps.append(screen(t.game, t.now).scoring_step)
        t.do(E)
    assert steps == sorted(steps)  # never back to 1/6
    shown = screen(t.game, t.now)
    assert shown.entry == "standings" and t.game.phase is Phase.SCORING
    items = {i.role: i for i in layout(shown).items}
    assert items["status"].source == "Era I standings"  # type: ignore[union-attr]
    assert items["hint"].source == "ERA: prepare Era II"  # type: ignore[union-attr]
