"""A game profile's press on a slow card: its record is given as long as the card takes.

A special round's cry is a press's sound: the press's record goes to disk first, so a cut
after the cry comes back with the round called. The driver waits for that record as long as
the card's measured writes take (`record.card_lead`), for every game. The store here is a
card that needs `needs` seconds to make a save durable: its flush answers True only when
given that long.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input
from erabox.core.profile import parse_profile
from erabox.run.driver import DURABLE_WAIT_S, Driver, MemoryState

PLAYERS = ("red", "blue")
GAME = """
[game]
name = "Fair"
[players]
min = 2
max = 4
[rounds]
name = "Year"
count = 3
[[phase]]
id = "work"
label = "Work"
[[special]]
id = "fair"
label = "Fair"
after = [1]
sound = "cry"
"""


class SlowCard(MemoryState):
    """A card whose durable writes take `write_s` (as the state file measures them)."""

    def __init__(self, write_s: float) -> None:
        super().__init__()
        self.write_s = write_s
        self.asked: list[float] = []

    def flush(self, timeout: float = 0.0) -> bool:
        self.asked.append(timeout)
        return timeout >= 2.0 * self.write_s  # a save is two syncs on this card


def play(card: SlowCard) -> list[str]:
    sounds: list[str] = []

    class Ear:
        def apply(self, effects: Any, now: float) -> None:
            sounds.extend(e.sound.value for e in effects if hasattr(e, "sound"))

    driver = Driver(Config(players=PLAYERS), profile=parse_profile(GAME, "fair.toml"),
                    state=card, audio=Ear())  # type: ignore[arg-type]
    driver.start(0.0)
    for t, button in ((1.0, Button.ERA), (2.0, Button.NEXT)):  # round 1, then its end: the cry
        event = Input(button, Gesture.PRESS)
        driver.input(event, t)
        driver.step(event, t)
    return sounds


@pytest.mark.parametrize("write_s", [0.0, 0.2, 0.5, 1.0])
def test_the_press_before_a_cry_waits_as_long_as_the_card_writes(
        write_s: float, caplog: pytest.LogCaptureFixture) -> None:
    card = SlowCard(write_s)
    with caplog.at_level(logging.WARNING, logger="erabox"):
        sounds = play(card)
    assert "cry" in sounds
    assert card.asked and min(card.asked) >= max(DURABLE_WAIT_S, 0.1 + 2 * write_s) - 1e-9
    assert "took longer" not in caplog.text  # the record landed before the cry


def test_a_card_slower_than_the_bound_is_logged() -> None:
    card = SlowCard(3.0)  # 6 s a save: past the 5 s bound
    assert play(card)  # the cry still goes out (never held longer than the bound) ...
    assert max(card.asked) == pytest.approx(5.0)


def test_a_profile_play_on_a_slow_card_says_so_and_names_the_press(
        caplog: pytest.LogCaptureFixture) -> None:
    """Time of Empires' whole rule: the card's measured lead is logged, and a record that
    missed names what it held (here a press in the profile's game)."""
    with caplog.at_level(logging.INFO, logger="erabox"):
        play(SlowCard(3.0))
    assert "durable writes take up to 3.000 s on this card" in caplog.text
    game = parse_profile(GAME, "fair.toml").id
    assert f"a save that must be on disk first (a press in {game}) took longer" in caplog.text
