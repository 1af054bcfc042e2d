"""Points and ranking for a game profile: what the entered numbers are worth and who wins.

Pure functions over a `Sheet`: for every category of the profile, for every seat, the values
entered (a list: one value, or several for an `each` category; None = not asked yet).

Two orders (docs/profiles.md):
- `total`: most points first (the counted categories' points summed); equal totals are
  ordered by the tie-breaks in turn; players equal on all of them share a place.
- `eliminations`: stage by stage, the players still in are ordered by that stage's category
  (ties by the tie-breaks) and the last of them are out; the last stage orders the survivors.
  Survivors come first, then those out at the last elimination, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

from .profile import Label, Profile, TieBreak

Sheet = tuple[tuple[tuple[int, ...] | None, ...], ...]  # [category][seat] -> values


@dataclass(frozen=True)
class RankLine:
    """One line of the final ranking: `place` 1.. (equal places are shared), the seat, the
    score it was ranked by (the total, or for eliminations the deciding stage's points),
    the stage after which the player was out (1-based; None: still in), the solo rank."""

    place: int
    seat: int
    score: int
    out_after: int | None = None
    rank: Label | None = None


def blank(profile: Profile, players: int) -> Sheet:
    return tuple((None,) * players for _ in profile.categories)


def category_points(profile: Profile, sheet: Sheet, index: int, seat: int) -> int:
    """The points a seat's values for category `index` give (0 while not asked)."""
    category = profile.categories[index]
    return sum(category.points(v) for v in sheet[index][seat] or ())


def category_values(sheet: Sheet, index: int, seat: int) -> int:
    """The sum of the values a seat entered for category `index`."""
    return sum(sheet[index][seat] or ())


def total(profile: Profile, sheet: Sheet, seat: int) -> int:
    """A seat's total: the points of every category that counts."""
    return sum(category_points(profile, sheet, i, seat)
               for i, c in enumerate(profile.categories) if c.counts)


def totals(profile: Profile, sheet: Sheet) -> tuple[int, ...]:
    return tuple(total(profile, sheet, seat) for seat in range(_players(sheet)))


def _players(sheet: Sheet) -> int:
    return len(sheet[0]) if sheet else 0


def _tie_key(profile: Profile, sheet: Sheet, seat: int, start: int | None,
             players: int) -> tuple[int, ...]:
    """Smaller is better, one number per tie-break."""
    index = {c.id: i for i, c in enumerate(profile.categories)}
    key: list[int] = []
    for rule in profile.tie_breaks:
        key.append(_rule_key(profile, sheet, seat, start, players, rule, index))
    return tuple(key)


def _rule_key(profile: Profile, sheet: Sheet, seat: int, start: int | None, players: int,
              rule: TieBreak, index: dict[str, int]) -> int:
    if rule.kind == "seat":
        distance = (seat - (start or 0)) % players  # turns after the start player's
        return -distance if rule.seat == "furthest_from_start" else distance
    amount = sum(category_points(profile, sheet, index[c], seat) if rule.points
                 else category_values(sheet, index[c], seat) for c in rule.categories)
    return -amount if rule.kind == "more" else amount


def ranking(profile: Profile, sheet: Sheet, start: int | None) -> tuple[RankLine, ...]:
    """The final ranking, best first. `start` is the start player's seat (seat rules)."""
    players = _players(sheet)
    if profile.order == "eliminations":
        lines = _eliminations(profile, sheet, start, players)
    else:
        scores = totals(profile, sheet)
        keys = {p: (-scores[p], *_tie_key(profile, sheet, p, start, players))
                for p in range(players)}
        lines = _placed(sorted(range(players), key=lambda p: (keys[p], p)), keys, 0,
                        {p: scores[p] for p in range(players)}, None)
    if players == 1 and profile.solo_ranks:
        reached = [r for r in profile.solo_ranks if r.at_least <= lines[0].score]
        if reached:
            lines = (RankLine(lines[0].place, lines[0].seat, lines[0].score,
                              lines[0].out_after, reached[-1].label),)
    return lines


def _placed(order: list[int], keys: dict[int, tuple[int, ...]], before: int,
            scores: dict[int, int], out_after: int | None) -> tuple[RankLine, ...]:
    return tuple(RankLine(before + 1 + sum(1 for q in order if keys[q] < keys[p]), p,
                          scores[p], out_after) for p in order)


def _eliminations(profile: Profile, sheet: Sheet, start: int | None,
                  players: int) -> tuple[RankLine, ...]:
    index = {c.id: i for i, c in enumerate(profile.categories)}
    still = list(range(players))
    groups: list[tuple[RankLine, ...]] = []
    for number, stage in enumerate(profile.stages, start=1):
        scores = {p: category_points(profile, sheet, index[stage.category], p) for p in still}
        keys = {p: (-scores[p], *_tie_key(profile, sheet, p, start, players)) for p in still}
        order = sorted(still, key=lambda p: (keys[p], p))
        last = number == len(profile.stages)
        out = 0 if last else min(stage.out(players), len(order) - 1)
        kept, gone = order[:len(order) - out], order[len(order) - out:]
        if gone:
            groups.append(_placed(gone, keys, 0, scores, number))
        if last:
            groups.append(_placed(kept, keys, 0, scores, None))
        still = kept
    # Survivors first, then those out at the latest stage, and so on; places run on.
    lines: list[RankLine] = []
    for group in reversed(groups):
        offset = len(lines)
        lines.extend(RankLine(line.place + offset, line.seat, line.score, line.out_after)
                     for line in group)
    return tuple(lines)
