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

from collections.abc import Callable
from dataclasses import dataclass, replace

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
    stage: int | None = None  # the stage whose category gave `score` (1-based; None: total)
    tie: int | None = None  # equal score with another: the tie-break that told them apart
    # (an index into profile.tie_breaks), or UNBROKEN when none did


UNBROKEN = -1  # `RankLine.tie` of players no tie-break told apart


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
             players: int, first: bool = True) -> tuple[int, ...]:
    """Smaller is better, one number per tie-break (`first`: the seat has the most points;
    a rule `only_first` orders no one else: 0)."""
    index = {c.id: i for i, c in enumerate(profile.categories)}
    key: list[int] = []
    for rule in profile.tie_breaks:
        key.append(0 if rule.only_first and not first
                   else _rule_key(profile, sheet, seat, start, players, rule, index))
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
        best = max(scores, default=0)
        keys = {p: (-scores[p], *_tie_key(profile, sheet, p, start, players,
                                          scores[p] == best)) for p in range(players)}
        order = sorted(range(players), key=lambda p: (keys[p], p))
        lines = tuple(replace(line, tie=_tie(line.seat, order, keys))
                      for line in _placed(order, keys, 0,
                                          {p: scores[p] for p in range(players)}, None))
    if players == 1 and profile.solo_ranks:
        reached = [r for r in profile.solo_ranks if r.at_least <= lines[0].score]
        if reached:
            lines = (replace(lines[0], rank=reached[-1].label),)
    return lines


def _tie(seat: int, order: list[int], keys: dict[int, tuple[int, ...]]) -> int | None:
    """The tie-break that set `seat` apart from its neighbours of equal score in `order`
    (the later of the two, if both were tied with it), UNBROKEN if one of them is equal on
    every tie-break, None without a tie."""
    at = order.index(seat)
    found: int | None = None
    for other in order[max(0, at - 1):at] + order[at + 1:at + 2]:
        mine, theirs = keys[seat], keys[other]
        if mine[0] != theirs[0]:
            continue  # not the same score
        differ = next((i for i in range(1, len(mine)) if mine[i] != theirs[i]), None)
        if differ is None:
            return UNBROKEN
        found = max(found if found is not None else -1, differ - 1)
    return found


def _placed(order: list[int], keys: dict[int, tuple[int, ...]], before: int,
            scores: dict[int, int], out_after: int | None, stage: int | None = None,
            everyone: list[int] | None = None) -> tuple[RankLine, ...]:
    """`order`'s places; `everyone`: the players ranked with them (ties are told apart
    among all of these: at an elimination, across the cut)."""
    return tuple(RankLine(before + 1 + sum(1 for q in order if keys[q] < keys[p]), p,
                          scores[p], out_after, stage=stage,
                          tie=_tie(p, everyone, keys) if everyone else None)
                 for p in order)


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
            groups.append(_placed(gone, keys, 0, scores, number, number, order))
        if last:
            groups.append(_placed(kept, keys, 0, scores, None, number, order))
        still = kept
    # Survivors first, then those out at the latest stage, and so on; places run on.
    lines: list[RankLine] = []
    for group in reversed(groups):
        offset = len(lines)
        lines.extend(replace(line, place=line.place + offset) for line in group)
    return tuple(lines)


# --- which numbers can still change the ranking -----------------------------------------------


def needed(profile: Profile, sheet: Sheet, start: int | None, category: int, seat: int,
           known: list[StageKnown] | None = None) -> bool:
    """Can the number of `category` for `seat` change the ranking, as far as the sheet tells
    (None: not asked yet, or left out; unknown numbers are taken as anything)? Left out are
    the stage categories of a player already out before that stage, and a tie-break's number
    for a player no one can be tied with where the order between them matters. Sound: a
    number that might matter is always asked. `known`: `stages_known` of the same sheet and
    start, when the caller asks of many numbers (it is worked out once)."""
    players = _players(sheet)
    cat = profile.categories[category]
    ids = {c.id: i for i, c in enumerate(profile.categories)}
    in_stage = [k for k, s in enumerate(profile.stages) if ids[s.category] == category]
    in_rules = [j for j, r in enumerate(profile.tie_breaks)
                if any(ids[c] == category for c in r.categories)]
    if profile.order == "eliminations":
        stages = _stages_known(profile, sheet, start, players) if known is None else known
    else:
        if cat.counts:
            return True
        stages = [(None, frozenset(range(players)), frozenset(), True)]
    if not in_stage and not in_rules:
        return True
    if any(seat in stages[k][1] for k in in_stage):
        return True
    for stage_category, still, sure, last in stages:
        if seat not in still:
            continue
        for j in in_rules:
            for other in still - {seat}:
                if not last and seat in sure and other in sure:
                    continue  # both go on whatever their order
                if profile.tie_breaks[j].only_first and not (
                        _may_lead(profile, sheet, seat) and _may_lead(profile, sheet, other)):
                    continue  # the rule orders only the players tied for first
                if _may_tie(profile, sheet, start, stage_category, seat, other, j, ids):
                    return True
    return False


