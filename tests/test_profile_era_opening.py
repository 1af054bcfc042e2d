"""An era that opens after its preparation, and its music through the era (docs/profiles.md):
`[[variant]] start_gong` (true, false, or "after_preparation": the gong as NEXT leaves round
1's preparation, its steps with `until_round = 1`) and `[[phase]] music_from = "era"` (the
music from the era's start, on across its rounds and special rounds, stopped at its
scoring), as Time of Empires' introductory era: its gong and looped music as ERA starts the
era its setup prepared, the music running through the scholar calls to the end gong.
"""

from __future__ import annotations

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, FlashCue, Gesture, Input, Music, PlaySound, Sound
from erabox.core.play import Play, PlayEffect, State, new_play
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile

N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
N_HOLD = Input(Button.NEXT, Gesture.HOLD)
PLAYERS = ("red", "blue")

DAYS = """\
[game]
id = "days"
name = { en = "Days", ja = "日々" }

[players]
min = 2
max = 4

[rounds]
name = { en = "Day", ja = "日" }
start_gong = false

[[variant]]
id = "quick"
label = { en = "Quick", ja = "早い" }
rounds = 1

[[variant]]
id = "slow"
label = { en = "Slow", ja = "遅い" }
rounds = 3
start_gong = "after_preparation"

[[era]]
music = "dawn.ogg"

[[era]]
music = "dusk.ogg"

[[phase]]
id = "days"
label = { en = "Days", ja = "日々" }
steps = [
  { en = "Prepare the board", ja = "盤面を準備", until_round = 1 },
  { en = "Deal the cards", ja = "カードを配る", until_round = 1 },
  { en = "Play", ja = "プレイ" },
]
music = "day.ogg"
music_from = "era"

[[special]]
id = "market"
label = { en = "Market", ja = "市場" }
after = { quick = [], slow = [1] }
sound = "cry"

[[scoring.category]]
id = "coins"
label = { en = "Coins", ja = "コイン" }
"""


def days(text: str = DAYS) -> Play:
    return new_play(parse_profile(text, "/games/days.toml", base_dir="/games"), PLAYERS)


def heard(effects: tuple[PlayEffect, ...]) -> list[str]:
    """The gongs and the music, in order."""
    return [f"{e.sound.value}" if isinstance(e, PlaySound) else
            f"{e.action.value.removeprefix('music_')} {e.path.rsplit('/', 1)[-1]} {e.elapsed:g}"
            for e in effects if isinstance(e, PlaySound | Music) and not isinstance(e, FlashCue)
            and (not isinstance(e, PlaySound) or e.sound is Sound.GONG)]


def play_on(play: Play, moves: list[tuple[float, Input]]) -> tuple[Play, list[tuple[float, str]]]:
    out: list[tuple[float, str]] = []
    for t, event in moves:
        play, effects = step(play, event, t)
        out += [(t, h) for h in heard(effects)]
    return play, out


def test_the_slow_era_gongs_and_starts_its_music_as_its_preparation_is_done() -> None:
    """ERA starts round 1 in silence; NEXT, NEXT through the preparation: the gong and the
    era's music (looped, its own file) as the first step every round shows comes; it runs on
    through the rounds and the special round and stops with the end gong."""
    play = days()
    play, _ = step(play, N_PRESS, 0.0)  # the variant: slow
    play, out = play_on(play, [(t, N_PRESS if t != 1 else E_PRESS) for t in range(1, 8)])
    assert play.spot.state is State.SCORING
    assert out == [(3, "gong"), (3, "start dawn.ogg 0"), (7, "gong"), (7, "stop dawn.ogg 4")]


def test_the_slow_era_moves_through_its_rounds_and_special_round() -> None:
    play = days()
    play, _ = step(play, N_PRESS, 0.0)
    play, _ = step(play, E_PRESS, 1.0)
    play, _ = step(play, N_PRESS, 2.0)
    assert play.spot.step == 1  # still preparing: no gong, no music
    assert play.music_since is None
    play, out = play_on(play, [(3.0, N_PRESS), (4.0, N_PRESS), (5.0, N_PRESS), (6.0, N_PRESS)])
    assert play.spot.state is State.ROUND and play.spot.round == 3
    assert out == [(3.0, "gong"), (3.0, "start dawn.ogg 0")]  # the market: music on


def test_each_era_opens_so_its_own_music_after_the_standings() -> None:
    play = days()
    play, _ = step(play, N_PRESS, 0.0)
    moves = [(1.0, E_PRESS)] + [(2.0 + i, N_PRESS) for i in range(6)]  # to the scoring
    moves += [(10.0, N_PRESS), (11.0, E_PRESS), (12.0, N_PRESS), (13.0, E_PRESS)]
    moves += [(14.0, E_PRESS), (15.0, N_PRESS), (16.0, N_PRESS)]  # era 2, its preparation
    play, out = play_on(play, moves)
    assert play.spot.state is State.ROUND and len(play.spot.past) == 1
    assert out[-2:] == [(16.0, "gong"), (16.0, "start dusk.ogg 0")]


def test_the_quick_variant_keeps_the_rounds_silence() -> None:
    """The variant without its own `start_gong` keeps `[rounds] start_gong = false`; a
    variant's `true` sounds the gong as round 1 starts, as `[rounds]`' does."""
    play = days()
    play, out = play_on(play, [(1.0, E_PRESS), (2.0, N_PRESS)])
    assert out == [(1.0, "start dawn.ogg 0")]  # the era's music from its round 1
    loud = days(DAYS.replace('rounds = 1\n', 'rounds = 1\nstart_gong = true\n'))
    _, out = play_on(loud, [(1.0, E_PRESS)])
    assert out == [(1.0, "gong"), (1.0, "start dawn.ogg 0")]


def test_undo_into_the_preparation_stops_the_music_and_a_cut_resumes_it() -> None:
    play = days()
    play, _ = step(play, N_PRESS, 0.0)
    play, _ = play_on(play, [(1.0, E_PRESS), (2.0, N_PRESS), (3.0, N_PRESS), (4.0, N_PRESS)])
    assert play.spot.state is State.SPECIAL  # the market, the era's music on
    _, effects = restore(snapshot(play, 10.0), play.profile, PLAYERS, 20.0)
    assert [(e.action.value, e.elapsed) for e in effects if isinstance(e, Music)] == [
        ("music_resume", 7.0)]
    play, out = play_on(play, [(5.0, N_HOLD), (6.0, N_HOLD)])
    assert out == [(6.0, "stop dawn.ogg 3")]  # back in the preparation: no music yet


@pytest.mark.parametrize(("old", "new", "key", "line", "says"), [
    ('start_gong = "after_preparation"', 'start_gong = "later"', "variant[2].start_gong", 22,
     "expected true, false or \"after_preparation\", got 'later'"),
    ('start_gong = "after_preparation"', "start_gong = 1", "variant[2].start_gong", 22,
     "expected true, false or \"after_preparation\""),
    ('music = "day.ogg"\nmusic_from = "era"', 'music_from = "era"', "phase[1].music_from", 38,
     "music_from needs a music file (music)"),
])
def test_a_bad_key_names_the_file_line_and_key(old: str, new: str, key: str, line: int,
                                               says: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(DAYS.replace(old, new), "days.toml")
    assert str(caught.value).startswith(f"days.toml:{line}: key '{key}': {says}")
