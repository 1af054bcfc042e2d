"""A round game's timed calls on a slow card: each sounds at its exact time, its record already
on disk (docs/power-cuts.md, "A round game's countdown").

A countdown's call, its lead-in's start gong and its end (recorded before its gong) have their
record written the card's lead ahead (`record.card_lead`: 0.7 s for writes of 0.3 s), with
`Save.by` the call's time: the driver waits for it until then at most, and at the call the sound
goes out with nothing waiting before it. A cut inside that window comes back showing the call
given (its prompt up), and the call is never sounded again. `TimedCard` (tests/timed_card.py)
is a card on a virtual clock whose writes take `write_s` each, one at a time.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from erabox.core import clock
from erabox.core.config import Config
from erabox.core.deadlines import countdown_start
from erabox.core.model import Button, Gesture, Input, PlaySound, Save, Sound, Tick
from erabox.core.play import Play, State, call_words
from erabox.core.profile import parse_profile
from erabox.core.record import card_lead
from erabox.run.driver import Driver, MemoryState
from timed_card import TimedCard

WRITE_S = 0.3  # each durable write takes this long: the lead is 0.1 + 2 x 0.3 = 0.7 s
PLAYERS = ("red", "blue")
GAME = """
[game]
id = "slow-relay"
name = "Slow relay"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "race"
label = "Race"
timer_s = 12
lead_in_s = 2
final_ticks_s = 2
timer_end = "next"
steps = ["Run", "Finish"]

[[phase.call]]
at_s = 4
prompt = { en = "Swap runners", ja = "走者交代" }

[[phase.call]]
at_s = 8.5
sound = "gong"

[[phase]]
id = "rest"
label = "Rest"
steps = ["Breathe"]
"""
PROFILE = parse_profile(GAME, "slow-relay.toml")
RACE = PROFILE.phases[0]


class Ear:
    """Audio that notes each sound with the card's clock when it went out, and the record the
    card had on disk then."""

    def __init__(self, card: TimedCard) -> None:
        self.card = card
        self.heard: list[tuple[Sound, float, dict[str, Any] | None]] = []

    def apply(self, effects: Any, now: float) -> None:
        for effect in effects:
            if isinstance(effect, PlaySound):
                landed = None if self.card.landed is None else json.loads(self.card.landed)
                self.heard.append((effect.sound, self.card.now, landed))


def driver_on(card: TimedCard) -> tuple[Driver, Ear]:
    ear = Ear(card)
    driver = Driver(Config(players=PLAYERS), profile=PROFILE, state=card,  # type: ignore[arg-type]
                    audio=ear, clock=lambda: card.now)  # type: ignore[arg-type]
    driver.start(0.0)
    return driver, ear


def run_to(driver: Driver, card: TimedCard, until: float) -> None:
    """The loop: each deadline up to `until`, the card's clock moved on as the loop's wait."""
    while (due := driver.next_deadline(card.now)) is not None and due <= until:
        card.now = max(card.now, due)
        card._run_until(card.now)
        driver.step(Tick(), card.now)


def started(card: TimedCard) -> tuple[Driver, Ear]:
    """ERA at setup at 1 s: the race's lead-in (2 s), its countdown from 3 s."""
    driver, ear = driver_on(card)
    card.now = 1.0
    driver.step(Input(Button.ERA, Gesture.PRESS), 1.0)
    ear.heard.clear()  # the start gong (a press's sound, waited for as a press's record is)
    return driver, ear


def test_on_a_slow_card_a_round_game_s_calls_sound_at_their_exact_time_recorded() -> None:
    card = TimedCard(WRITE_S)
    driver, ear = started(card)
    assert card_lead(WRITE_S) == pytest.approx(0.7)
    start = countdown_start(driver.game)
    assert start is not None and start == pytest.approx(3.0)
    run_to(driver, card, 20.0)
    assert driver.game.spot.phase == 1  # the race ran out into the rest
    # the lead-in's start gong at 3 s, the calls at 7 s and 11.5 s, the end gong at 15 s
    due = {start: "gong", start + 4: "cry", start + 8.5: "gong", start + 12: "gong"}
    calls = [(sound, at, disk) for sound, at, disk in ear.heard if sound is not Sound.TICK]
    assert [(round(at, 6), sound.value) for sound, at, _ in calls] == sorted(due.items())
    for n, (_, at, disk) in enumerate(calls):  # on time, and on disk before it went out
        assert disk is not None
        if n < 3:
            assert disk["spot"]["phase"] == 0
            given = clock.calls_given(RACE, disk["timer_cues"])
            assert given == n + 1, (at, disk)
        else:
            assert disk["spot"]["phase"] == 1, disk  # the end: the rest, recorded first
    assert getattr(driver.game, "write_s", None) == WRITE_S  # the play knows the card