def surely(profile: Profile, sheet: Sheet, start: int | None, category: int, seat: int,
           known: list[StageKnown] | None = None) -> bool:
    """Is the number of `category` for `seat` sure to be asked, whatever the numbers not yet
    entered (`needed` says whether it may be)? A stage's number is, for a player sure to be
    in at that stage; a number asked only to break a tie is not, until it is asked.
    `known`: as for `needed`."""
    cat = profile.categories[category]
    ids = {c.id: i for i, c in enumerate(profile.categories)}
    in_stage = [k for k, s in enumerate(profile.stages) if ids[s.category] == category]
    in_rules = any(ids[c] == category for r in profile.tie_breaks for c in r.categories)
    if profile.order != "eliminations":
        return cat.counts or not in_rules
    if not in_stage:
        return not in_rules
    stages = _stages_known(profile, sheet, start, _players(sheet)) if known is None else known
    before = [frozenset(range(_players(sheet))), *(stays for _, _, stays, _ in stages)]
    return any(seat in before[k] for k in in_stage)


StageKnown = tuple[int | None, frozenset[int], frozenset[int], bool]


def stages_known(profile: Profile, sheet: Sheet, start: int | None) -> list[StageKnown]:
    """What the sheet tells of each stage of an elimination (`_stages_known`): given to
    `needed` and `surely` by a caller that asks them of many numbers of one sheet."""
    return _stages_known(profile, sheet, start, _players(sheet))


def _stages_known(profile: Profile, sheet: Sheet, start: int | None,
                  players: int) -> list[StageKnown]:
    """For each stage: its category, the players who may still be in, those sure to stay in
    after it, and whether it is the last."""
    ids = {c.id: i for i, c in enumerate(profile.categories)}
    maybe, sure = frozenset(range(players)), frozenset(range(players))
    count = players
    out: list[StageKnown] = []
    for number, stage in enumerate(profile.stages, start=1):
        category = ids[stage.category]
        last = number == len(profile.stages)
        kept = count - (0 if last else min(stage.out(players), count - 1))

        def ahead(q: int, p: int, category: int = category) -> bool | None:
            return _ahead(profile, sheet, start, category, q, p, ids)

        gone, stays = _cut(ahead, maybe, sure, count, kept)
        out.append((category, maybe, stays, last))
        maybe, sure, count = maybe - gone, stays, kept
    return out


def _cut(ahead: Callable[[int, int], bool | None], maybe: frozenset[int], sure: frozenset[int],
         count: int, kept: int) -> tuple[frozenset[int], frozenset[int]]:
    """At a stage with `count` players in (`sure` of them known, the rest among `maybe`),
    `kept` staying: those sure to be out after it, and those sure to stay."""
    def least(p: int) -> int:
        """At least this many of those in are ranked before `p` (if `p` is in)."""
        slots = count - len(sure | {p})  # the places the unsure ones fill
        unsure = maybe - sure - {p}
        return (sum(1 for q in sure - {p} if ahead(q, p))
                + max(0, slots - sum(1 for q in unsure if not ahead(q, p))))

    def most(p: int) -> int:
        """At most this many of those in are ranked before `p` (`p` sure to be in)."""
        slots = count - len(sure)
        return (sum(1 for q in sure - {p} if ahead(q, p) is not False)
                + min(slots, sum(1 for q in maybe - sure if ahead(q, p) is not False)))

    return (frozenset(p for p in maybe if least(p) >= kept),
            frozenset(p for p in sure if most(p) < kept))


def _score(profile: Profile, sheet: Sheet, category: int | None, seat: int) -> int | None:
    """A seat's score at a stage (None: the total), None while a number in it is unknown."""
    if category is None:
        if any(sheet[i][seat] is None for i, c in enumerate(profile.categories)
               if c.counts and c.asked):  # (a reminder of the era total is never asked)
            return None
        return total(profile, sheet, seat)
    if sheet[category][seat] is None:
        return None
    return category_points(profile, sheet, category, seat)


def _rule_known(profile: Profile, sheet: Sheet, start: int | None, seat: int, rule: TieBreak,
                ids: dict[str, int]) -> int | None:
    if any(sheet[ids[c]][seat] is None for c in rule.categories):
        return None
    return _rule_key(profile, sheet, seat, start, _players(sheet), rule, ids)


def _ahead(profile: Profile, sheet: Sheet, start: int | None, category: int | None, q: int,
           p: int, ids: dict[str, int]) -> bool | None:
    """Is `q` ranked before `p` at a stage (None: the numbers known cannot tell yet)?"""
    sq, sp = _score(profile, sheet, category, q), _score(profile, sheet, category, p)
    if sq is None or sp is None:
        return None
    if sq != sp:
        return sq > sp
    for rule in profile.tie_breaks:
        kq = _rule_known(profile, sheet, start, q, rule, ids)
        kp = _rule_known(profile, sheet, start, p, rule, ids)
        if kq is None or kp is None:
            return None
        if kq != kp:
            return kq < kp
    return q < p


def _may_lead(profile: Profile, sheet: Sheet, seat: int) -> bool:
    """May `seat` have the most points (none known to have more)?"""
    mine = _score(profile, sheet, None, seat)
    if mine is None:
        return True
    return all(theirs is None or theirs <= mine
               for theirs in (_score(profile, sheet, None, q) for q in range(_players(sheet))))


def _may_tie(profile: Profile, sheet: Sheet, start: int | None, category: int | None,
             seat: int, other: int, rule: int, ids: dict[str, int]) -> bool:
    """May `seat` and `other` be equal at a stage on the score and the tie-breaks before
    `rule` (so that `rule` may have to order them)?"""
    a, b = _score(profile, sheet, category, seat), _score(profile, sheet, category, other)
    if a is not None and b is not None and a != b:
        return False
    for earlier in profile.tie_breaks[:rule]:
        a = _rule_known(profile, sheet, start, seat, earlier, ids)
        b = _rule_known(profile, sheet, start, other, earlier, ids)
        if a is not None and b is not None and a != b:
            return False
    return True
