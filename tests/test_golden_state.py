"""A box resumes the files an earlier version left behind (tests/golden/state-v1: written by
the code before preallocated saves): each comes back as what it was, nothing moved aside."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from erabox.adapters.settings_file import SettingsFile, settings_path
from erabox.adapters.state_file import StateFile
from erabox.core.config import Config
from erabox.core.era_lines_state import state_word
from erabox.core.model import Phase, Prompt
from erabox.run.driver import Driver

GOLDEN = Path(__file__).parent / "golden" / "state-v1"

EXPECT = {  # file -> (phase after the restart, era held at (s), prompt)
    "setup": (Phase.SETUP, None, Prompt.RESUMED),
    "running": (Phase.PAUSED, 55.0, Prompt.RESUMED),
    "armed": (Phase.PAUSED, 180.0, Prompt.RESUMED),
    "sounded-ahead": (Phase.PAUSED, 180.0, Prompt.SCHOLARS),
    "scholar-prompt": (Phase.PAUSED, 183.0, Prompt.SCHOLARS),
    "paused": (Phase.PAUSED, 183.0, Prompt.SCHOLARS),
    "scoring": (Phase.SCORING, None, Prompt.RESUMED),
    "intro-intro_round-round-4": (Phase.INTRO_ROUND, None, Prompt.RESUMED),
}


def resume(folder: Path, config: Config) -> tuple[Driver, StateFile]:
    state = StateFile(folder / "state.json")
    driver = Driver(config, state=state, settings=SettingsFile(settings_path(state.path)))
    driver.start(1000.0)
    return driver, state


@pytest.mark.parametrize("name", list(EXPECT))
def test_a_state_file_of_the_first_format_resumes(name: str, tmp_path: Path) -> None:
    shutil.copy(GOLDEN / f"{name}.state.json", tmp_path / "state.json")
    config = Config(guide=name == "setup")
    driver, state = resume(tmp_path, config)
    try:
        phase, held, prompt = EXPECT[name]
        word, running = state_word(driver.game, 1000.0)  # in Time of Empires' words
        assert word == phase.value
        if held is not None:
            assert running == pytest.approx(held)
        assert driver.screen(1000.0).prompt is prompt
        assert not list(tmp_path.glob("*.bad-*")), "moved aside"
    finally:
        state.close()


def test_settings_and_a_setup_of_the_first_format_resume_together(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "setup-under-settings.state.json", tmp_path / "state.json")
    shutil.copy(GOLDEN / "two-players-ja.settings.json", tmp_path / "settings.json")
    driver, state = resume(tmp_path, Config())
    try:
        assert driver.game.players == ("blue", "red")
        assert driver.language == "ja"
        assert state_word(driver.game, 1000.0)[0] == Phase.SETUP.value
        assert not list(tmp_path.glob("*.bad-*")), "moved aside"
    finally:
        state.close()
