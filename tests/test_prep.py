"""The preparation guide's steps (docs/game.md's preparation checklist) for each era and player
count: one test per case, each checked against the checklist's rules, not against a list
copied from the code."""

from __future__ import annotations

import pytest

from erabox.core.prep import PrepStep, steps

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
