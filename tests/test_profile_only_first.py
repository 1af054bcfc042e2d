"""`[[scoring.tie_break]] only_first = true` (docs/profiles.md): a tie-break that breaks
only a tie for the first place, as Time of Empires breaks only a tie for the most points
with the buildings (players tied below share their place, and are not asked a number only
the tie-break needs).
"""

from __future__ import annotations

import pytest

from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.core.scores import Sheet, needed, ranking

RACE = """\
[game]
id = "race"
name = "Race"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "act"
label = "Act"

[[scoring.category]]
id = "gold"
label = "Gold"

[[scoring.category]]
id = "tiles"
label = "Tiles"
counts = false

[[scoring.tie_break]]
more = "tiles"
only_first = true
"""
GOLD, TILES = 0, 1


def race(text: str = RACE) -> Profile:
    return parse_profile(text, "race.toml")


def sheet(gold: tuple[int | None, ...], tiles: tuple[int | None, ...]) -> Sheet:
    return (tuple(None if v is None else (v,) for v in gold),
            tuple(None if v is None else (v,) for v in tiles))


def places(profile: Profile, numbers: Sheet) -> list[tuple[int, int]]:
    return [(line.place, line.seat) for line in ranking(profile, numbers, 0)]


def test_a_tie_below_the_first_place_is_shared() -> None:
    numbers = sheet((5, 2, 2), (0, 3, 1))
    assert places(race(), numbers) == [(1, 0), (2, 1), (2, 2)]
    # without the key the tiles tell blue and green apart
    assert places(race(RACE.replace("only_first = true\n", "")), numbers) == [
        (1, 0), (2, 1), (3, 2)]


def test_a_tie_for_the_first_place_is_broken() -> None:
    assert places(race(), sheet((5, 5, 2), (1, 3, 0))) == [(1, 1), (2, 0), (3, 2)]


def test_only_players_who_may_be_first_are_asked_the_tie_breaks_numbers() -> None:
    below = sheet((5, 2, 2), (None, None, None))
    assert [needed(race(), below, 0, TILES, seat) for seat in range(3)] == [False] * 3
    without = race(RACE.replace("only_first = true\n", ""))
    assert [needed(without, below, 0, TILES, seat) for seat in range(3)] == [
        False, True, True]
    tied = sheet((5, 5, 2), (None, None, None))
    assert [needed(race(), tied, 0, TILES, seat) for seat in range(3)] == [True, True, False]
    unknown = sheet((5, None, 2), (None, None, None))  # blue may still tie with red
    assert [needed(race(), unknown, 0, TILES, seat) for seat in range(3)] == [
        True, True, False]


@pytest.mark.parametrize(("text", "problem"), [
    (RACE.replace("only_first = true", "only_first = 1"),
     "race.toml:28: key 'scoring.tie_break[1].only_first': expected true or false"),
    # (only_first with order = "eliminations": tests/test_profile_tie_first.py)
])
def test_a_wrong_value_names_the_file_line_and_key(text: str, problem: str) -> None:
    with pytest.raises(ProfileError) as error:
        race(text)
    assert str(error.value).startswith(problem)
