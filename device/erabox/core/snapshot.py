"""The saved game: JSON text <-> a validated, clock-free snapshot.

The snapshot is what `machine.snapshot` produces. Reading is strict: a file from another schema
version, one with a value of the wrong type, or one that does not describe a game this box could
be in (a real-time era's record that does not fit the era's cue list), raises `SnapshotError`;
the caller then moves the file aside and starts a fresh game. It never crashes the box.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .config import SCORE_VARIANTS, Config
from .jsontext import JsonTextError, json_object, short
from .model import Mode, Phase
from .points import sheet_from_dict
from .record import SCHEMA_VERSION, cue_problem
from .rules import SCORING_STEPS


class SnapshotError(ValueError):
    """A saved game that cannot be used (corrupt, foreign or from another schema version)."""


def dumps(snapshot: dict[str, Any]) -> str:
    """The snapshot as JSON text (stable key order, one line)."""
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":")) + "\n"


def loads(text: str, config: Config) -> dict[str, Any]:
    """Parse and check a saved snapshot against what the box can resume. `config` is the one
    the game runs with (the settings laid over the file): its cue list is checked."""
    try:
        data = json_object(text)
    except JsonTextError as exc:
        raise SnapshotError(str(exc)) from None
    try:
        return _checked(data, config)
    except (TypeError, AttributeError, KeyError, IndexError) as exc:  # a safety net
        raise SnapshotError(f"a value of the wrong type ({short(str(exc))})") from None


def _checked(data: dict[str, Any], config: Config) -> dict[str, Any]:
    if "kind" in data:  # only a game profile's play says its kind (core/play_record.py)
        raise SnapshotError(f"it holds a play of the game profile "
                            f"{short(repr(data.get('game')))}, not a Time of Empires game")
    if not (_int(data.get("schema")) and data["schema"] == SCHEMA_VERSION):
        raise SnapshotError(f"schema version {short(repr(data.get('schema')))}, this box "
                            f"reads {SCHEMA_VERSION}")

    def need(key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise SnapshotError(f"'{key}' should be {expected}, is {short(repr(data.get(key)))}")

    phases = {p.value for p in Phase} - {Phase.CONFIRM.value, Phase.SETTINGS.value,
                                         Phase.PREPARE.value}
    need("phase", isinstance(data.get("phase"), str) and data["phase"] in phases, "a state name")
    need("mode", isinstance(data.get("mode"), str) and data["mode"] in {m.value for m in Mode},
         "'realtime' or 'intro'")
    need("era", _int(data.get("era")) and 1 <= data["era"] <= config.eras, f"1..{config.eras}")
    need("era_start_player", _int(data.get("era_start_player"))
         and 0 <= data["era_start_player"] <= MAX_CUES, "a player index")
    need("volume", _number(data.get("volume")) and 0 <= data["volume"] <= 1, "0..1")
    need("scoring_step", _int(data.get("scoring_step"))
         and 0 <= data["scoring_step"] <= SCORING_STEPS, f"0..{SCORING_STEPS}")
    need("cues_done", _int(data.get("cues_done")) and 0 <= data["cues_done"] <= MAX_CUES,
         "a count of cues")
    phase = Phase(data["phase"])
    mode = Mode(data["mode"])
    need("phase", mode is Mode.REALTIME or phase not in REALTIME_PHASES,
         "a phase of an introductory era")
    need("phase", mode is Mode.INTRO or phase not in INTRO_PHASES,
         "a phase of a real-time era")
    if phase in (Phase.RUNNING, Phase.PAUSED):
        # A longer era from an older config is shortened on restore; beyond any era is junk.
        # Bounds first: 10**400 compares as an int, and only then is it converted.
        need("elapsed", _number(data.get("elapsed")) and 0 <= data["elapsed"] <= MAX_ERA_S
             and math.isfinite(data["elapsed"]), "running seconds")
    for key in ("armed", "sounded"):
        need(key, data.get(key) is None or (_int(data[key]) and 0 <= data[key] <= MAX_CUES),
             "null or a cue number")
    need("settings", data.get("settings") is None or (
        isinstance(data["settings"], str) and len(data["settings"]) <= 64),
         "null or the settings' fingerprint")
    if "guide" in data:  # added later: older files have no guide, scores or entry
        need("guide", data["guide"] is None or (_int(data["guide"]) and data["guide"] >= 0),
             "a step of the preparation guide or null")
    if "variant" in data:  # added later: older files play the first
        need("variant", _int(data["variant"]) and 1 <= data["variant"] <= SCORE_VARIANTS,
             f"1..{SCORE_VARIANTS}")
    if "scores" in data:
        try:
            sheet_from_dict(data["scores"], None, config.eras)
        except ValueError as exc:
            raise SnapshotError(str(exc)) from None
    if data.get("entry") is not None:
        entry = data["entry"]
        need("entry", isinstance(entry, dict) and _int(entry.get("index"))
             and entry["index"] >= 0 and (entry.get("tie") is None or (
                 _int(entry.get("tie")) and entry["tie"] >= 0))
             and _int(entry.get("value", 0)) and entry.get("value", 0) >= 0
             and isinstance(entry.get("by_step", True), bool),
             "where the entry of points is ({'index': n, 'tie': n or null, 'value': n, "
             "'by_step': true or false})")
    if phase in (Phase.INTRO_ROUND, Phase.SCHOLARS):
        need("round", _int(data.get("round")) and 1 <= data["round"] <= config.intro.rounds,
             f"a round 1..{config.intro.rounds}")
    else:
        data["round"] = None
    problem = cue_problem(data, config)
    if problem is not None:
        raise SnapshotError(problem)
    return data


REALTIME_PHASES = (Phase.LEAD_IN, Phase.RUNNING, Phase.PAUSED)
INTRO_PHASES = (Phase.INTRO_ROUND, Phase.SCHOLARS)
MAX_ERA_S = 24 * 3600  # the longest era a config can set
MAX_CUES = 10_000


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
