"""Issue #31's trial, looked at: the words on the screens. The settings menu says what holds
for the game chosen in it: Lords of Xidit for five, chosen from the box's first screen, its
"Players" item said "only before Era I" (Time of Empires' words; Lords of Xidit has years,
no eras). A tie-break reads as Japanese."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from erabox.core.config import Config
from erabox.core.model import Phase, Screen
from erabox.core.play import rule_label
from erabox.files.games import game_folders, load_game, offer_games
from erabox.files.script import read_script
from erabox.run.simulate import Simulation
from erabox.ui.game_words import word
from erabox.ui.panel import Panel
from erabox.ui.plans import TextRow, make_plan
from erabox.ui.strings import era_name

TRIALS = Path(__file__).resolve().parent / "trials"


def menu_screens(language: str) -> list[Screen]:
    folders = game_folders(None)
    config = offer_games(replace(Config(), language=language), folders)
    screens: list[object] = []
    sim = Simulation(config, lambda e: None, lambda s, t: screens.append(s),
                     find_profile=lambda name: load_game(name, folders))
    sim.run(read_script(str(TRIALS / "lords-of-xidit-5.txt"))[:6], until=6.5)
    return [s for s in screens if isinstance(s, Screen) and s.kind == Phase.SETTINGS]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_players_item_names_no_era_of_time_of_empires_once_another_game_is_chosen(
        language: str) -> None:
    (players, *_) = [s for s in reversed(menu_screens(language))
                     if s.menu_item == "players"]
    assert players.menu_value == "5"
    plan = make_plan(players, language, Panel())
    notes = [row.text for row in plan.rows if isinstance(row, TextRow) and row.role == "note"]
    assert notes and notes[0], "the item says when it can be changed"
    assert era_name(1, language) not in notes[0]


def test_a_tie_broken_by_fewer_of_a_category_reads_as_japanese() -> None:
    """Hadrian's Wall for five, its final ranking: "1位黄: 49、同点は軽蔑の数が少ないで決着"
    (a predicate where a noun goes); now "...少ない方で決着", as "more" says "多い方"."""
    profile = load_game("hadrians-wall", game_folders(None))
    said = word("ja", "tie_by", rule=rule_label(profile, 0).text("ja"))
    assert said == "同点は軽蔑の数が少ない方で決着"
    assert rule_label(profile, 1).text("ja").endswith("が多い方")
