"""A saved record for the state file's own tests (the file, not the game): Time of Empires at
Era I's setup as the box saved it before every game played on one engine (its "era
engine"; pinned from that engine before its removal). The box still reads such a file
(`core/snapshot.py`, docs/state-file.md), so it is a record the state file must keep whole."""

from __future__ import annotations

from typing import Any

_SHEET = [[[0, 0, 0, 0] for _ in range(7)] for _ in range(3)]

GOOD: dict[str, Any] = {
    "schema": 1, "phase": "setup", "era": 1, "mode": "realtime", "round": None,
    "era_start_player": 0, "start_player": None, "elapsed": None, "cues_done": 0,
    "armed": None, "sounded": None, "scoring_step": 0, "volume": 0.8, "guide": 0,
    "scores": {"points": _SHEET, "buildings": [None, None, None, None]}, "entry": None,
    "settings": None, "variant": 1}


def running(elapsed: float = 12.0, **extra: object) -> dict[str, object]:
    """The same game with Era I running `elapsed` seconds."""
    return {**GOOD, "phase": "running", "elapsed": elapsed, **extra}
