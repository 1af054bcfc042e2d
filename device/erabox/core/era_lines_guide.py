"""The `guide` lines of a round profile's play in Time of Empires' words (`[game] lines =
"eras"`, `era_lines.EraLines`): a line whenever the preparation guide walked at a setup
(`[rounds] guide_at_setup`, `guide.walk_here`) shows another step, as the era
engine's (docs/simulate.md):

    {"t", "type": "guide", "era", "part", "step", "steps", "what", "n"}

All from the walk: `part` "game" for a step of the game's setup (a `guide = true` special
round before round 1), "era" for one of the era's preparation (round 1's phases); `step`
and `steps` its place in that part; `what` the step's own name (its `say` key in the
profile without the part's prefix, None without one); `n` the number its text shows (its
first `{name}`, filled: the player count, the era's wonders ...; None without one). Pure.
"""

from __future__ import annotations

from typing import Any

from .guide import walk_here
from .play import Play, era_number
from .profile_reader import Step


def guide_fields(play: Play) -> dict[str, Any] | None:
    """The fields of the `guide` line of the step the play shows (None: no guide shown)."""
    walk = walk_here(play)
    if not walk:
        return None
    shown = walk[min(play.spot.guide or 0, len(walk) - 1)]
    step, steps = shown.position
    return {"era": era_number(play) if play.profile.eras else None,
            "part": "game" if shown.setup else "era", "step": step, "steps": steps,
            "what": _what(shown.text),
            "n": shown.number}


class GuideLines:
    """Says when a `guide` line is due: once per step shown (its era and place in the walk),
    again after the guide was left."""

    def __init__(self) -> None:
        self._last: tuple[int | None, int] | None = None

    def due(self, play: Play) -> dict[str, Any] | None:
        """The fields of the line to write for `play` (None: nothing new shown)."""
        fields = guide_fields(play)
        shown = None if fields is None else (fields["era"], play.spot.guide or 0)
        if shown == self._last:
            return None
        self._last = shown
        return fields


def _what(text: object) -> str | None:
    """The step's name in a `guide` line: its `say` key (the box's guide text) without the
    part's prefix ("prep_wonder": "wonder"), as the era engine names its steps."""
    say = text.say if isinstance(text, Step) else ""
    return say.removeprefix("prep_").removeprefix("setup_") or None
