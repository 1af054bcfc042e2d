"""Measure how far the round engine's event lines are from the era engine's, byte for byte.

Every golden scenario of Time of Empires (tests/golden/scenarios/toe-*.json, 84) is played
through the round file (tests/profiles/time-of-empires-rounds.toml) with its own gestures, as
tests/test_one_engine_golden_cues.py plays it (`played_by_rounds`), and its event lines are
set against the era engine's (the scenario's `output`). Each difference is put in a class:

- a line type only one engine writes ("era only `entry`", "round only `phase`");
- for a type both write, the lines are paired in order by (t, type, what the line is about:
  its state, sound, prompt, button...) and each pair's fields compared: a field only one
  engine writes ("`sound` lacks `era`", "`sound` has extra `music`") or a value that differs;
- a line of a shared type that finds no partner ("era `state` unpaired: lead_in");
- the same lines at the same time in another order ("order at the same t").

Printed: a table of classes with the lines and scenarios each touches and one example.
docs/architecture.md, "Where it stands", keeps the map drawn from it.

    python tools/one_engine_lines.py            # the table (Markdown)
    python tools/one_engine_lines.py --examples # with one example line pair each
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "device"), str(ROOT / "tests")]

Line = dict[str, Any]
# What a line is about, beside its time and type: the key that pairs the two engines' lines.
ABOUT = {"state": ("state",), "sound": ("sound",), "input": ("button", "gesture"),
         "prompt": ("prompt",), "guide": ("step",), "points": ("player",)}


def _about(line: Line) -> tuple[Any, ...]:
    keys = ABOUT.get(line["type"], ())
    return (line["t"], line["type"], *(str(line.get(key)) for key in keys))


class Tally:
    """The classes of difference: lines counted, scenarios touched, one example each."""

    def __init__(self) -> None:
        self.lines: Counter[str] = Counter()
        self.scenarios: defaultdict[str, set[str]] = defaultdict(set)
        self.example: dict[str, str] = {}

    def add(self, name: str, scenario: str, example: str, count: int = 1) -> None:
        self.lines[name] += count
        self.scenarios[name].add(scenario)
        self.example.setdefault(name, f"{scenario}: {example}")


def compare(name: str, era: list[Line], rounds: list[Line], tally: Tally) -> None:
    """Put every difference of one scenario's two plays in its class."""
    rounds = [_as_prompt(name, line, tally) for line in rounds]
    era_types = Counter(line["type"] for line in era)
    round_types = Counter(line["type"] for line in rounds)
    for kind in sorted(set(era_types) - set(round_types)):
        example = next(line for line in era if line["type"] == kind)
        tally.add(f"era only `{kind}`", name, json.dumps(example), era_types[kind])
    for kind in sorted(set(round_types) - set(era_types)):
        example = next(line for line in rounds if line["type"] == kind)
        tally.add(f"round only `{kind}`", name, json.dumps(example), round_types[kind])
    shared = set(era_types) & set(round_types)
    for kind in sorted(shared):
        mine = [line for line in era if line["type"] == kind]
        theirs = [line for line in rounds if line["type"] == kind]
        _pair(name, kind, mine, theirs, tally)
    _order(name, [x for x in era if x["type"] in shared],
           [x for x in rounds if x["type"] in shared], tally)


def _as_prompt(name: str, line: Line, tally: Tally) -> Line:
    """A round `call` line that calls a prompt, read as the era engine's `prompt` line."""
    if line["type"] != "call" or "prompt" not in line:
        return line
    tally.add("prompt said on a round `call` line", name, json.dumps(line))
    return {**line, "type": "prompt"}


