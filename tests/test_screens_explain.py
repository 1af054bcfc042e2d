"""Screens that explain themselves, in the core: what the screen model says and when."""

from __future__ import annotations

from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import Button, Gesture, Input, Phase, Prompt, Screen, Tick
from erabox.files.games import own_rounds
from erabox.ui.layout import layout

N, E, VD = Button.NEXT, Button.ERA, Button.VOL_DOWN
P, H = Gesture.PRESS, Gesture.HOLD


class Table:
    """Time of Empires' round file as the box plays it, on a virtual clock."""

    def __init__(self, config: Config | None = None) -> None:
        config = config or Config()
        self.engine = ProfileEngine(configured(guided(own_rounds(), config.guide), config),
                                    config)
        self.now = 0.0
        self.play, _ = self.engine.fresh(0.0, 0)

    def wait(self, seconds: float) -> None:
        until = self.now + seconds
        while (due := self.engine.next_deadline(self.play, self.now)) is not None and (
                due <= until):
            self.now = max(self.now, due)
            self.play, _ = self.engine.step(self.play, Tick(), self.now)
        self.now = until

    def do(self, button: Button, gesture: Gesture = P) -> None:
        """A gesture now."""
        self.play, _ = self.engine.step(self.play, Input(button, gesture), self.now)

    def close_guide(self) -> None:
        """Leave the preparation guide for the setup screen (hold NEXT), if it is shown."""
        if self.screen().kind is Phase.PREPARE:
            self.do(N, H)

    def screen(self) -> Screen:
        shown = self.engine.screen(self.play, self.now)
        assert isinstance(shown, Screen)
        return shown


def table(config: Config | None = None) -> Table:
    return Table(config)


def hint(t: Table) -> str:
    items = {i.role: i for i in layout(t.screen()).items}
    return items["hint"].source  # type: ignore[union-attr]


def intro() -> Table:
    t = table()
    t.close_guide()
    t.do(N)  # intro mode
    t.do(E)
    return t


def test_the_scholar_prompt_keeps_its_15_s_of_running_time_across_a_pause() -> None:
    t = table()
    t.do(E)
    t.wait(5 + 180 + 5)  # lead-in, then 5 s into the scholar prompt
    assert t.screen().prompt is Prompt.SCHOLARS
    t.do(N, H)  # pause for a minute
    t.wait(60)
    assert t.screen().kind is Phase.PAUSED and t.screen().prompt is Prompt.SCHOLARS
    t.do(N)  # resume: 10 s of running time left
    t.wait(10 - 0.01)
    assert t.screen().prompt is Prompt.SCHOLARS
    t.wait(0.02)
    assert t.screen().prompt is None


def test_the_last_intro_round_says_next_ends_the_era() -> None:
    t = intro()
    assert hint(t) == "NEXT: next round"  # round 1: nothing to undo
    t.do(N)
    assert hint(t) == "NEXT: next round  hold: undo"
    while t.screen().round != 15:
        t.do(N)
    assert hint(t) == "NEXT: end era  hold: undo"
    t.do(N)
    assert t.screen().kind is Phase.SCORING


def test_an_undo_says_what_it_undid() -> None:
    t = intro()
    for _ in range(7):  # rounds 1..6, scholars after 5 in between
        t.do(N)
    assert t.screen().round == 7
    t.do(N, H)
    assert t.screen().round == 6 and t.screen().prompt is Prompt.UNDONE
    assert hint(t) == "Back to round 6"
    t.wait(3.01)
    assert t.screen().prompt is None and hint(t).startswith("NEXT: next round")


def test_a_quiet_box_marks_every_screen() -> None:
    t = table()
    assert not t.screen().quiet
    for _ in range(7):  # 80 % -> 10 %
        t.do(VD)
    assert t.screen().quiet
    t.wait(3)  # the volume overlay is gone; the mark stays
    roles = [i.role for i in layout(t.screen()).items]
    assert "quiet" in roles and "volume" not in roles
    t.do(E)
    t.wait(100)
    assert t.screen().quiet and "quiet" in layout(t.screen()).roles()


def test_the_checklist_ends_in_the_standings() -> None:
    t = table(Config(points_entry="steps"))
    t.close_guide()
    t.do(N)
    t.do(E)
    for _ in range(17):  # through an introductory era
        t.do(N)
    assert t.screen().kind is Phase.SCORING
    steps = []
    for _ in range(4 * 4 + 2):  # four players' points at four steps; two steps shown
        steps.append(t.screen().scoring_step)
        t.do(E)
    assert steps == sorted(steps)  # never back to 1/6
    shown = t.screen()
    assert shown.entry == "standings" and t.screen().kind is Phase.SCORING
    items = {i.role: i for i in layout(shown).items}
    assert items["status"].source == "Era I standings"  # type: ignore[union-attr]
    assert items["hint"].source == "ERA: prepare Era II"  # type: ignore[union-attr]
