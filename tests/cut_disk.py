"""The power-cut enumeration's disk and table (tests/test_power_cut_rounds.py): what the state
file may hold when the power fails, and what the players experienced of each call. (They were
tests/test_power_cut_exhaustive.py's, the era engine's proof, removed with that engine.)"""

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
    """What the players experienced, per call (its index in the game's calls)."""

    heard: tuple[tuple[int, int], ...] = ()  # (call, times heard), sorted
    shown: frozenset[int] = frozenset()  # given by the screen after a restart
    unknowable: frozenset[int] = frozenset()  # a cut between its "sounded" record and sound

    def hear(self, call: int) -> Table:
        counts = dict(self.heard)
        counts[call] = counts.get(call, 0) + 1
        return replace(self, heard=tuple(sorted(counts.items())))

    def times_heard(self, call: int) -> int:
        return dict(self.heard).get(call, 0)
