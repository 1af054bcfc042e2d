"""Seats: how many players the chosen game seats, and a table brought into that range.

Time of Empires seats 2 to 4 (its rulebook); a game profile its `[players]` (at most
`rules.MAX_SEATS`). Pure functions of the settings (`erabox.core.settings`).
"""

from __future__ import annotations

from typing import Protocol

from .rules import MAX_PLAYERS, MAX_SEATS, MIN_PLAYERS, MIN_SEATS, SEAT_COLOURS


class Table(Protocol):
    """What the seats are read from: the settings (`erabox.core.settings.Settings`)."""

    @property
    def game(self) -> str: ...
    @property
    def game_players(self) -> tuple[tuple[str, int, int], ...]: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def oldest(self) -> int: ...


def seat_colours(settings: Table, colours: tuple[str, ...]) -> tuple[str, ...]:
    """The colours a seat takes in turn: `colours` (the `palette`), and as many of the box's
    seat colours as the chosen game seats at most (Time of Empires: its four)."""
    return tuple(dict.fromkeys((*colours, *SEAT_COLOURS[:seat_range(settings)[1]])))


def seat_range(settings: Table) -> tuple[int, int]:
    """How many players the chosen game seats, (min, max): Time of Empires 2 to 4 (its
    rulebook), a game profile its `[players]`; a game whose profile was not read, what the
    box seats at all (choosing it says in the log whether the players fit)."""
    if not settings.game:
        return MIN_PLAYERS, MAX_PLAYERS
    for name, low, high in settings.game_players:
        if name == settings.game:
            return low, high
    return MIN_SEATS, MAX_SEATS


def fitted(settings: Table, colours: tuple[str, ...], span: tuple[int, int] | None = None
           ) -> tuple[tuple[str, ...], int]:
    """(seats, oldest) for as many seats as the chosen game seats (`span`: `seat_range`): the
    last seats leave a table too big; a table too small gets seats with the first colours
    nobody has. The oldest player stays, unless their seat left (then seat 1 is)."""
    low, high = seat_range(settings) if span is None else span
    count = min(max(len(settings.seats), low), high)
    if count == len(settings.seats):
        return settings.seats, settings.oldest
    return seated(settings.seats, count, colours), settings.oldest if settings.oldest < count else 0


def own_game_players(players: tuple[str, ...], colours: tuple[str, ...]) -> tuple[str, ...]:
    """A config's players as Time of Empires seats them (2 to 4): the first four of more, a
    lone player joined by the first colour nobody has."""
    return seated(players, min(max(len(players), MIN_PLAYERS), MAX_PLAYERS), colours)


def seated(seats: tuple[str, ...], count: int, colours: tuple[str, ...]) -> tuple[str, ...]:
    """`count` seats: the first of `seats`, then new seats with the first of `colours` (and
    of the box's seat colours) that nobody has."""
    seated = list(seats[:count])
    for colour in (*colours, *SEAT_COLOURS):
        if len(seated) >= count:
            break
        if colour not in seated:
            seated.append(colour)
    return tuple(seated)
