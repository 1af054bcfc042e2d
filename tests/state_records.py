"""A saved record for the state file's own tests (the file, not the game): Time of Empires at
Era I's setup as the box saved it before every game played on one engine (its "era
engine"), read from the committed fixture `tests/golden/state-v1/setup.state.json`. The box
still reads such a file (`core/snapshot.py`, docs/state-file.md), so it is a record the state
file must keep whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from erabox.core.config import Config
from erabox.core.snapshot import loads

GOOD: dict[str, Any] = loads(
    (Path(__file__).parent / "golden" / "state-v1" / "setup.state.json").read_text(
        encoding="utf-8"), Config())


def running(elapsed: float = 12.0, **extra: object) -> dict[str, object]:
    """The same game with Era I running `elapsed` seconds."""
    return {**GOOD, "phase": "running", "elapsed": elapsed, **extra}
