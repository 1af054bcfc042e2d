"""Measure how far the round engine's screens are from the era engine's, screen for screen.

Every golden scenario of Time of Empires (tests/golden/scenarios/toe-*.json, 84) is played
with its own gestures and config by the round file (tests/profiles/time-of-empires-rounds.toml)
in Time of Empires' words (`[game] lines = "eras"`: its screens built by core/era_screen.py),
as tests/test_one_engine_golden_cues.py plays it, and its screens (each new screen model with
its time, as `erabox simulate` hands them on) are set against the era engine's, recorded
before its removal (tests/golden/era_engine/screens.jsonl). Each difference is put in a
class:

- a screen the round engine draws that is not Time of Empires' `Screen` ("round screen is a
  PlayScreen": before `era_screen`, every one);
- the screens are paired in order by (t, kind) and each pair's fields compared ("`running`
  differs in `prompt`");
- a screen that finds no partner ("era `lead_in` unpaired": shown by one engine only).

Printed: a table of classes with the screens and scenarios each touches and one example, and
how many scenarios show the same screens at the same times. tests/test_golden_toe.py holds
that every one does.

    python tools/one_engine_screens.py            # the table (Markdown)
    python tools/one_engine_screens.py --examples # with one example pair each
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import enum
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "device"), str(ROOT / "tests")]

Shown = tuple[float, Any]  # (t, a screen model), as `simulate`'s `on_screen` hands it
Plain = tuple[float, dict[str, Any]]  # (t, a screen model as data: `plain_screen`)
RECORDED = ROOT / "tests" / "golden" / "era_engine" / "screens.jsonl"


def recorded() -> dict[str, list[Plain]]:
    """The era engine's screens of every golden scenario, by its name, whole."""
    out: dict[str, list[Plain]] = {}
    for line in RECORDED.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        out[row["scenario"]] = unfolded(row["screens"])
    return out


def screens(scenario: dict[str, Any], profile: Any = None) -> list[Shown]:
    """The scenario's screens, each new one with its time: the box's own Time of Empires
    (`profile` None) or `profile`'s."""
    from erabox.core.config import Config
    from erabox.run.simulate import simulate
    from test_golden import build, lines_of

    shown: list[Shown] = []
    simulate(build(Config, scenario["config"]), lines_of(scenario["lines"]), scenario["until"],
             lambda line: None, lambda model, t: shown.append((round(t, 3), model)),
             **({} if profile is None else {"profile": profile}))
    return shown


def plain_screen(model: Any) -> dict[str, Any]:
    """A screen model as JSON-able data: its type and every field (an enum as its value, a
    tuple as a list), as tests/golden/era_engine/screens.jsonl holds the era engine's."""
    def plain(value: Any) -> Any:
        if isinstance(value, tuple | list):
            return [plain(v) for v in value]
        return value.value if isinstance(value, enum.Enum) else value

    return {"type": type(model).__name__, **{k: plain(v) for k, v in _fields(model).items()}}


def changes(shown: list[Shown]) -> list[list[Any]]:
    """Screens as the recording holds them: each [t, the fields that changed since the screen
    before] (the first whole)."""
    out: list[list[Any]] = []
    before: dict[str, Any] = {}
    for t, model in shown:
        now = plain_screen(model)
        out.append([t, {k: v for k, v in now.items() if k not in before or before[k] != v}])
        before = now
    return out


def unfolded(recorded: list[list[Any]]) -> list[tuple[float, dict[str, Any]]]:
    """The screens of a recording (`changes`) whole again, each with its time."""
    out: list[tuple[float, dict[str, Any]]] = []
    before: dict[str, Any] = {}
    for t, change in recorded:
        before = before | change
        out.append((t, before))
    return out


def both(name: str, scenario: dict[str, Any], era: dict[str, list[Plain]] | None = None
         ) -> tuple[list[Plain], list[Plain]]:
    """The era engine's screens of the scenario `name` (recorded, or from `era`) and the
    round file's (in Time of Empires' words), as data."""
    from test_one_engine_golden_cues import ERA_WORDS

    mine = (recorded() if era is None else era)[name]
    return mine, [(t, plain_screen(m)) for t, m in screens(scenario, ERA_WORDS)]


