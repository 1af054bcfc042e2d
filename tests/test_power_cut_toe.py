"""The exhaustive cut proof of tests/test_power_cut_rounds.py on Time of Empires' own profile
(its real-time era made crowded, all three eras; its introductory era with `make test-deep`).
The same test, in a file of its own: the longest case of the suite, which `make test`'s
workers (`--dist loadfile`) then run beside the other games' cases instead of after them."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_power_cut_rounds import ALL_CASES, TOE_GAMES
from test_power_cut_rounds import (
    test_every_cut_around_every_call_of_a_round_game_gives_each_call_once as every_cut,
)


@pytest.mark.parametrize(("name", "players"), [c for c in ALL_CASES if c[0] in TOE_GAMES])
def test_every_cut_around_every_call_of_time_of_empires_gives_each_call_once(
        name: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    every_cut(name, players, tmp_path, capsys)