def cut_inside_the_lead(card: TimedCard) -> tuple[Play, list[tuple[Sound, float]]]:
    """The race played to 6.8 s (the call at 7 s written ahead at 6.3 s, on disk by 6.6 s),
    the power cut then: the play back from the card's text, and the sounds of the rest of it."""
    driver, ear = started(card)
    run_to(driver, card, 6.8)
    card.now = 6.8
    card._run_until(card.now)
    assert not [s for s, _, _ in ear.heard if s is Sound.CRY]  # not sounded yet
    text = card.landed
    assert text is not None
    after = MemoryState()
    after.text = text
    back, ear_back = Driver(Config(players=PLAYERS), profile=PROFILE, state=after), []

    class Listen:
        def apply(self, effects: Any, now: float) -> None:
            ear_back.extend((e.sound, now) for e in effects if isinstance(e, PlaySound))

    back.audio = Listen()  # type: ignore[assignment]
    back.start(100.0)
    restored = back.game
    now = 100.0
    while (due := back.next_deadline(now)) is not None and due <= 200.0:
        now = max(now, due)
        back.step(Tick(), now)
    return restored, ear_back


def test_a_cut_inside_the_lead_window_comes_back_with_the_call_shown_never_sounded_again(
        ) -> None:
    card = TimedCard(WRITE_S)
    restored, sounds = cut_inside_the_lead(card)
    assert restored.spot.state is State.ROUND and restored.spot.phase == 0
    assert clock.calls_given(RACE, restored.cues_done) == 2  # the start gong and the call
    words = call_words(restored, 100.0)
    assert words is not None and words.en == "Swap runners"  # its prompt shown
    heard = [s for s, _ in sounds]
    assert Sound.CRY not in heard  # never sounded a second time
    assert heard.count(Sound.GONG) == 2  # the call at 8.5 s and the end: each once
    # the countdown goes on from the call's time: 4.5 s to the next call, 8 s to its end
    gongs = [t for s, t in sounds if s is Sound.GONG]
    assert gongs == [pytest.approx(104.5), pytest.approx(108.0)]


def test_a_press_resuming_within_the_lead_writes_the_call_s_record_with_its_own_save() -> None:
    """Paused at 6.6 s (the call at 7 s already written ahead: the pause's save takes it back),
    resumed at 10 s, 0.4 s before the call (inside its 0.7 s lead): the resume's own save is
    the call's record, and the call at 10.4 s sounds on time."""
    card = TimedCard(WRITE_S)
    driver, ear = started(card)
    run_to(driver, card, 6.6)
    card.now = 6.6
    driver.step(Input(Button.ERA, Gesture.PRESS), 6.6)  # pause
    assert driver.game.held_left is not None
    disk = json.loads(card.landed or "null")
    assert clock.calls_given(RACE, disk.get("timer_cues", 0)) == 1  # the call not given
    card.now = 10.0
    effects = driver.engine.step(driver.game, Input(Button.ERA, Gesture.PRESS), 10.0)[1]
    record = next(e for e in effects if isinstance(e, Save))
    assert record.durable and record.by is None
    assert clock.calls_given(RACE, record.snapshot["timer_cues"]) == 2
    driver.step(Input(Button.ERA, Gesture.PRESS), 10.0)  # resume
    run_to(driver, card, 10.5)
    cries = [(at, disk) for s, at, disk in ear.heard if s is Sound.CRY]
    assert len(cries) == 1 and cries[0][0] == pytest.approx(10.4)
    assert cries[0][1] is not None and clock.calls_given(RACE, cries[0][1]["timer_cues"]) == 2


def test_a_press_inside_the_lead_keeps_the_call_s_record_written_ahead() -> None:
    """NEXT at 6.5 s, after the call at 7 s was written ahead (6.3 s): the press's own save
    (waited for) is the call's record at the step it moved to, not the play before the call:
    a cut after the call never comes back to sound it again."""
    card = TimedCard(WRITE_S)
    driver, ear = started(card)
    run_to(driver, card, 6.5)
    card.now = 6.5
    driver.step(Input(Button.NEXT, Gesture.PRESS), 6.5)
    disk = json.loads(card.landed or "null")
    assert disk["spot"]["step"] == 1 and clock.calls_given(RACE, disk["timer_cues"]) == 2
    run_to(driver, card, 7.5)
    cries = [(at, disk) for s, at, disk in ear.heard if s is Sound.CRY]
    assert len(cries) == 1 and cries[0][0] == pytest.approx(7.0)
    landed = cries[0][1]
    assert landed is not None and landed["spot"]["step"] == 1
    assert clock.calls_given(RACE, landed["timer_cues"]) == 2
