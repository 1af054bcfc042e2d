"""Timed input scripts (docs/simulate.md): `<seconds> <button> <gesture>`, `<seconds> restart`,
`<seconds> end`. Blank lines and `#` comments are ignored; times never go backwards.

`<seconds> next hold <held>`: NEXT held on `held` seconds past its hold threshold; the line
gives the hold at `<seconds>` and its release `held` seconds later (`next hold` alone is let
go at once). The points entry adds by the length of a hold.

The whole script is checked before anything runs: a bad line raises `ScriptError` naming the
file and line, so a typo never plays half a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .model import Button, Gesture, Input


class ScriptError(ValueError):
    """A script line that cannot be run. The message is `file:line: problem`."""


@dataclass(frozen=True)
class Restart:
    """A power cut and restart at this moment."""


@dataclass(frozen=True)
class End:
    """Stop here."""


Action = Input | Restart | End


@dataclass(frozen=True)
class ScriptLine:
    at: float
    action: Action
    line: int


def parse_script(text: str, source: str = "<script>") -> list[ScriptLine]:
    """Parse a whole script, or raise `ScriptError` for its first bad line."""
    lines: list[ScriptLine] = []
    last = 0.0
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue

        def fail(problem: str, number: int = number, raw: str = raw) -> ScriptError:
            return ScriptError(f"{source}:{number}: {problem}: {raw.strip()!r}")

        try:
            at = float(words[0])
        except ValueError:
            raise fail("expected a time in seconds first") from None
        if not math.isfinite(at) or at < 0:
            raise fail("the time must be a number of seconds, 0 or more")
        if at < last:
            raise fail(f"times must not go backwards (the line before is at {last:g} s)")
        held = None
        if len(words) == 4 and words[1:3] == ["next", "hold"]:
            try:
                held = float(words[3])
            except ValueError:
                raise fail("expected the seconds NEXT is held on after 'next hold'") from None
            if not (math.isfinite(held) and 0 <= held <= 60):
                raise fail("NEXT can be held on 0 to 60 seconds")
            words = words[:3]
        action = _action(words[1:], fail)
        lines.append(ScriptLine(at, action, number))
        if action == Input(Button.NEXT, Gesture.HOLD):  # let go: at once, or `held` later
            at += held or 0.0
            lines.append(ScriptLine(at, Input(Button.NEXT, Gesture.RELEASE), number))
        last = at
    # Lines after an `end` never run, but a typo there is still reported: a script is checked
    # whole or not run at all.
    return lines


def _action(words: list[str], fail: Callable[[str], ScriptError]) -> Action:
    if words == ["restart"]:
        return Restart()
    if words == ["end"]:
        return End()
    buttons = ", ".join(b.value for b in Button)
    if len(words) != 2:
        raise fail(f"expected '<seconds> <button> <gesture>' (buttons: {buttons}), "
                   "'<seconds> restart' or '<seconds> end'")
    try:
        button = Button(words[0])
    except ValueError:
        raise fail(f"unknown button {words[0]!r} (buttons: {buttons})") from None
    try:
        gesture = Gesture(words[1])
    except ValueError:
        raise fail(f"unknown gesture {words[1]!r} (gestures: press, hold)") from None
    if gesture is Gesture.RELEASE:
        raise fail("a release is not written: 'next hold <seconds>' holds NEXT on that long")
    if button in (Button.DIAL_UP, Button.DIAL_DOWN) and gesture is not Gesture.PRESS:
        raise fail(f"'{button.value}' only takes 'press' (one step of the rotary encoder)")
    return Input(button, gesture)
