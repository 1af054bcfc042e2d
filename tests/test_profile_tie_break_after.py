"""`[scoring] tie_break_after = "standings"` (docs/profiles.md): the categories only for the
tie-breaks (`counts = false`) asked after the last era's standings, on the way to the final
ranking, as Time of Empires asks the tied players' buildings after Era III's standings;
only when a tie needs them, undone back to the standings, kept across a power cut.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import (
    Entered,
    Play,
    PlayEffect,
    Ranked,
    Standings,
    State,
    new_play,
    screen,
)
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
ERA_HOLD = Input(Button.ERA, Gesture.HOLD)
PLAYERS = ("red", "blue")

AGES = """\
[game]
id = "ages"
name = "Ages"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "act"
label = "Act"

[[era]]
label = "Dawn"

[[era]]
label = "Dusk"

[scoring]
last_standings = true
tie_break_after = "standings"

[[scoring.category]]
id = "gold"
label = "Gold"

[[scoring.category]]
id = "tiles"
label = "Tiles"
counts = false
eras = [2]

[[scoring.tie_break]]
more = "tiles"
"""


def played(text: str = AGES, gold: tuple[tuple[int, int], ...] = ((2, 1), (3, 4))
           ) -> tuple[Play, list[str], float]:
    """Both eras played, each player's gold entered (tied 5 to 5 by default): the lines
    said, in order ("standings", "gold", "tiles", "ranking")."""
    play = new_play(parse_profile(text, "ages.toml"), PLAYERS)
    said: list[str] = []
    now = 0.0
    for era in range(2):
        play, _ = step(play, ERA, now := now + 1)  # round 1 (setup, or the standings)
        play, effects = step(play, NEXT, now := now + 1)  # the round's end: the scoring
        for value in gold[era]:
            for _ in range(value):
                play, _ = step(play, NEXT, now := now + 1)
            play, effects = step(play, ERA, now := now + 1)
            said += lines(effects)
    return play, said, now


def lines(effects: tuple[PlayEffect, ...]) -> list[str]:
    return [e.category if isinstance(e, Entered) else "standings" if isinstance(
        e, Standings) else "ranking" for e in effects
        if isinstance(e, Entered | Standings | Ranked)]


def tiles(play: Play, now: float, red: int, blue: int) -> tuple[Play, list[str]]:
    said: list[str] = []
    for value in (red, blue):
        for _ in range(value):
            play, _ = step(play, NEXT, now := now + 1)
        play, effects = step(play, ERA, now := now + 1)
        said += lines(effects)
    return play, said


def test_the_tied_players_tiles_are_asked_after_the_last_standings() -> None:
    play, said, now = played()
    assert said == ["gold", "gold", "standings", "gold", "gold", "standings"]
    assert play.spot.state is State.STANDINGS
    play, _ = step(play, ERA, now := now + 1)  # on to the ranking: the tie-break first
    assert play.spot.state is State.SCORING
    play, more = tiles(play, now, 2, 3)
    assert more == ["tiles", "tiles", "ranking"]
    assert play.spot.state is State.GAME_OVER


def test_without_the_key_the_tiles_come_in_the_last_scoring_before_its_standings() -> None:
    play, said, now = played(AGES.replace('tie_break_after = "standings"\n', ""))
    assert said == ["gold", "gold", "standings", "gold", "gold"]  # the tiles come next
    assert play.spot.state is State.SCORING
    play, more = tiles(play, now, 2, 3)
    assert more == ["tiles", "tiles", "standings"]


def test_the_scoring_counts_the_tiles_apart_from_the_numbers_before_the_standings() -> None:
    """The last era's scoring says "1/2", "2/2" for the gold (not "of 4": the tiles come
    after the standings), and the tie-break again "1/2", "2/2"."""
    play, _, now = played(gold=((2, 1), (0, 1)))  # tied 2 to 2
    first = play.history[-1]  # the last era's blue gold, 2/2
    assert first.state is State.SCORING
    assert screen(replace(play, spot=first), now).position == (2, 2)
    asking, _ = step(play, ERA, now + 1)
    assert screen(asking, now + 1).position == (1, 2)
    asking, _ = step(asking, ERA, now + 2)
    assert screen(asking, now + 2).position == (2, 2)
    without = played(AGES.replace('tie_break_after = "standings"\n', ""), ((2, 1), (0, 1)))
    assert screen(without[0], without[2]).position == (3, 4)  # the tiles: after the gold


def test_no_tie_no_tiles_and_undo_goes_back_to_the_standings() -> None:
    play, _, now = played(gold=((2, 1), (3, 2)))  # red 5, blue 3: no tie
    over, effects = step(play, ERA, now + 1)
    assert over.spot.state is State.GAME_OVER and lines(effects) == ["ranking"]
    play, _, now = played()
    asking, _ = step(play, ERA, now + 1)
    back, _ = step(asking, ERA_HOLD, now + 2)  # on 0: back
    assert back.spot == play.spot  # the standings again


def test_a_power_cut_in_the_tie_break_comes_back_to_it() -> None:
    play, _, now = played()
    asking, _ = step(play, ERA, now + 1)
    asking, _ = step(asking, NEXT, now + 2)
    again, _ = restore(snapshot(asking, now + 3), asking.profile, PLAYERS, now + 10)
    assert again.spot == asking.spot
    done, more = tiles(again, now + 10, 1, 3)  # red 2 (1 more), blue 3
    assert more == ["tiles", "tiles", "ranking"]
    assert done.spot.state is State.GAME_OVER


@pytest.mark.parametrize(("old", "new", "says"), [
    ('tie_break_after = "standings"', 'tie_break_after = "ranking"',
     "expected one of 'scoring', 'standings', got 'ranking'"),
    ("last_standings = true\n", "",
     "tie_break_after = \"standings\" needs the last era's standings (last_standings = true)"),
])
def test_a_bad_tie_break_after_names_the_file_line_and_key(old: str, new: str,
                                                           says: str) -> None:
    text = AGES.replace(old, new)
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "ages.toml")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("tie_break"))
    assert str(caught.value) == f"ages.toml:{line}: key 'scoring.tie_break_after': {says}"


@pytest.mark.parametrize("compact", [False, True], ids=["128x64", "128x32"])
def test_the_last_standings_hint_says_what_era_opens(compact: bool) -> None:
    """The last standings' hint: "ERA: tie-break" when ERA asks the tie-break first (a tie),
    "ERA: final ranking" when it opens the ranking (no tie, or no `tie_break_after`), in
    both languages."""
    def hint(play: Play, now: float, language: str) -> str:
        panel = Panel(height=32) if compact else Panel()
        return next(item.text for item in layout_play(screen(play, now), panel, language)
                    if item.role == "hint")

    tied, _, now = played()
    assert [hint(tied, now, language) for language in ("en", "ja")] == [
        "ERA: tie-break", "ERA: 同点の決着へ"]
    for text, gold in ((AGES, ((2, 1), (3, 2))),
                       (AGES.replace('tie_break_after = "standings"\n', ""), ((2, 1), (3, 4)))):
        ranked, _, now = played(text, gold)
        if ranked.spot.state is not State.STANDINGS:  # (the tiles before the standings)
            ranked, _ = tiles(ranked, now, 2, 3)
        assert ranked.spot.state is State.STANDINGS
        assert [hint(ranked, now, language) for language in ("en", "ja")] == [
            "ERA: final ranking", "ERA: 最終順位へ"]
