"""Undo at the scoring's first number of an era that the clock ended: nothing (the era
engine's rule, kept by the one engine). Before, ERA hold there went back into the era and
counted the whole countdown down again: its lead-in, its gong and both cries a second time
(found by tests/test_rounds_random_play.py)."""

from __future__ import annotations

from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import Button, Gesture, Input, PlaySound, Sound, Tick
from erabox.core.play import Play, State
from erabox.files.games import own_rounds

CONFIG = Config(guide=False, points_entry="totals")


def engine() -> ProfileEngine:
    return ProfileEngine(configured(guided(own_rounds(), False), CONFIG), CONFIG)


def to_the_scoring(box: ProfileEngine) -> tuple[Play, float]:
    """Era I in real time, started at 0 and run out (its end gong at 545 s)."""
    play, _ = box.fresh(0.0, 0)
    play, _ = box.step(play, Input(Button.ERA, Gesture.PRESS), 0.0)
    now = 0.0
    while (due := box.next_deadline(play, now)) is not None and due <= 600.0:
        now = due
        play, _ = box.step(play, Tick(), now)
    assert play.spot.state is State.SCORING
    return play, 600.0


def test_undo_at_the_first_number_of_an_era_the_clock_ended_does_nothing() -> None:
    box = engine()
    play, now = to_the_scoring(box)
    after, effects = box.step(play, Input(Button.ERA, Gesture.HOLD), now)
    assert after.spot == play.spot and after.timer_end is None
    assert not [e for e in effects if isinstance(e, PlaySound)]
    later = box.next_deadline(after, now)
    assert later is None or not [e for e in box.step(after, Tick(), later)[1]
                                 if isinstance(e, PlaySound) and e.sound is Sound.CRY]


def test_undo_still_takes_back_a_number_confirmed_in_that_scoring() -> None:
    box = engine()
    play, now = to_the_scoring(box)
    first = play.spot
    play, _ = box.step(play, Input(Button.NEXT, Gesture.PRESS), now)  # 1 point
    play, _ = box.step(play, Input(Button.ERA, Gesture.PRESS), now)  # confirmed
    assert play.spot != first
    back, _ = box.step(play, Input(Button.ERA, Gesture.HOLD), now)
    assert back.spot == first and back.value == 1
