"""The scoring's "Points n/count" where players go out (Lords of Xidit's stages, `[[scoring.
stage]] eliminate`; a player out is not asked the later criteria, a number that breaks no tie
is not asked): the count only counts the numbers sure to be asked, so it never falls and
never promises a number that is not asked; "+" says more may be asked (core/play.py
`scoring_position`, core/scores.py `surely`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from erabox.core.config import parse_config
from erabox.core.effects import PlayScreen
from erabox.core.engine import ProfileEngine
from erabox.core.model import Button, Gesture, Input
from erabox.core.profile import parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

GAMES = Path(__file__).resolve().parent.parent / "device" / "erabox" / "games"
XIDIT = parse_profile((GAMES / "lords-of-xidit.toml").read_text(encoding="utf-8"),
                      "lords-of-xidit.toml")
NEXT, HOLD, ERA = (Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD),
                   Input(Button.ERA, Gesture.PRESS))
YEARS = 12 * 7 + 3 * 6 + 3  # the long game's years, its censuses, the final harp steps

# players, the numbers asked in order (criteria, then units): the games of
# test_profile_games.py, where players go out after the first and the second criterion
GAMES_PLAYED = {
    "3 players": ("red,blue,green", [5, 3, 1, 4, 2, 7]),
    "4 players": ("red,blue,green,yellow", [3, 3, 5, 6, 2, 5, 4, 1, 6, 1, 6, 1, 4]),
    "5 players": ("red,blue,green,yellow,purple", [5, 3, 8, 1, 2, 4, 4, 2, 7, 1, 2, 2]),
}


def scoring_screens(players: str, numbers: list[int]) -> list[PlayScreen]:
    """The screen of each number asked, as it is first shown."""
    box = ProfileEngine(XIDIT, replace(parse_config("", "c.toml"),
                                       players=tuple(players.split(","))))
    play, _ = box.fresh(0.0, 0)
    t = 0.0
    for gesture in [ERA] + [NEXT] * YEARS:
        t += 1.0
        play, _ = box.step(play, gesture, t)
    shown = [box.screen(play, t)]
    for number in numbers:
        for gesture in [HOLD] * (number // 5) + [NEXT] * (number % 5) + [ERA]:
            t += 1.0
            play, _ = box.step(play, gesture, t)
        shown.append(box.screen(play, t))
    assert shown[-1].kind == "game_over"
    return shown[:-1]


@pytest.mark.parametrize("game", sorted(GAMES_PLAYED))
def test_the_count_never_falls_nor_promises_a_number_not_asked(game: str) -> None:
    screens = scoring_screens(*GAMES_PLAYED[game])
    asked = len(screens)
    assert all(s.kind == "scoring" and s.position is not None for s in screens)
    positions = [s.position for s in screens if s.position is not None]
    assert [n for n, _ in positions] == list(range(1, asked + 1))
    counts = [count for _, count in positions]
    assert counts == sorted(counts)  # never falls
    assert all(n <= count <= asked for n, count in positions)  # never more than asked
    for screen, (_n, count) in zip(screens, positions, strict=True):
        assert screen.more or count == asked  # without "+": the count is the whole
    assert screens[0].more  # at the first criterion, who goes out is not known


@pytest.mark.parametrize("height", [64, 32])
def test_the_count_says_more_may_be_asked(height: int) -> None:
    screens = scoring_screens(*GAMES_PLAYED["5 players"])
    said = {language: [i.text for i in layout_play(screens[0], Panel(128, height), language)]
            for language in ("en", "ja")}
    assert "Points 1/5+" in said["en"] and "得点 1/5+" in said["ja"]
    last = [i.text for i in layout_play(screens[-1], Panel(128, height), "en")]
    assert "Points 12/12" in last  # the last number: sure, no "+"