def _pair(name: str, kind: str, mine: list[Line], theirs: list[Line], tally: Tally) -> None:
    matcher = difflib.SequenceMatcher(None, sorted(map(_about, mine)),
                                      sorted(map(_about, theirs)), autojunk=False)
    mine_sorted = sorted(mine, key=_about)
    theirs_sorted = sorted(theirs, key=_about)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for a, b in zip(mine_sorted[i1:i2], theirs_sorted[j1:j2], strict=True):
                _fields(name, kind, a, b, tally)
            continue
        for a in mine_sorted[i1:i2]:
            tally.add(f"era `{kind}` unpaired{_what(a)}", name, json.dumps(a))
        for b in theirs_sorted[j1:j2]:
            tally.add(f"round `{kind}` unpaired{_what(b)}", name, json.dumps(b))


def _what(line: Line) -> str:
    """The value a class of unpaired lines is named by: a state, a sound, a prompt's kind."""
    if line["type"] in ("state", "sound"):
        return f": {line[line['type']]}"
    if line["type"] == "prompt":
        return f": {line.get('kind', 'called')}"
    return ""


def _fields(name: str, kind: str, a: Line, b: Line, tally: Tally) -> None:
    example = f"{json.dumps(a)} | {json.dumps(b)}"
    missing = [key for key in a if key not in b]
    extra = [key for key in b if key not in a]
    if missing:
        tally.add(f"`{kind}` lacks {', '.join(missing)}", name, example)
    if extra:
        tally.add(f"`{kind}` has extra {', '.join(extra)}", name, example)
    for key in a:
        if key in b and a[key] != b[key]:
            tally.add(f"`{kind}` differs in `{key}`", name, example)


def _order(name: str, era: list[Line], rounds: list[Line], tally: Tally) -> None:
    """Lines written by both at the same time, in another order."""
    by_t: defaultdict[float, list[list[tuple[Any, ...]]]] = defaultdict(lambda: [[], []])
    for side, lines in enumerate((era, rounds)):
        for line in lines:
            by_t[line["t"]][side].append(_about(line))
    for t, (mine, theirs) in sorted(by_t.items()):
        both = Counter(mine) & Counter(theirs)
        mine_kept = [x for x in mine if x in both]
        theirs_kept = [x for x in theirs if x in both]
        if mine_kept != theirs_kept and sorted(mine_kept) == sorted(theirs_kept):
            tally.add("order at the same t", name, f"t={t}: {mine_kept} | {theirs_kept}")


def measure(words: str = "rounds") -> tuple[Tally, int, int]:
    """The tally over every golden scenario; how many scenarios, how many byte for byte
    (`words`: "eras", the round file's lines in Time of Empires' words, `[game] lines`)."""
    from test_golden import SCENARIOS
    from test_one_engine_golden_cues import played_by_rounds

    tally = Tally()
    same = 0
    for path in SCENARIOS:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        era = [json.loads(line) for line in io.StringIO(scenario["output"])]
        rounds = played_by_rounds(scenario, words)
        same += era == rounds
        compare(path.stem, era, rounds, tally)
    return tally, len(SCENARIOS), same


def table(tally: Tally, total: int, same: int, examples: bool) -> str:
    rows = [f"{total} golden scenarios, {same} byte for byte.", "",
            "| class | lines | scenarios |", "|---|---:|---:|"]
    for name, count in sorted(tally.lines.items(),
                              key=lambda kv: (-len(tally.scenarios[kv[0]]), -kv[1], kv[0])):
        rows.append(f"| {name} | {count} | {len(tally.scenarios[name])} |")
        if examples:
            rows.append(f"|   e.g. {tally.example[name][:300]} | | |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--examples", action="store_true", help="one example per class")
    parser.add_argument("--words", choices=("rounds", "eras"), default="rounds",
                        help="the round file's event lines: its own, or Time of Empires' "
                        "(`[game] lines = \"eras\"`, core/era_lines.py)")
    args = parser.parse_args(argv)
    import logging

    logging.disable(logging.WARNING)  # the round file's missing music files, said per parse
    tally, total, same = measure(args.words)
    print(table(tally, total, same, args.examples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