class Tally:
    """The classes of difference: screens counted, scenarios touched, one example each."""

    def __init__(self) -> None:
        self.screens: Counter[str] = Counter()
        self.scenarios: defaultdict[str, set[str]] = defaultdict(set)
        self.example: dict[str, str] = {}

    def add(self, name: str, scenario: str, example: str) -> None:
        self.screens[name] += 1
        self.scenarios[name].add(scenario)
        self.example.setdefault(name, f"{scenario}: {example}")


def _fields(model: Any) -> dict[str, Any]:
    return {f.name: getattr(model, f.name) for f in dataclasses.fields(model)}


def _short(model: dict[str, Any]) -> str:
    """A screen's fields that are not None, empty or false, for an example."""
    said = [f"{k}={v!r}" for k, v in model.items() if v not in (None, [], False) and k != "type"]
    return f"{model['type']}({', '.join(said)})"


def compare(name: str, era: list[Plain], rounds: list[Plain], tally: Tally) -> None:
    """Put every difference of one scenario's two plays (screens as data) in its class."""
    for t, model in rounds:
        if model["type"] != "Screen":
            tally.add(f"round screen is a {model['type']}", name, f"t={t} {_short(model)}")
    mine = [(t, str(model["kind"])) for t, model in era]
    theirs = [(t, str(model["kind"])) for t, model in rounds]
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for (t, a), (_, b) in zip(era[i1:i2], rounds[j1:j2], strict=True):
                if b["type"] == "Screen" and a != b:
                    _differ(name, t, a, b, tally)
            continue
        for t, a in era[i1:i2]:
            tally.add(f"era `{a['kind']}` unpaired", name, f"t={t} {_short(a)}")
        for t, b in rounds[j1:j2]:
            tally.add(f"round `{b['kind']}` unpaired", name, f"t={t} {_short(b)}")


def _differ(name: str, t: float, mine: dict[str, Any], theirs: dict[str, Any],
            tally: Tally) -> None:
    keys = [key for key in mine if mine[key] != theirs.get(key)]
    example = f"t={t} " + ", ".join(f"{k}: {mine[k]!r} | {theirs.get(k)!r}" for k in keys)
    tally.add(f"`{mine['kind']}` differs in {', '.join(f'`{k}`' for k in keys)}", name,
              example)


def measure() -> tuple[Tally, int, list[str]]:
    """The tally over every golden scenario; how many scenarios; those whose screens match."""
    from test_golden import SCENARIOS

    tally = Tally()
    same: list[str] = []
    era_screens = recorded()
    for path in SCENARIOS:
        era, rounds = both(path.stem, json.loads(path.read_text(encoding="utf-8")),
                           era_screens)
        if era == rounds:
            same.append(path.stem)
        compare(path.stem, era, rounds, tally)
    return tally, len(SCENARIOS), same


def table(tally: Tally, total: int, same: list[str], examples: bool) -> str:
    rows = [f"{total} golden scenarios, {len(same)} with the same screens at the same times.",
            "", "| class | screens | scenarios |", "|---|---:|---:|"]
    for name, count in sorted(tally.screens.items(),
                              key=lambda kv: (-len(tally.scenarios[kv[0]]), -kv[1], kv[0])):
        rows.append(f"| {name} | {count} | {len(tally.scenarios[name])} |")
        if examples:
            rows.append(f"|   e.g. {tally.example[name][:400]} | | |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--examples", action="store_true", help="one example per class")
    parser.add_argument("--same", action="store_true",
                        help="also list the scenarios whose screens match")
    args = parser.parse_args(argv)
    import logging

    logging.disable(logging.WARNING)  # the round file's missing music files, said per parse
    tally, total, same = measure()
    print(table(tally, total, same, args.examples))
    if args.same:
        print("\n".join(["", *same]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
