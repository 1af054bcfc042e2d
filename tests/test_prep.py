"""The preparation guide's steps (docs/game.md's preparation checklist) for each era and player
count: one test per case, each checked against the checklist's rules, not against a list
copied from the code."""

from __future__ import annotations

import pytest

from erabox.core.config import DEFAULT_PLAYERS, Config
from erabox.core.engine import ProfileEngine
from erabox.core.guide import guided
from erabox.core.model import Button, Gesture, Input, Mode, Phase
from erabox.core.prep import Part, PrepStep, era_steps, game_setup, position, steps
from erabox.files.games import own_rounds

REMOVE = {"prep_remove_cards", "prep_remove_leaders"}


def check(era: int, players: int) -> list[PrepStep]:
    guide = list(steps(era, players))
    keys = [s.key for s in guide]
    # Era I skips removing the previous era's cards and leaders; later eras remove both,
    # each before the new ones are placed.
    if era == 1:
        assert not REMOVE & set(keys)
    else:
        assert keys.index("prep_remove_cards") < keys.index("prep_tech_decks")
        assert keys.index("prep_remove_leaders") < keys.index("prep_leaders")
    # The wonder board holds one wonder per era so far; the bonus token is worth the era's VP.
    assert [s.n for s in guide if s.key == "prep_wonder"] == [era]
    assert [s.n for s in guide if s.key == "prep_bonus_token"] == [era]
    # The extra leader in the rightmost space: 4 players only, right after the others.
    if players == 4:
        assert keys[keys.index("prep_leaders") + 1] == "prep_extra_leader"
    else:
        assert "prep_extra_leader" not in keys
    # The rulebook's order: boards, then hourglasses, scholars, and the token last (it is the
    # decision made just before the action phase).
    order = ["prep_tech_decks", "prep_wonder", "prep_leaders", "prep_hourglasses",
             "prep_scholars", "prep_bonus_token"]
    assert [k for k in keys if k in order] == order
    assert len(keys) == len(set(keys)) == 6 + (era > 1) * 2 + (players == 4)
    return guide


def test_era_1_two_players() -> None:
    check(1, 2)


def test_era_1_three_players() -> None:
    check(1, 3)


def test_era_1_four_players() -> None:
    check(1, 4)


def test_era_2_two_players() -> None:
    check(2, 2)


def test_era_2_three_players() -> None:
    check(2, 3)


def test_era_2_four_players() -> None:
    check(2, 4)


def test_era_3_two_players() -> None:
    check(3, 2)


def test_era_3_three_players() -> None:
    check(3, 3)


def test_era_3_four_players() -> None:
    check(3, 4)


@pytest.mark.parametrize("era", [1, 2, 3])
def test_more_players_only_adds_the_extra_leader(era: int) -> None:
    assert steps(era, 2) == steps(era, 3)
    assert len(steps(era, 4)) == len(steps(era, 3)) + 1


# --- the game's setup (before Era I) and the introductory era's own steps ----------------------

GAME_ORDER = ["setup_players", "setup_wonders", "setup_terrain", "setup_technology",
              "setup_leader_decks", "setup_effect_tiles", "setup_player_board",
              "setup_player_cards", "setup_resources", "setup_birth"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", [Mode.REALTIME, Mode.INTRO])
def test_a_new_game_opens_on_its_setup_for_the_player_count_then_era_1(
        players: int, mode: Mode) -> None:
    guide = steps(1, players, mode, first=True)
    setup = [s for s in guide if s.part is Part.GAME]
    assert guide[:len(setup)] == tuple(setup) == game_setup(players)  # the setup comes first
    keys = [s.key for s in setup]
    # the player count first (settings change it), the birth of the empire last
    assert keys[0] == "setup_players" and keys[-1] == "setup_birth"
    assert [s.n for s in setup if s.key in ("setup_players", "setup_terrain")] == [players] * 2
    # the leader effect tile of the rightmost column: 4 players only, after the other three
    assert ("setup_extra_effect" in keys) is (players == 4)
    if players == 4:
        assert keys[keys.index("setup_effect_tiles") + 1] == "setup_extra_effect"
    assert [k for k in keys if k != "setup_extra_effect"] == GAME_ORDER
    # then Era I's own preparation, in its mode
    assert guide[len(setup):] == era_steps(1, players, mode)
    assert position(guide, 0) == (1, len(setup))
    assert position(guide, len(setup)) == (1, len(guide) - len(setup))


@pytest.mark.parametrize("era", [1, 2, 3])
def test_the_game_setup_is_only_before_era_1(era: int) -> None:
    assert all(s.part is Part.ERA for s in steps(era, 4, first=era > 1))
    assert (steps(era, 3, first=True) != steps(era, 3)) is (era == 1)


@pytest.mark.parametrize("era", [1, 2, 3])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_introductory_era_has_its_own_hourglasses_and_era_1_its_start_player(
        era: int, players: int) -> None:
    real = [s.key for s in steps(era, players, Mode.REALTIME)]
    intro = [s.key for s in steps(era, players, Mode.INTRO)]
    assert "prep_hourglasses" in real and "prep_hourglasses_intro" not in real
    assert "prep_hourglasses" not in intro
    expected = [k if k != "prep_hourglasses" else "prep_hourglasses_intro" for k in real]
    if era == 1:  # the oldest player takes the box, right after the hourglasses
        at = expected.index("prep_hourglasses_intro") + 1
        expected.insert(at, "prep_oldest_holds_box")
    assert intro == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_fresh_box_walks_the_first_game_guide_of_the_round_file(players: int) -> None:
    """Time of Empires' round file, its guide on (as the box plays it, `guided`), walks the
    game's setup then Era I's preparation exactly as `steps` lists them; one NEXT hold skips
    the whole guide; ERA starts the era from any step."""
    engine = ProfileEngine(guided(own_rounds(), True), Config(players=DEFAULT_PLAYERS[:players]))
    fresh, _ = engine.fresh(0.0, 0)
    first = engine.screen(fresh, 0.0)
    assert (first.guide_step, first.guide_n, first.guide_part) == ("setup_players", players,
                                                                  "game")
    guide = steps(1, players, Mode.REALTIME, first=True)
    play, shown = fresh, []
    for _ in range(len(guide)):  # NEXT through the game's setup and Era I's preparation
        shown.append(engine.screen(play, 0.0).guide_step)
        play, _ = engine.step(play, Input(Button.NEXT, Gesture.PRESS), 0.0)
    assert shown == [s.key for s in guide] and engine.screen(play, 0.0).kind is Phase.SETUP
    skipped, _ = engine.step(fresh, Input(Button.NEXT, Gesture.HOLD), 0.0)
    assert engine.screen(skipped, 0.0).kind is Phase.SETUP
    middle = fresh
    for _ in range(3):
        middle, _ = engine.step(middle, Input(Button.NEXT, Gesture.PRESS), 0.0)
    for at in (fresh, middle):
        started, _ = engine.step(at, Input(Button.ERA, Gesture.PRESS), 0.0)
        assert engine.screen(started, 0.0).kind is Phase.LEAD_IN
