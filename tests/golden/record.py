"""Recording the golden transcripts: every `erabox simulate` scenario the test suite plays.

`ERABOX_RECORD_GOLDEN=DIR make test` (tests/conftest.py calls `install`) writes one JSON file
per distinct scenario into DIR: the config (every field of the Config value), the script
(its lines, exactly as parsed, and as text), `--until`, and what `erabox simulate` printed.
`python tests/golden/record.py DIR` then keeps the distinct ones in tests/golden/scenarios/.
The scenarios are pinned before the engine moves (docs/simulate.md's output is a stable
interface): tests/test_golden.py plays each again and compares byte for byte.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"


def plain(value: Any) -> Any:
    """A Config (or any dataclass) as JSON-able data, field by field."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def script_lines(script: list[Any]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for line in script:
        action = line.action
        kind = type(action).__name__
        if kind == "Input":
            out.append([line.at, action.button.value, action.gesture.value, line.line])
        else:
            out.append([line.at, kind.lower(), None, line.line])
    return out


def script_text(script: list[Any]) -> str:
    """The script as a file would hold it (a hold's release folded into `next hold <held>`)."""
    rows: list[str] = []
    lines = list(script)
    i = 0
    while i < len(lines):
        line = lines[i]
        action = line.action
        kind = type(action).__name__
        if kind != "Input":
            rows.append(f"{line.at!r} {kind.lower()}")
        elif action.gesture.value == "hold" and action.button.value == "next":
            release = lines[i + 1] if i + 1 < len(lines) else None
            held = (release.at - line.at) if release is not None else 0.0
            rows.append(f"{line.at!r} next hold" + (f" {held!r}" if held else ""))
            i += 1  # the release is written by the hold's line
        else:
            rows.append(f"{line.at!r} {action.button.value} {action.gesture.value}")
        i += 1
    return "".join(r + "\n" for r in rows)


def _write(directory: Path, record: dict[str, Any]) -> None:
    body = json.dumps(record, ensure_ascii=False, sort_keys=True)
    name = hashlib.sha256(body.encode()).hexdigest()[:16]
    (directory / f"{record['kind']}-{name}.json").write_text(body + "\n", encoding="utf-8")


def install(directory: str) -> None:
    """Wrap the simulations so every run is written to `directory`."""
    import erabox.run.simulate as simulate_module

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    real = simulate_module.simulate

    def simulate(config: Any, script: list[Any], until: float | None, on_event: Any,
                 on_screen: Any = None, *, profile: Any = None, seed: int = 0) -> Any:
        if profile is not None:
            return simulate_profile(profile, config, script, until, on_event, seed, on_screen)
        printed = io.StringIO()

        def both(event: dict[str, Any]) -> None:
            printed.write(json.dumps(event, ensure_ascii=False) + "\n")
            on_event(event)

        sim = real(config, script, until, both, on_screen)
        _write(out, {"kind": "toe", "config": plain(config), "lines": script_lines(script),
                     "text": script_text(script), "until": until,
                     "output": printed.getvalue()})
        return sim

    def simulate_profile(profile: Any, config: Any, script: list[Any], until: float | None,
                         on_event: Any, seed: int, on_screen: Any) -> Any:
        players = config.players
        printed = io.StringIO()

        def both(event: dict[str, Any]) -> None:
            printed.write(json.dumps(event, ensure_ascii=False) + "\n")
            on_event(event)

        sim = real(config, script, until, both, on_screen, profile=profile, seed=seed)
        source = str(getattr(profile, "source", ""))
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError:
            text = None
        _write(out, {"kind": "profile", "source": source, "profile_text": text,
                     "profile": plain(profile), "players": list(players), "seed": seed,
                     "lines": script_lines(script), "text": script_text(script),
                     "until": until, "output": printed.getvalue()})
        return sim

    simulate_module.simulate = simulate  # type: ignore[assignment]


def keep(directory: str) -> None:
    """Keep the recorded scenarios (distinct by content) in tests/golden/scenarios/."""
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    n = 0
    for path in sorted(Path(directory).glob("*.json")):
        target = SCENARIOS / path.name
        if not target.exists():
            target.write_bytes(path.read_bytes())
            n += 1
    print(f"{n} new scenarios in {SCENARIOS}")


if __name__ == "__main__":
    keep(sys.argv[1] if len(sys.argv) > 1 else os.environ["ERABOX_RECORD_GOLDEN"])
