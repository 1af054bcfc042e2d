"""The guarantee adapts to the card (docs/power-cuts.md, "The cost, and the condition"): the box
measures how long its durable writes take and records a call "sounded" far enough ahead of it
that the record is on disk before the call goes out, without the call waiting; the running
clock is saved often enough that a cut loses at most `SAVE_EVERY_S` of running time.

`TimedCard` is a card on a virtual clock: each write takes `write_s`, one at a time, the newest
snapshot waiting behind the one being written (as the state file's writer does); the driver
waits on it as on the real file."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, IntroConfig
from erabox.core.model import Button, Gesture, Input, Mode, PlaySound, Sound, Tick
from erabox.core.play import SAVE_EVERY_S, SAVE_SLACK_S
from erabox.core.record import MAX_SOUNDED_LEAD_S, SOUNDED_LEAD_S, card_lead, clean_write_s
from erabox.files.games import own_rounds
from erabox.run.driver import Driver
from saved_game import saved_position
from timed_card import TimedCard

CONFIG = Config(guide=False)  # Time of Empires' real-time era: a 5 s lead-in, 540 s
LENGTH_S = CONFIG.realtime.length_s
LEAD_IN_S = 5.0
CALLS_S = (0.0, *CONFIG.realtime.scholar_cues_s, LENGTH_S)  # start gong, cries, end gong


class Listener:
    """Audio that notes each call (a gong or a cry) as it goes out, and what the card had on
    disk then."""

    problem: str | None = None

    def __init__(self, card: TimedCard) -> None:
        self.card = card
        self.calls: list[tuple[float, str | None]] = []
        self.heard: list[tuple[str, str | None]] = []

    def apply(self, effects: Any, now: float) -> None:
        for effect in effects:
            if isinstance(effect, PlaySound):
                self.heard.append((effect.sound.value, self.card.landed))
                if effect.sound is not Sound.TICK:
                    self.calls.append((now, self.card.landed))


def play_era(write_s: float, mutate_lead: bool = False) -> tuple[TimedCard, list[float]]:
    """Time of Empires' real-time era played from its round file through a driver on
    `TimedCard(write_s)`: the card and the lateness of each call (s after its time). Asserts
    at each call that the record on disk gives it (a cut then cannot sound it again)."""
    card = TimedCard(write_s)
    ears = Listener(card)
    driver = Driver(CONFIG, profile=own_rounds(), state=card, audio=ears,  # type: ignore[arg-type]
                    clock=lambda: card.now)
    if mutate_lead:  # the lead as it was: a fixed tenth of a second
        driver._follow_card = lambda: None  # type: ignore[method-assign]
    driver.start(0.0)
    driver.step(Input(Button.ERA, Gesture.PRESS), 0.0)  # the lead-in, then the era
    while (due := driver.next_deadline(card.now)) is not None and due <= LEAD_IN_S + LENGTH_S:
        card.now = max(card.now, due)
        card._run_until(card.now)
        driver.step(Tick(), card.now)
    assert len(ears.calls) == len(CALLS_S), ears.calls
    late = []
    for (at, on_disk), call_s in zip(ears.calls, CALLS_S, strict=True):
        late.append(at - (LEAD_IN_S + call_s))
        assert on_disk is not None
        state, elapsed = saved_position(on_disk, LENGTH_S)
        given = (state == "scoring" if call_s == LENGTH_S else  # the end gong: the scoring
                 state == "running" and elapsed is not None and elapsed >= call_s - 1e-6)
        assert given, f"the call at {call_s} s went out at {at:.3f} s before its record: {on_disk}"
    return card, late


@pytest.mark.parametrize("write_s", [0.0, 0.05, 0.2, 0.5, 1.0])
def test_on_a_slow_card_each_call_is_recorded_before_it_goes_out_and_is_never_late(
        write_s: float) -> None:
    card, late = play_era(write_s)
    assert max(late) <= 1e-6 and min(late) >= -1e-6, late
    # At most SAVE_EVERY_S (SAVE_SLACK_S more on some cards) of running time lost by a cut at
    # any instant: between two landings, the record on disk is at most that far behind.
    lost = 0.0
    previous = 0.0  # the start gong's record: running time 0
    for at, text in card.landings:
        state, elapsed = saved_position(text, LENGTH_S)
        if at < LEAD_IN_S or state != "running" or elapsed is None:
            continue
        lost = max(lost, (at - LEAD_IN_S) - previous)
        previous = elapsed
    assert lost <= SAVE_EVERY_S + SAVE_SLACK_S + 1e-6, lost


@pytest.mark.parametrize("write_s", [0.2, 0.5, 1.0])
def test_with_the_fixed_tenth_of_a_second_a_slow_card_sends_a_call_before_its_record(
        write_s: float) -> None:
    """The finding: a fixed lead lets the call go out before its record is on disk."""
    with pytest.raises(AssertionError, match="before its record"):
        play_era(write_s, mutate_lead=True)


def test_the_lead_follows_the_measured_write_time() -> None:
    assert card_lead(0.0) == SOUNDED_LEAD_S
    expect = {0.01: 0.12, 0.05: 0.2, 0.06: 0.22, 0.2: 0.5, 0.5: 1.1, 1.0: 2.1, 2.0: 4.1,
              2.5: MAX_SOUNDED_LEAD_S, 500.0: MAX_SOUNDED_LEAD_S}
    for write_s, lead in expect.items():
        assert card_lead(write_s) == pytest.approx(lead), write_s
    for nonsense in (float("nan"), float("-inf"), float("inf"), -3.0):
        assert clean_write_s(nonsense) == 0.0


def test_the_state_file_measures_its_durable_writes_from_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        time.sleep(0.03)  # a slow card: each fsync takes at least this
        real_fsync(fd)

    state = StateFile(tmp_path / "state.json")
    assert state.write_s == 0.0
    monkeypatch.setattr(os, "fsync", slow_fsync)
    try:
        state.lock()  # the lock's pid file is written like a save: the first measure
        assert state.write_s >= 0.03
        state.save({"schema": 1})
        assert state.flush(10.0) and state.write_s >= 0.06  # the file and its folder
    finally:
        state.close()


def test_the_driver_follows_the_card_and_logs_the_wider_window(
        caplog: pytest.LogCaptureFixture) -> None:
    card = TimedCard(0.5)
    driver = Driver(CONFIG, profile=own_rounds(), state=card, clock=lambda: card.now)
    with caplog.at_level(logging.INFO, logger="erabox"):
        driver.start(0.0)
    assert driver.game.write_s == 0.5
    said = [r.getMessage() for r in caplog.records if "recorded as sounded" in r.getMessage()]
    assert said and "1.10 s ahead" in said[0], said


@pytest.mark.parametrize("write_s", [0.5, 1.0])
def test_on_a_slow_card_an_introductory_cry_waits_for_its_press_to_be_on_disk(
        write_s: float) -> None:
    """A press's change is on disk before its sound however slow the card (the loop waits as
    long as the card's measured writes take), so a cut cannot undo a cry the table heard."""
    intro = Config(guide=False, default_mode=Mode.INTRO,
                   intro=IntroConfig(rounds=4, scholar_after_rounds=(2,)))
    card = TimedCard(write_s)
    ears = Listener(card)
    driver = Driver(intro, profile=own_rounds(), state=card, audio=ears,  # type: ignore[arg-type]
                    clock=lambda: card.now)
    driver.start(0.0)
    driver.step(Input(Button.ERA, Gesture.PRESS), card.now)
    for _ in range(2):
        card.now += 5.0
        driver.step(Input(Button.NEXT, Gesture.PRESS), card.now)
    assert saved_position(driver.engine.snapshot(driver.game, card.now), 540.0)[0] == "scholars"
    cry = [on_disk for sound, on_disk in ears.heard if sound == "cry"]
    assert len(cry) == 1 and saved_position(cry[0] or "null", 540.0)[0] == "scholars"
