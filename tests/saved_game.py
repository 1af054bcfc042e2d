"""Where a saved game stands, read from its record (docs/state-file.md): the round engine's
(`"kind": "profile"`: its spot and countdown), which the box writes playing Time of Empires'
round file, or the era record (`"phase"`, `"elapsed"`, `"round"`) that boxes wrote before
the era engine's removal, as tests seed it to resume an old state file
(`era_save` reads it). Tests that check what a cut or a stop leaves on disk read
it here."""

from __future__ import annotations

import json
from typing import Any

WORDS = {"setup": "setup", "era_setup": "setup", "scoring": "scoring", "standings": "scoring",
         "game_over": "game_over", "special": "scholars"}  # a round spot's word: its clock's


def saved_position(record: dict[str, Any] | str, length_s: float) -> tuple[str, float | None]:
    """(the state in Time of Empires' words: "setup", "lead_in", "running", "paused",
    "intro_round", "scholars", "scoring", "game_over"; the era's running time in seconds,
    None outside a running clock); `length_s`: the era's length as configured (the round
    record keeps the seconds left)."""
    saved: dict[str, Any] = json.loads(record) if isinstance(record, str) else record
    if saved.get("kind") != "profile":
        return str(saved["phase"]), saved.get("elapsed")
    state = saved["spot"]["state"]
    if state != "round":
        return WORDS.get(state, state), None
    left = saved.get("timer_left")
    if left is None:
        return "intro_round", None
    if saved.get("timer_done"):
        return "running", float(length_s)
    if left > length_s and not saved.get("timer_paused"):
        return "lead_in", None
    return ("paused" if saved.get("timer_paused") else "running"), round(length_s - left, 3)


def saved_round(record: dict[str, Any] | str) -> int | None:
    """The round of an introductory era a saved game is in (None: none)."""
    saved: dict[str, Any] = json.loads(record) if isinstance(record, str) else record
    if saved.get("kind") != "profile":
        return saved.get("round")
    spot = saved["spot"]
    return spot["round"] if spot["state"] in ("round", "special") and spot["round"] else None


def saved_mode(record: dict[str, Any] | str) -> str:
    """The mode of the era a saved game of Time of Empires is in ("realtime", "intro"): the
    round record's variant, by its id in Time of Empires' round file."""
    saved: dict[str, Any] = json.loads(record) if isinstance(record, str) else record
    if saved.get("kind") != "profile":
        return str(saved["mode"])
    from erabox.files.games import own_rounds

    return str(own_rounds().variants[saved["spot"]["variant"]].id)


def game_position(game: Any, now: float) -> tuple[str, str, int | None]:
    """Where a game the box holds stands (Time of Empires' round file's `Play`): its state
    in Time of Empires' words, its era's mode, its round."""
    from erabox.core.engine import phase_of

    spot = game.spot
    return (phase_of(game, now).value, game.profile.variants[spot.variant].id,
            spot.round if spot.round else None)
