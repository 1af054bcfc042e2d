"""A tie-break for first place only (docs/profiles.md, `[[scoring.tie_break]] only_first`):
the rule orders only the players tied for the most points, as Time of Empires' buildings on
the central board; players tied below share their place, and their number for the rule is
not asked. Bad values name the file, line and key."""

from __future__ import annotations

import pytest

import erabox.core.scores as scores
from erabox.core.profile import Profile, ProfileError, parse_profile

TEXT = """\
[game]
name = "Empires"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "play"
label = "Play"
steps = ["Play"]

[[scoring.category]]
id = "culture"
label = "Culture"

[[scoring.category]]
id = "buildings"
label = "Buildings"
counts = false

[[scoring.tie_break]]
more = "buildings"
only_first = true
"""


def profile(text: str = TEXT) -> Profile:
    return parse_profile(text, "empires.toml")


def sheet(culture: tuple[int, ...], buildings: tuple[int | None, ...]) -> scores.Sheet:
    return (tuple((c,) for c in culture),
            tuple(None if b is None else (b,) for b in buildings))


def places(game: Profile, entered: scores.Sheet) -> list[tuple[int, int]]:
    return [(line.place, line.seat) for line in scores.ranking(game, entered, None)]


def test_only_the_players_tied_for_first_are_told_apart() -> None:
    game = profile()
    # 12, 12, 3, 3: the buildings order the first two; the last two share third place
    entered = sheet((12, 12, 3, 3), (1, 4, 9, 0))
    assert places(game, entered) == [(1, 1), (2, 0), (3, 2), (3, 3)]
    everyone = profile(TEXT.replace("only_first = true\n", ""))
    assert places(everyone, entered) == [(1, 1), (2, 0), (3, 2), (4, 3)]


def test_the_players_tied_below_first_are_not_asked() -> None:
    game = profile()
    entered = sheet((12, 0, 0, 0), (None, None, None, None))
    assert not any(scores.needed(game, entered, None, 1, seat) for seat in range(4))
    assert places(game, entered) == [(1, 0), (2, 1), (2, 2), (2, 3)]
    tied = sheet((5, 5, 0, 0), (None, None, None, None))
    assert [scores.needed(game, tied, None, 1, seat) for seat in range(4)] == [
        True, True, False, False]
    unknown = ((None, (5,), (0,), (0,)), tied[1])  # red's total not known yet: may lead
    assert [scores.needed(game, unknown, None, 1, seat) for seat in range(4)] == [
        True, True, False, False]
    everyone = profile(TEXT.replace("only_first = true\n", ""))
    assert all(scores.needed(everyone, tied, None, 1, seat) for seat in range(4))


def test_only_first_is_checked() -> None:
    with pytest.raises(ProfileError, match=r"empires\.toml:28: key "
                       r"'scoring\.tie_break\[1\]\.only_first': expected true or false"):
        profile(TEXT.replace("only_first = true", 'only_first = "yes"'))
    eliminations = TEXT.replace("[[scoring.category]]\nid = \"culture\"",
                                "[scoring]\norder = \"eliminations\"\n\n[[scoring.stage]]\n"
                                "category = \"culture\"\n\n[[scoring.category]]\n"
                                "id = \"culture\"")
    with pytest.raises(ProfileError, match=r"key 'scoring\.tie_break\[1\]\.only_first': "
                       r"only_first needs order = \"total\""):
        profile(eliminations)
