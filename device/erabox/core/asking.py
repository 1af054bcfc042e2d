"""A scoring's questions over one sheet, each worked out once: the entries asked and their
order, which of them can still change the ranking (`wanted`), which are sure to be asked
whatever the numbers to come (`surely`), which the last era asks after its standings
(`late`), and the position the scoring screen shows (`position`).

play.py asks these of a play (`asking`). The order, the sheet of every era and what
the sheet tells of an elimination's stages are the same for every entry of one sheet: a
question over all the entries (the screen's position, the next entry asked) works them out
once, not once per entry. Pure, like the rest of the core.
"""

from __future__ import annotations

from functools import cached_property

from . import scores
from .profile import Profile

SHOWN = -1  # the seat of an entry that asks no number: a `points = false` category, shown

Order = tuple[tuple[int, int], ...]


def order(profile: Profile, era: int, players: int) -> Order:
    """(category, seat) in the order numbers are asked: category by category, seat order;
    in a game of eras the categories era `era`'s scoring asks. A category that gives no
    points is one entry in its place, seat `SHOWN`. `entry = "totals"`: the era totals
    first (the last category), then the categories that do not count, the counted ones and
    those that give no points left to the totals' checklist."""
    seats = range(players)
    cats = tuple((c, category) for c, category in enumerate(profile.categories)
                 if category.in_era(era))
    if profile.entry == "totals":
        last = len(profile.categories) - 1
        return tuple((last, s) for s in seats) + tuple(
            (c, s) for c, category in cats[:-1] if category.asked for s in seats)
    return tuple(pair for c, category in cats
                 for pair in ([(c, s) for s in seats] if category.asked else [(c, SHOWN)]))


def whole(profile: Profile, past: tuple[scores.Sheet, ...], sheet: scores.Sheet,
          era: int) -> scores.Sheet:
    """The numbers of every era so far (`past`, then era `era`'s `sheet`), each category's
    values one after the other (their points add up); a category this era asks that is not
    entered yet is unknown (None). A game without eras: its sheet."""
    if not past:
        return sheet
    return tuple(tuple(
        None if row[seat] is None and profile.categories[c].in_era(era) else
        tuple(v for earlier in past for v in earlier[c][seat] or ()) + (row[seat] or ())
        for seat in range(len(row))) for c, row in enumerate(sheet))


class Asking:
    """The questions of one era's scoring over one sheet (`start`: the start player's seat,
    for the seat tie-breaks). What more than one question needs is worked out at most once."""

    def __init__(self, profile: Profile, players: int, era: int,
                 past: tuple[scores.Sheet, ...], sheet: scores.Sheet, start: int | None):
        self.profile, self.era, self.past, self.sheet, self.start = (
            profile, era, past, sheet, start)
        self.order = order(profile, era, players)
        self.last = era >= len(profile.eras)  # the last era: its scoring ends the game

    @cached_property
    def whole(self) -> scores.Sheet:
        return whole(self.profile, self.past, self.sheet, self.era)

    @cached_property
    def known(self) -> list[scores.StageKnown] | None:
        """What the sheet tells of the elimination's stages (None: a game ranked on totals)."""
        if self.profile.order != "eliminations":
            return None
        return scores.stages_known(self.profile, self.whole, self.start)

    def wanted(self, entry: int) -> bool:
        """Is entry `entry` asked: can its number still change the ranking (scores)?
        Before the last era every number is asked (the eras after it may need it)."""
        category, seat = self.order[entry]
        if not self.last or seat == SHOWN:  # a step shown is always shown
            return True
        return scores.needed(self.profile, self.whole, self.start, category, seat, self.known)

    def surely(self, entry: int) -> bool:
        """Is entry `entry` sure to be asked, whatever the numbers not yet entered?"""
        category, seat = self.order[entry]
        if not self.last or seat == SHOWN:
            return True
        return scores.surely(self.profile, self.whole, self.start, category, seat, self.known)

    def late(self, entry: int) -> bool:
        """`[scoring] tie_break_after = "standings"`: is entry `entry` one the last era asks
        after its standings (a category only for the tie-breaks, `counts = false`)?"""
        category, seat = self.order[entry]
        return (self.profile.tie_break_after == "standings" and self.last and seat != SHOWN
                and not self.profile.categories[category].counts)

    def next_entry(self, entry: int) -> int | None:
        """The first entry from `entry` on that is asked (None: the scoring is done)."""
        return next((e for e in range(entry, len(self.order)) if self.wanted(e)), None)

    def late_entry(self) -> int | None:
        """The first entry asked after the last era's standings (None: there is none)."""
        first = next((e for e in range(len(self.order)) if self.late(e)), None)
        return None if first is None else self.next_entry(first)

    def position(self, entry: int) -> tuple[int, int, bool]:
        """(n, count, more) of entry `entry`, the number asked: n counts the numbers entered
        before it; count adds those sure to be asked after it, whatever the numbers to come
        (`surely`), so it never falls; `more`: some after it may be asked too (a scoring
        with eliminations, a number asked only to break a tie), which the count will take
        in once they are sure. Those asked after the last standings (`late`) are counted
        apart."""
        sheet, order_ = self.sheet, self.order
        part = self.late(entry)
        done = sum(1 for e, (c, s) in enumerate(order_[:entry]) if self.late(e) == part
                   and (s == SHOWN or sheet[c][s] is not None))
        ahead = [e for e in range(entry + 1, len(order_))
                 if self.late(e) == part and self.wanted(e)]
        # once every number that counts is in (after the standings, or after the last one of
        # a game ranked on its total), the players a tie-break category asks are known: the
        # rest of the category asked now is sure
        here, categories = order_[entry][0], self.profile.categories
        known = part or (self.profile.order == "total" and all(
            s == SHOWN or sheet[c][s] is not None or not categories[c].counts
            for c, s in order_))
        sure = sum(1 for e in ahead if self.surely(e) or (known and order_[e][0] == here))
        return done + 1, done + 1 + sure, sure < len(ahead)
