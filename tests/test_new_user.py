"""Issue #31, tried as a new user would: what the first screen and the play screens tell a
table that has only the box in front of it (the trial's note: notes/s37-trial-31.md)."""

from __future__ import annotations

import pytest

from erabox.core.config import DEFAULT_PLAYERS, Config
from erabox.core.era_profile import EraProfile
from erabox.core.machine import new_game, screen
from erabox.core.profile import Profile
from erabox.profile_file import read_game, shipped_games
from erabox.ui.layout import TextItem, layout
from erabox.ui.panel import Panel
from erabox.ui.profile_samples import every_screen
from erabox.ui.profile_screens import layout_play

SHIPPED = sorted(f.name for f in shipped_games().iterdir() if f.name.endswith(".toml"))
PANELS = [Panel(128, 64), Panel(128, 32)]


def shown_text(language: str, panel: Panel) -> str:
    """The text of a fresh box's first screen (the game setup guide's first step)."""
    first = screen(new_game(Config(players=DEFAULT_PLAYERS[:3])), 0.0)
    items = layout(first, language=language, panel=panel).items
    return " ".join(" ".join(item.block.lines) for item in items
                    if isinstance(item, TextItem) and item.role == "guide")


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: f"128x{p.height}")
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_first_screen_names_the_game_played_and_where_to_choose_another(
        language: str, panel: Panel) -> None:
    """Deliver 1 of issue #31: the screen says what was chosen. Time of Empires plays because
    no other game was chosen: its first screen names it (as its profile does) and that the
    settings (hold ERA) choose the game, on both panels, before anything is cut."""
    own = read_game(shipped_games() / "time-of-empires.toml")
    assert isinstance(own, EraProfile)
    text = shown_text(language, panel).replace(" ", "")
    assert own.name.text(language).replace(" ", "") in text
    assert {"en": "settings(game", "ja": "設定（ゲーム"}[language] in text


@pytest.mark.parametrize("file", [f for f in SHIPPED if f != "time-of-empires.toml"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_event_hint_is_shown_whole_on_the_large_panel(file: str, language: str) -> None:
    """"hold ERA: <event>" is how a table learns that the event is its to call (Altay's end
    of the game): on 128x64 it is never cut (it was "hold ERA: End of the game··")."""
    profile = read_game(shipped_games() / file)
    assert isinstance(profile, Profile)
    hints = [placed for shown in every_screen(profile)
             for placed in layout_play(shown, Panel(128, 64), language)
             if placed.role == "event_hint"]
    assert hints or not profile.events
    assert [h.text for h in hints if h.abbreviated] == []
