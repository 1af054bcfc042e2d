"""A round profile's eras and its scoring: the `[[era]]` tables (each era its rounds, then
its scoring, then the standings with running totals) and the `[scoring]` table (categories,
the eras each is asked in, the order, tie-breaks, stages, solo ranks), read into frozen values
(docs/profiles.md, "Eras" and "Scoring"). `profile.py` reads the rest of the profile and
calls these; `scores.py` ranks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .own_numbers import parse_scoring_config
from .profile_reader import MAX_ROUNDS, Label, ProfileError, _Reader
from .rules import MAX_ERAS
from .toml_lines import Path
from .track import PhaseTrack, parse_track

MAX_VALUE = 999  # the largest number a player can enter for one category (as the box's points)
ORDERS = ("total", "eliminations")
# `[scoring] entry`: a number per category, or per era; "setting": as the box's "Points entry"
# says (`points_entry`: "totals" the era totals, "steps" the categories; `by_setting`)
ENTRIES = ("categories", "totals", "setting")
TOTAL_ID = "total"  # the era totals' row with `entry = "totals"` (no category may take it)
ERA_TOTAL = Label("Era total", "時代の合計")
GAME_TOTAL = Label("Total", "合計")  # the same in a game without eras (its one scoring)
SEAT_RULES = ("furthest_from_start", "closest_to_start")


@dataclass(frozen=True)
class Era:
    """One era (act, age) of a round game: its own label (None: "Era I", "時代Ⅰ" ...) and
    its rounds (None: the variant's). Rounds count from 1 again in each era."""

    label: Label | None = None
    rounds: int | None = None
    numbers: tuple[tuple[str, int], ...] = ()  # `numbers`: each `{name}` in a step's text
    music: str = ""  # `music`: the file its phases with music play instead of their own
    music_key: str = field(default="", compare=False)  # "file:line: key 'era[1].music'"
    track: PhaseTrack | None = None  # `track`: played by its phases on the gong instead
    score: str = ""  # `score`: the box's own era music's score of it (`box_music`), once from
    score_key: str = field(default="", compare=False)  # the start gong, as Time of Empires'


@dataclass(frozen=True)
class Category:
    """One number entered per player at the end, from `least` (below 0: negative numbers
    too) to `most`. Its points: `table` (n entered -> the entry n, counting from 0; the last
    for anything more), `penalty` (n entered -> minus the n-th entry, the last for anything
    more), else `value * multiply // divide`, at most `cap`. `each`: a list of values (each
    transformed, then summed; 0 ends the list). `counts` False: asked for the tie-breaks and
    eliminations only, not added to the total. `eras`: in a game of eras, the eras whose
    scoring asks it (none: every era's); its points are added up over them. `asked` False:
    no number (`points = false`: shown in its place, one screen; with `[scoring] entry =
    "totals"` a counted category is a reminder, the era total asked instead)."""

    id: str
    label: Label
    multiply: int = 1
    divide: int = 1
    cap: int | None = None
    most: int = MAX_VALUE  # the largest number that can be entered
    penalty: tuple[int, ...] = ()
    each: bool = False
    counts: bool = True
    table: tuple[int, ...] = ()
    least: int = 0  # the smallest number that can be entered (`min`)
    eras: tuple[int, ...] = ()  # the eras it is asked in (1-based; none listed: every era)
    asked: bool = True  # a number is asked (False: shown, or a reminder of the era total)

    def in_era(self, era: int) -> bool:
        """Is this category asked in era `era` (1-based)?"""
        return not self.eras or era in self.eras

    def points(self, value: int) -> int:
        """The points one entered value gives."""
        if self.table:
            return self.table[min(max(0, value), len(self.table) - 1)]
        if self.penalty:
            return -self.penalty[min(value, len(self.penalty)) - 1] if value > 0 else 0
        points = value * self.multiply // self.divide
        return points if self.cap is None else min(points, self.cap)


@dataclass(frozen=True)
class TieBreak:
    """One rule to order players with equal totals: `more` or `fewer` of the sum of
    `categories` (entered values, or their points if `points`), or a seat rule."""

    kind: str  # "more", "fewer" or "seat"
    categories: tuple[str, ...] = ()
    seat: str = ""
    points: bool = False
    only_first: bool = False  # orders only the players tied for first (the others share)


@dataclass(frozen=True)
class Stage:
    """An elimination ranking: players still in are ordered by `category`'s points (ties by
    the tie-breaks); the last `eliminate[players]` of them are out."""

    category: str
    eliminate: tuple[tuple[int, int], ...] = ()  # (player count, how many); 0 = default
    default_eliminate: int = 0

    def out(self, players: int) -> int:
        return dict(self.eliminate).get(players, self.default_eliminate)


@dataclass(frozen=True)
class SoloRank:
    at_least: int
    label: Label



def parse_scoring(r: _Reader, data: Any, max_players: int, eras: int) -> dict[str, Any]:
    """The `[scoring]` table: its categories (each asked in the eras it names), order,
    tie-breaks, stages and solo ranks, as `Profile` fields."""
    base: Path = ("scoring",)
    table = r.table(data, base, ("order", "category", "tie_break", "stage", "solo_rank",
                                 "last_standings", "entry", "tie_break_after", "config"))
    last = r.flag(table.get("last_standings", False), (*base, "last_standings"))
    if last and not eras:
        raise r.error((*base, "last_standings"), "last_standings needs [[era]] tables")
    late = r.choice(table.get("tie_break_after", "scoring"), (*base, "tie_break_after"),
                    ("scoring", "standings"))
    if late == "standings" and not last:
        raise r.error((*base, "tie_break_after"), "tie_break_after = \"standings\" needs "
                      "the last era's standings (last_standings = true)")
    categories = tuple(_category(r, item, at, eras) for at, item in
                       r.items(table.get("category", []), (*base, "category"),
                               "[[scoring.category]] tables", empty=True))
    unique(r, [(c.id, (*base, "category", i, "id")) for i, c in enumerate(categories)])
    entry = r.choice(table.get("entry", "categories"), (*base, "entry"), ENTRIES)
    ids = tuple(c.id for c in categories if c.asked and (entry == "categories" or not c.counts))
    unasked = {c.id: "gives no points (points = false)" if not c.asked else
               f"is not asked with entry = \"{entry}\" (only the era totals, and the "
               "categories with counts = false)" for c in categories if c.id not in ids}
    order = r.choice(table.get("order", "total"), (*base, "order"), ORDERS)
    breaks = tuple(_tie_break(r, item, at, ids, unasked) for at, item in
                   r.items(table.get("tie_break", []), (*base, "tie_break"),
                           "[[scoring.tie_break]] tables", empty=True))
    stages = tuple(_stage(r, item, at, ids, max_players, unasked) for at, item in
                   r.items(table.get("stage", []), (*base, "stage"),
                           "[[scoring.stage]] tables", empty=True))
    if entry != "categories":  # "setting" checked as "totals", the box's setting may say it
        totals = _era_totals(r, categories, order, ERA_TOTAL if eras else GAME_TOTAL, entry)
        categories = totals if entry == "totals" else categories
    if order == "eliminations" and not stages:
        raise r.error((*base, "order"), "\"eliminations\" needs [[scoring.stage]] tables")
    if order == "total" and stages:
        raise r.error((*base, "stage"), "stages need order = \"eliminations\"")
    for index, rule in enumerate(breaks):  # first place: the most points (order = "total")
        if rule.only_first and order != "total":
            raise r.error((*base, "tie_break", index, "only_first"),
                          "only_first needs order = \"total\"")
    ranks = tuple(_solo_rank(r, item, at) for at, item in
                  r.items(table.get("solo_rank", []), (*base, "solo_rank"),
                          "[[scoring.solo_rank]] tables", empty=True))
    for index in range(1, len(ranks)):
        if ranks[index].at_least <= ranks[index - 1].at_least:
            raise r.error((*base, "solo_rank", index, "at_least"),
                          "expected the solo ranks in increasing order of points")
    return {"categories": categories, "order": order, "tie_breaks": breaks, "stages": stages,
            "solo_ranks": ranks, "last_standings": last, "entry": entry,
            "tie_break_after": late,
            "scoring_config": parse_scoring_config(r, table, base, len(categories))}


def _era_totals(r: _Reader, categories: tuple[Category, ...], order: str, label: Label,
                entry: str) -> tuple[Category, ...]:
    """`entry = "totals"` (or "setting", checked alike): the counted categories become
    reminders (not asked), and the era total, one number per player, is asked first of all,
    as the last category (`TOTAL_ID`); the categories that do not count (a tie-break's) are
    still asked, after it."""
    base: Path = ("scoring",)
    if order != "total":
        raise r.error((*base, "entry"), f"\"{entry}\" needs order = \"total\" (an elimination "
                      "ranks on one category's points)")
    for index, category in enumerate(categories):
        if category.id == TOTAL_ID:
            raise r.error((*base, "category", index, "id"), f"the id {TOTAL_ID!r} names the "
                          "era totals with entry = \"totals\": give another")
    return era_totals(categories, label)


def era_totals(categories: tuple[Category, ...], label: Label) -> tuple[Category, ...]:
    """The categories as `entry = "totals"` asks them (checked: `_era_totals`)."""
    low = any(c.least < 0 or c.penalty or any(v < 0 for v in c.table)
              for c in categories if c.counts and c.asked)
    total = Category(TOTAL_ID, label, least=-MAX_VALUE if low else 0)
    return (*(Category(c.id, c.label, c.multiply, c.divide, c.cap, c.most, c.penalty, c.each,
                       c.counts, c.table, c.least, c.eras, asked=False)
              if c.counts else c for c in categories), total)


NUMBER_KEYS = ("multiply", "divide", "cap", "max", "min", "penalty", "table", "each", "counts")


def _category(r: _Reader, item: Any, at: Path, eras: int) -> Category:
    table = r.table(item, at, ("id", "label", *NUMBER_KEYS, "eras", "points"), ("id", "label"))
    if not r.flag(table.get("points", True), (*at, "points")):
        for key in NUMBER_KEYS:
            if key in table:
                raise r.error((*at, key), f"a category with points = false asks no number "
                              f"and gives no points: no {key}")
        return Category(id=r.ident(table["id"], (*at, "id")),
                        label=r.label(table["label"], (*at, "label")), counts=False,
                        asked=False,
                        eras=_era_list(r, table["eras"], (*at, "eras"), eras)
                        if "eras" in table else ())
    penalty: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    least = r.integer(table.get("min", 0), (*at, "min"), -MAX_VALUE, 0)
    for key in ("table", "penalty"):  # a list of points, counted from 0 entered
        if key in table and least < 0:
            raise r.error((*at, "min"), f"a {key} counts from 0: no min below 0 with it")
    if "table" in table:
        if any(k in table for k in ("multiply", "divide", "cap", "penalty")):
            raise r.error((*at, "table"), "a points table takes no multiply, divide, cap or "
                          "penalty")
        points = tuple(r.integer(v, p, -MAX_VALUE * 100, MAX_VALUE * 100) for p, v in
                       r.items(table["table"], (*at, "table"), "points for 0, 1, 2 ... entered"))
    if "penalty" in table:
        if any(k in table for k in ("multiply", "divide", "cap")):
            raise r.error((*at, "penalty"), "a penalty table takes no multiply, divide or cap")
        penalty = tuple(r.integer(v, p, 0, MAX_VALUE) for p, v in
                        r.items(table["penalty"], (*at, "penalty"), "points to take off"))
    cap = table.get("cap")
    return Category(
        id=r.ident(table["id"], (*at, "id")), label=r.label(table["label"], (*at, "label")),
        multiply=r.integer(table.get("multiply", 1), (*at, "multiply"), 1, 100),
        divide=r.integer(table.get("divide", 1), (*at, "divide"), 1, 100),
        cap=None if cap is None else r.integer(cap, (*at, "cap"), 0, MAX_VALUE * 100),
        most=r.integer(table.get("max", MAX_VALUE), (*at, "max"), 1, MAX_VALUE),
        penalty=penalty, table=points, least=least,
        each=r.flag(table.get("each", False), (*at, "each")),
        counts=r.flag(table.get("counts", True), (*at, "counts")),
        eras=_era_list(r, table["eras"], (*at, "eras"), eras) if "eras" in table else ())


def _era_list(r: _Reader, data: Any, path: Path, eras: int) -> tuple[int, ...]:
    """A category's `eras`: increasing era numbers, 1 to the profile's eras, at least one."""
    if not eras:
        raise r.error(path, "this game has no [[era]] tables (its one scoring asks every "
                      "category)")
    what = f"a list of increasing era numbers from 1 to {eras}, at least one"
    if not isinstance(data, list) or not data:
        raise r.expected(path, what, data)
    for index, value in enumerate(data):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= eras:
            raise r.expected((*path, index), f"an era number from 1 to {eras}", value)
        if index and value <= data[index - 1]:
            raise r.expected((*path, index), what, data)
    return tuple(data)


def _tie_break(r: _Reader, item: Any, at: Path, ids: tuple[str, ...],
               unasked: dict[str, str]) -> TieBreak:
    table = r.table(item, at, ("more", "fewer", "seat", "points", "only_first"))
    kinds = [k for k in ("more", "fewer", "seat") if k in table]
    if len(kinds) != 1:
        raise r.error(at, "expected exactly one of 'more', 'fewer' or 'seat'")
    kind = kinds[0]
    first = r.flag(table.get("only_first", False), (*at, "only_first"))
    if kind == "seat":
        if "points" in table:
            raise r.error((*at, "points"), "a seat rule takes no 'points'")
        return TieBreak("seat", seat=r.choice(table["seat"], (*at, "seat"), SEAT_RULES),
                        only_first=first)
    names = table[kind]
    listed = [names] if isinstance(names, str) else names
    if not isinstance(listed, list) or not listed:
        raise r.expected((*at, kind), "a category id or a list of them", names)
    for index, name in enumerate(listed):
        path = (*at, kind) if isinstance(names, str) else (*at, kind, index)
        if isinstance(name, str) and name in unasked:
            raise r.error(path, f"the category {name!r} {unasked[name]}: it cannot break ties")
        if name not in ids:
            raise r.expected(path, "the id of a [[scoring.category]] ("
                             + ", ".join(ids) + ")", name)
    return TieBreak(kind, categories=tuple(listed),
                    points=r.flag(table.get("points", False), (*at, "points")),
                    only_first=first)


def _stage(r: _Reader, item: Any, at: Path, ids: tuple[str, ...], max_players: int,
           unasked: dict[str, str]) -> Stage:
    table = r.table(item, at, ("category", "eliminate"), ("category",))
    if isinstance(table["category"], str) and table["category"] in unasked:
        raise r.error((*at, "category"), f"the category {table['category']!r} "
                      f"{unasked[table['category']]}: it cannot rank a stage")
    if table["category"] not in ids:
        raise r.expected((*at, "category"), "the id of a [[scoring.category]] ("
                         + ", ".join(ids) + ")", table["category"])
    out = table.get("eliminate", 0)
    if isinstance(out, dict):
        default = 0
        by_count = []
        for key, value in out.items():
            path = (*at, "eliminate", key)
            if key == "default":
                default = r.integer(value, path, 0, max_players - 1)
            elif key.isascii() and key.isdigit() and 1 <= int(key) <= max_players:
                by_count.append((int(key), r.integer(value, path, 0, int(key) - 1)))
            else:
                raise r.error(path, f"expected 'default' or a player count 1..{max_players}")
        return Stage(table["category"], tuple(sorted(by_count)), default)
    return Stage(table["category"], (), r.integer(out, (*at, "eliminate"), 0, max_players - 1))


def _solo_rank(r: _Reader, item: Any, at: Path) -> SoloRank:
    table = r.table(item, at, ("at_least", "label"), ("at_least", "label"))
    return SoloRank(r.integer(table["at_least"], (*at, "at_least"), -MAX_VALUE * 100,
                              MAX_VALUE * 100), r.label(table["label"], (*at, "label")))


def parse_eras(r: _Reader, data: Any) -> tuple[Era, ...]:
    """The `[[era]]` tables, in order (none: the game is one era, as it always was)."""
    if data is None:
        return ()
    eras: list[Era] = []
    for at, item in r.items(data, ("era",), "[[era]] tables"):
        if len(eras) == MAX_ERAS:
            raise r.error(at, f"at most {MAX_ERAS} [[era]] tables")
        table = r.table(item, at, ("label", "rounds", "numbers", "music", "track",
                                   "track_offset_s", "score"))
        label = r.label(table["label"], (*at, "label")) if "label" in table else None
        rounds = (r.integer(table["rounds"], (*at, "rounds"), 1, MAX_ROUNDS)
                  if "rounds" in table else None)
        music = r.sound(table["music"], (*at, "music"), ()) if "music" in table else ""
        score = r.sound(table["score"], (*at, "score"), ()) if "score" in table else ""
        eras.append(Era(label, rounds, _numbers(r, table.get("numbers", {}),
                                                (*at, "numbers")),
                        music, r.where((*at, "music")) if music else "",
                        parse_track(r, table, at), score,
                        r.where((*at, "score")) if score else ""))
    names = sorted({name for era in eras for name, _ in era.numbers})
    for index, era in enumerate(eras):
        missing = [name for name in names if name not in dict(era.numbers)]
        if missing:
            raise r.error(("era", index, "numbers"), f"no number '{missing[0]}' in era "
                          f"{index + 1}: a number is given in every [[era]]")
    r.numbers = ("players", *names)
    return tuple(eras)


def _numbers(r: _Reader, data: Any, path: Path) -> tuple[tuple[str, int], ...]:
    """An era's `numbers = { wonders = 1 }`: each name an id (not "players"), 0 to 999."""
    if not isinstance(data, dict):
        raise r.expected(path, "a table of numbers, as { wonders = 1 }", data)
    out = []
    for name, value in data.items():
        ident = r.ident(name, (*path, name))
        if ident == "players":
            raise r.error((*path, name), "'players' is the player count: give another name")
        out.append((ident, r.integer(value, (*path, name), 0, MAX_VALUE)))
    return tuple(out)


def unique(r: _Reader, ids: list[tuple[str, Path]]) -> None:
    """Each id once: the second use is an error at its key."""
    seen: set[str] = set()
    for ident, path in ids:
        if ident in seen:
            raise r.error(path, f"the id {ident!r} is used twice")
        seen.add(ident)


__all__ = ["Category", "Era", "ProfileError", "SoloRank", "Stage", "TieBreak",
           "parse_eras", "parse_scoring", "unique"]
