"""What the profile screens tell the players, read as text off the renderer's items
(`layout_play`): Lords of Xidit's Titans and undo hinted where they can be started, the setup
notes spoken to the table and paged, the questions the scoring leaves out, and what decided each
place of the final ranking. Both panels, both languages."""

from __future__ import annotations

import pytest

from erabox.core.model import Button, Gesture, Input
from erabox.core.profile_machine import step
from erabox.core.profile_play import Play, new_play, screen
from erabox.profile_file import load_game
from erabox.ui.panel import Panel
from erabox.ui.profile_screens import layout_play

BIG, SMALL = Panel(), Panel(height=32)
N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
N_HOLD, E_HOLD = Input(Button.NEXT, Gesture.HOLD), Input(Button.ERA, Gesture.HOLD)


def xidit(players: tuple[str, ...] = ("red", "blue", "green")) -> Play:
    return new_play(load_game("lords-of-xidit", []), players)


def press(play: Play, *events: Input) -> Play:
    for event in events:
        play, _ = step(play, event, 0.0)
    return play


def shown(play: Play, panel: Panel, language: str = "en") -> list[str]:
    """The lines of text on the screen, top to bottom."""
    items = sorted(layout_play(screen(play, 0.0), panel, language), key=lambda i: (i.y, i.x))
    return [i.text for i in items if i.text]


@pytest.mark.parametrize(("language", "titans", "undo"), [
    ("en", "hold ERA: The Titans awaken", "hold NEXT: undo"),
    ("ja", "ERA長押し: タイタンの目覚め", "NEXT長押し: 戻す")])
def test_a_round_names_the_event_hold_era_starts_and_how_to_undo(
        language: str, titans: str, undo: str) -> None:
    play = press(xidit(), E_PRESS, N_PRESS)  # year 1, the first action
    big = " | ".join(shown(play, BIG, language))
    assert titans in big and undo in big
    assert titans in " | ".join(shown(play, SMALL, language))
    play = press(play, E_HOLD)  # the Titans: no event can be started now, nor after
    assert "ERA" not in " ".join(shown(play, BIG, language)).replace("NEXT", "")
    play = press(play, *[N_PRESS] * 5)
    assert titans not in " | ".join(shown(play, BIG, language))
