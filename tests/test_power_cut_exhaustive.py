"""The power-cut enumeration's bookkeeping, shared by tests/test_power_cut_rounds.py: the state
file a cut may leave (`Disk`) and what the table experienced per call (`Table`).

The enumeration over the era engine that lived here (every cut on a 1 ms grid around every cry
and end gong of a real-time era, and around every scholar call of an introductory era, up to
three cuts) went with that engine. Its promise, each call heard once or (cut in the one
unknowable window) shown, is proven on the round engine by tests/test_power_cut_rounds.py:
the shipped Time of Empires round file, generated real-time games (calls 0.3 s apart, a call
among the final ticks, a call just before the end, a pause held across a step) and the same on
a slow card, with the 1 ms grid around every countdown's end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from erabox.core.model import Save
from erabox.core.snapshot import dumps


@dataclass(frozen=True)
class Disk:
    """The state file: the last save surely on disk, and later saves that may be."""

    landed: str | None
    pending: tuple[str, ...] = ()

    def save(self, effect: Save) -> Disk:
        text = dumps(effect.snapshot)
        return Disk(text) if effect.durable else Disk(self.landed, (*self.pending, text))

    def at_a_cut(self) -> tuple[str | None, ...]:
        """Every text the file may hold if the power fails now."""
        return tuple(dict.fromkeys((self.landed, *self.pending)))


@dataclass(frozen=True)
class Table:
    """What the players experienced, per call (its index in the era's timeline)."""

    heard: tuple[tuple[int, int], ...] = ()  # (call, times heard), sorted
    shown: frozenset[int] = frozenset()  # given by the screen after a restart
    unknowable: frozenset[int] = frozenset()  # a cut between its "sounded" record and sound

    def hear(self, call: int) -> Table:
        counts = dict(self.heard)
        counts[call] = counts.get(call, 0) + 1
        return replace(self, heard=tuple(sorted(counts.items())))

    def times_heard(self, call: int) -> int:
        return dict(self.heard).get(call, 0)
