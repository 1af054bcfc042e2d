"""A game of more than three eras (a copy of games/time-of-empires.toml with more `[[era]]`
tables): the settings menu sets the mode of every era and the settings file keeps them, old
files of three included (docs/profiles.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.core import settings as menu
from erabox.core.config import Config
from erabox.core.model import Mode

R, INTRO = Mode.REALTIME, Mode.INTRO
GOLDEN_SETTINGS = Path(__file__).parent / "golden" / "state-v1" / "two-players-ja.settings.json"


# --- the settings menu and file ---------------------------------------------------------------


def five_eras(**fields: Any) -> Config:
    return Config(eras=5, **fields)


@pytest.mark.parametrize("eras", [4, 5, 9])
def test_the_menu_sets_the_mode_of_every_era_the_game_has(eras: int) -> None:
    three = menu.defaults(Config())  # Time of Empires': as it was
    assert [i for i in menu.items(three) if i.startswith("mode")] == ["mode1", "mode2", "mode3"]
    settings = menu.defaults(Config(eras=eras))
    assert [i for i in menu.items(settings) if i.startswith("mode")] == [
        f"mode{n}" for n in range(1, eras + 1)]
    for era in range(1, eras + 1):
        settings = menu.change(settings, f"mode{era}", ())
        assert settings.modes[era - 1] is INTRO
        assert menu.mode(menu.apply(Config(eras=eras), settings), era) is INTRO


def test_the_settings_file_keeps_every_eras_mode() -> None:
    settings = menu.change(menu.change(menu.defaults(five_eras()), "mode4", ()), "mode2", ())
    saved = json.loads(json.dumps(menu.to_dict(settings)))
    assert saved["modes"] == ["realtime", "intro", "realtime", "intro", "realtime"]
    again = menu.from_dict(saved, five_eras())
    assert again.modes == (R, INTRO, R, INTRO, R)
    played = menu.apply(five_eras(), again)
    assert [menu.mode(played, era) for era in range(1, 6)] == [R, INTRO, R, INTRO, R]
    assert menu.to_dict(menu.defaults(Config()))["modes"] == ["realtime"] * 3  # as it was


def test_an_old_settings_file_of_three_modes_loads_later_eras_in_era_ones_mode() -> None:
    saved = json.loads(GOLDEN_SETTINGS.read_text(encoding="utf-8"))
    assert len(saved["modes"]) == 3
    loaded = menu.from_dict(saved, five_eras())
    assert loaded.modes == (R,) * 5
    saved["modes"] = ["intro", "realtime", "realtime"]
    loaded = menu.from_dict(saved, five_eras())
    assert loaded.modes == (INTRO, R, R, INTRO, INTRO)  # as Era I, as such a file always did
    assert menu.from_dict(saved, Config()).modes == (INTRO, R, R)  # three eras: as it was


def test_a_settings_file_of_more_modes_than_the_game_has_eras_keeps_them() -> None:
    saved = menu.to_dict(menu.change(menu.defaults(five_eras()), "mode5", ()))
    three = menu.from_dict(saved, Config())
    assert [i for i in menu.items(three) if i.startswith("mode")] == ["mode1", "mode2",
                                                                      "mode3"]
    assert menu.to_dict(three)["modes"][4] == "intro"  # back to five eras, Era V's is there


@pytest.mark.parametrize("modes", [["realtime"] * 2, ["realtime"] * 10, ["realtime"] * 4
                                   + ["fast"]])
def test_a_settings_file_with_too_few_too_many_or_unknown_modes_is_refused(
        modes: list[str]) -> None:
    saved = {**menu.to_dict(menu.defaults(five_eras())), "modes": modes}
    with pytest.raises(menu.SettingsError, match=r"'modes' should be 3 to 9 of "):
        menu.from_dict(saved, five_eras())
