"""README says what the box does, word for word, where a new user found it did not: the
settings table lists every item of the menu (Music level was missing) under the screen's own
names, the settings screens' bottom line is quoted as drawn, the terminal's keys are the
ones it reads, and the gesture count of a typical era is the one measured."""

from __future__ import annotations

import re
from pathlib import Path

from erabox.adapters.keyboard import HELP, KEYS, STEP_KEYS
from erabox.core import settings
from erabox.ui.strings import say

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def settings_rows() -> list[str]:
    part = README[README.index("## Settings on the box"):README.index("## Add your own game")]
    return [line.split("|")[1].strip().lower() for line in part.splitlines()
            if line.startswith("| ") and not line.startswith("| item")]


def test_the_settings_table_has_every_menu_item_in_order_by_its_screen_name() -> None:
    rows = settings_rows()
    assert len(rows) == len(settings.ITEMS)
    for row, item in zip(rows, settings.ITEMS, strict=True):
        label = say("en", item.label, n="{n}", era="{era}").lower()
        words = re.sub(r"\{\w+\}|\(.*?\)", "", label).strip()
        assert words in row, (row, label)


def test_the_bottom_line_of_a_settings_screen_is_quoted_as_drawn() -> None:
    quoted = re.search(r'bottom\s+line of every settings screen says the first two \("([^"]+)"\)',
                       README)
    assert quoted is not None
    assert quoted.group(1) == say("en", "hint_menu")
    assert "hold NEXT: previous" not in README  # no screen says it


def test_the_terminals_keys_are_the_ones_readme_teaches() -> None:
    section = README[README.index("On a laptop `make run`"):README.index("## On a Raspberry Pi")]
    for key in KEYS:
        if key != "=":  # a second key for VOL+ on keyboards without a separate +
            assert f"`{key}`" in section, key
    assert sorted(STEP_KEYS) == [str(d) for d in range(10)]
    assert "`1`..`9` and `0` NEXT held\nuntil letting go adds +5..+45 and +50" in section
    assert "`b` a short press of both (-1)" in section and '`B` both held ("New game?")' in section
    assert "17: `3 n n e`" in section
    assert "q quit" in HELP


def test_a_typical_era_takes_the_gestures_readme_says() -> None:
    """tests/test_points_fast.py measures 15 gestures up to the next era: 14 numbers' worth
    and the ERA press that goes on from the standings."""
    assert "takes 14 gestures to enter (15 with\nthe ERA press that goes on from the standings)" \
        in README


def test_points_are_asked_in_seating_order_from_the_oldest_player_as_readme_says() -> None:
    """README said "seating order" while the box starts with the oldest player (who may sit
    in any seat): both now say the box's order, the seats from the oldest player on."""
    from erabox.core import points
    from erabox.core.config import Config

    assert "in seating order starting with the oldest player" in README
    chosen = settings.Settings(seats=("red", "blue", "green"), oldest=1, language="en",
                               modes=settings.defaults(Config()).modes, volume=0.8,
                               final_ticks=True, lead_in_s=5, brightness=255, cue_led=True)
    config = settings.apply(Config(), chosen)
    assert config.players == ("blue", "green", "red")  # the oldest first, then round the seats
    asked = [player for _, player in points.positions(3, by_step=False)]
    assert [config.players[p] for p in asked if p is not None] == ["blue", "green", "red"]


def test_choosing_a_game_and_its_players_takes_the_gestures_readme_says() -> None:
    """tests/test_which_game.py plays them: from Time of Empires' setup, Lords of Xidit for
    five and back at its setup is 7 gestures, the menu opening on "game"."""
    assert settings.ITEMS[0].name == "game" and settings.ITEMS[1].name == "players"
    assert "(it opens on \"game\": from Time of Empires' setup, Lords of Xidit for five\nis 7 " \
        "gestures" in README
