"""The questions of Time of Empires' round file ("New game?" on BOTH held, "Restart this era?"
on ERA held), played through `ProfileEngine` as the box plays it: unanswered, a question closes
itself after 10 s, the era's clock running on beneath it; NEXT cancels it; a cry or the end
gong falling due under it sounds at its time (the era engine also closed the question then:
the round engine does not, marked below); "yes" to a new game starts Era I afresh
(docs/behaviour.md). Ported from the era engine's table (test_machine.py) at its removal."""

from __future__ import annotations

import pytest

from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import Button, Gesture, Input, Phase, PlaySound, Prompt, Screen, Sound, Tick
from erabox.core.play import QUESTION_TIMEOUT_S, State, countdown_elapsed
from erabox.files.games import own_rounds

CONFIG = Config(guide=False)
LEAD_IN = 5.0  # the era starts with its gong this long after ERA
FIRST_CRY = CONFIG.realtime.scholar_cues_s[0]
LENGTH = CONFIG.realtime.length_s
N, E, BOTH = Button.NEXT, Button.ERA, Button.BOTH
P, H = Gesture.PRESS, Gesture.HOLD


class Table:
    """Time of Empires' round file on a virtual clock, its sounds noted."""

    def __init__(self) -> None:
        self.engine = ProfileEngine(configured(guided(own_rounds(), False), CONFIG), CONFIG)
        self.now = 0.0
        self.play, _ = self.engine.fresh(0.0, 0)
        self.heard: list[tuple[float, Sound]] = []

    def _note(self, effects: tuple[object, ...]) -> None:
        self.heard += [(self.now, e.sound) for e in effects if isinstance(e, PlaySound)]

    def wait_until(self, until: float) -> None:
        while (due := self.engine.next_deadline(self.play, self.now)) is not None and (
                due <= until):
            self.now = max(self.now, due)
            self.play, effects = self.engine.step(self.play, Tick(), self.now)
            self._note(effects)
        self.now = max(self.now, until)

    def do(self, button: Button, gesture: Gesture = P) -> None:
        self.play, effects = self.engine.step(self.play, Input(button, gesture), self.now)
        self._note(effects)

    def screen(self) -> Screen:
        shown = self.engine.screen(self.play, self.now)
        assert isinstance(shown, Screen)
        return shown

    def sounds(self, sound: Sound) -> list[float]:
        return [t for t, s in self.heard if s is sound]

    def running(self) -> float | None:
        return countdown_elapsed(self.play, self.now)


def running_era(at: float) -> Table:
    t = Table()
    t.do(E)
    t.wait_until(LEAD_IN + at)
    assert t.screen().kind is Phase.RUNNING
    return t


def ask(t: Table, opener: Button) -> None:
    t.do(opener, H)
    assert t.screen().kind is Phase.CONFIRM


def test_the_question_closes_itself_after_10_s() -> None:
    assert QUESTION_TIMEOUT_S == 10.0  # docs/behaviour.md
    t = Table()
    ask(t, BOTH)
    t.wait_until(QUESTION_TIMEOUT_S - 0.01)
    assert t.screen().kind is Phase.CONFIRM
    t.wait_until(QUESTION_TIMEOUT_S + 0.01)
    assert t.screen().kind is Phase.SETUP


@pytest.mark.parametrize("opener", [BOTH, E])
def test_a_question_over_a_running_era_closes_itself_and_the_clock_ran_on(
        opener: Button) -> None:
    t = running_era(30.0)
    at = t.running()
    assert at is not None
    ask(t, opener)
    t.wait_until(t.now + QUESTION_TIMEOUT_S + 0.01)
    assert t.screen().kind is Phase.RUNNING
    assert t.running() == pytest.approx(at + QUESTION_TIMEOUT_S + 0.01)


@pytest.mark.parametrize("opener", [BOTH, E])
def test_next_cancels_the_question_back_to_the_same_place(opener: Button) -> None:
    t = running_era(30.0)
    ask(t, opener)
    t.do(N)
    assert t.screen().kind is Phase.RUNNING and t.running() == pytest.approx(30.0)


@pytest.mark.parametrize("opener", [BOTH, E])
def test_a_cry_falling_due_under_a_question_sounds_at_its_time(opener: Button) -> None:
    t = running_era(FIRST_CRY - 4)
    ask(t, opener)
    t.wait_until(LEAD_IN + FIRST_CRY - 1e-3)
    assert t.screen().kind is Phase.CONFIRM and t.sounds(Sound.CRY) == []
    t.wait_until(LEAD_IN + FIRST_CRY + 1e-3)
    assert t.sounds(Sound.CRY) == pytest.approx([LEAD_IN + FIRST_CRY])


def test_a_cry_falling_due_under_a_question_closes_it() -> None:
    t = running_era(FIRST_CRY - 4)
    ask(t, BOTH)
    t.wait_until(LEAD_IN + FIRST_CRY + 1e-3)
    assert t.screen().kind is Phase.RUNNING and t.screen().prompt is Prompt.SCHOLARS


def test_the_end_gong_under_a_question_ends_the_era() -> None:
    t = running_era(LENGTH - 5)
    ask(t, BOTH)
    t.wait_until(LEAD_IN + LENGTH + 0.5)
    assert t.sounds(Sound.GONG) == pytest.approx([LEAD_IN, LEAD_IN + LENGTH])
    assert t.play.spot.state is State.SCORING  # beneath the question, still open


def test_the_end_gong_under_a_question_closes_it() -> None:
    t = running_era(LENGTH - 5)
    ask(t, BOTH)
    t.wait_until(LEAD_IN + LENGTH + 0.5)
    assert t.screen().kind is Phase.SCORING


def test_yes_to_a_new_game_starts_era_one_afresh() -> None:
    t = running_era(30.0)
    ask(t, BOTH)
    t.do(E)  # yes
    shown = t.screen()
    assert shown.kind is Phase.SETUP and shown.era == 1 and t.running() is None
