"""The basics of reading a game profile: its error, its texts, and the reader that checks
each value and places each problem at its key's line (`erabox.core.profile` reads the
profile's tables with it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from .rules import GUIDE_TEXTS, MAX_SEATS
from .toml_lines import Path, dotted

MAX_PLAYERS = MAX_SEATS  # the most seats a profile may name (the box seats at most this many)
MAX_ROUNDS = 999
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
NUMBER = re.compile(r"\{([a-z0-9][a-z0-9_-]{0,31})\}")  # `{wonders}` in a step's text
MAX_PATH = 4096  # the longest sound file name
SOUND_FILES = (".ogg", ".wav", ".flac", ".mp3")  # what a profile's own sound file may be


class ProfileError(ValueError):
    """A profile that cannot be used. The message is `file:line: key 'x.y': problem`."""


@dataclass(frozen=True)
class Label:
    """A text in English and Japanese."""

    en: str
    ja: str

    def text(self, language: str) -> str:
        return self.ja if language == "ja" else self.en


@dataclass(frozen=True)
class Step(Label):
    """A step's text shown only with `players_at_least` to `players_at_most` players, in the
    `variants` named (all if none) and in the rounds `from_round` to `until_round` (a special
    round's: the round it comes after, 0 before round 1; an event's: the round it happens in).
    The steps of a phase, special round or event without these keys are plain `Label`s."""

    players_at_least: int = 1
    players_at_most: int = MAX_PLAYERS
    variants: tuple[str, ...] = ()
    from_round: int = 0
    until_round: int = MAX_ROUNDS
    from_era: int = 1  # in a game of eras: shown from that era on (1-based) ...
    era: int = 0  # ... and only in that era (0: every era), as Time of Empires' steps
    guide: bool = False  # shown only while the box's first-game guide is on (`guide`)
    # the box's own words for this step: one of Time of Empires' guide texts
    # (`rules.GUIDE_TEXTS`), shown on its screens in Time of Empires' words (`era_screen`)
    say: str = ""

    def in_era(self, era: int | None) -> bool:
        return era is None or (self.from_era <= era and self.era in (0, era))


def filled(step: Label, numbers: dict[str, int]) -> Label:
    """The step with each `{name}` in its texts replaced by its number (`numbers`: the
    player count as "players" and the era's `[[era]] numbers`)."""
    def fill(text: str) -> str:
        return NUMBER.sub(lambda m: str(numbers[m[1]]) if m[1] in numbers else m[0], text)

    return replace(step, en=fill(step.en), ja=fill(step.ja)) if "{" in step.en + step.ja else (
        step)


STEP_KEYS = ("players_at_least", "players_at_most", "variants", "from_round", "until_round",
             "from_era", "era", "guide", "say")


def shown_steps(steps: tuple[Label, ...], players: int, variant: str | None = None,
                round_no: int | None = None, era: int | None = None) -> tuple[Label, ...]:
    """The steps shown with `players` players in the variant `variant` (its id), the round
    `round_no` and the era `era` (1-based; None: any): a `Step` outside its player counts,
    variants, rounds or eras is left out."""
    return tuple(s for s in steps if not isinstance(s, Step) or (
        s.players_at_least <= players <= s.players_at_most
        and (variant is None or not s.variants or variant in s.variants)
        and (round_no is None or s.from_round <= round_no <= s.until_round)
        and s.in_era(era)))


def check_steps(r: _Reader, steps: tuple[Label, ...], path: Path, players: range,
                cases: dict[str, Sequence[int]], named: bool, era: int | None = None,
                guide: str = "") -> None:
    """Every step shown in some case the game has, and every case shown a step. `cases`: per
    variant id, the rounds its phase, special round or event comes in; `named`: the profile
    has [[variant]] tables; `era`: the era checked (a game of eras is checked era by era);
    steps of the guide (`guide = true`): every case shown a step without them too."""
    edges: set[int] = set()  # the rounds where the steps shown change
    for index, item in enumerate(steps):
        if not isinstance(item, Step) or not item.in_era(era):
            continue
        at = (*path, index)
        if item.players_at_most < players[0] or item.players_at_least > players[-1]:
            raise r.error((*at, "players_at_least"),
                          f"never shown: this game is for {players[0]} to {players[-1]} players")
        for k, ident in enumerate(item.variants):
            if not named:
                raise r.error((*at, "variants"), "this game has no [[variant]] tables")
            if ident not in cases:
                raise r.expected((*at, "variants", k), "the id of a [[variant]] ("
                                 + ", ".join(cases) + ")", ident)
        ours = [rounds for v, rounds in cases.items() if not item.variants or v in item.variants]
        if not any(ours):
            raise r.error((*at, "variants"), "never shown: this does not come in these variants")
        if not any(item.from_round <= n <= item.until_round for rounds in ours for n in rounds):
            raise r.error((*at, "from_round" if item.from_round else "until_round"),
                          f"never shown: this comes in no round from {item.from_round} to "
                          f"{item.until_round}" + (" in its variants" if item.variants else ""))
        if item.variants or item.from_round or item.until_round < MAX_ROUNDS:
            edges |= {item.from_round, item.until_round + 1}
    checked: list[tuple[str | None, Sequence[int | None]]] = (
        [*cases.items()] if edges else [(None, (None,))])
    for variant, rounds in checked:
        for n in rounds:
            if isinstance(rounds, range) and n != rounds[0] and n not in edges:
                continue
            for count in players:
                if not shown_steps(steps, count, variant, n, era):
                    raise r.error(path, f"no step left{guide} with {count} player"
                                  + "s" * (count > 1) + (
                        f" in era {era}" if era is not None else "") + (
                        f" in round {n}" + (f" of the variant '{variant}'" if named else "")
                        + " (each round, variant and player count needs one)" if edges else
                        " (each player count the game takes needs one)"))
    if not guide and any(isinstance(s, Step) and s.guide for s in steps):  # each case
        check_steps(r, tuple(s for s in steps if not (isinstance(s, Step) and s.guide)), path,
                    players, cases, named, era, " with the guide off")  # keeps one without


def check_guide(r: _Reader, played: Sequence[tuple[int, bool]], variant: str) -> None:
    """A variant keeps a phase to play with the guide off: of the phases it plays (index,
    `guide`), one at least not `guide = true` (`guide`)."""
    if played and all(guide for _, guide in played):
        raise r.error(("phase", played[-1][0], "guide"), "with the guide off no [[phase]] is "
                      f"played in the variant '{variant}' (one at least without guide = true)")


def variant_per_era(r: _Reader, rounds: dict[str, Any], variants: int, eras: int) -> bool:
    """`[rounds] variant_per_era`: each era's setup chooses its variant again, which needs
    [[era]]s and two [[variant]]s at least to choose from."""
    path: Path = ("rounds", "variant_per_era")
    per_era = r.flag(rounds.get("variant_per_era", False), path)
    if per_era and eras == 0:
        raise r.error(path, "variant_per_era needs [[era]] tables (a variant chosen at each "
                      "era's setup)")
    if per_era and variants < 2:
        raise r.error(path, "variant_per_era needs two [[variant]] tables at least (the "
                      "variants each era's setup chooses from)")
    return per_era


def guide_at_setup(r: _Reader, rounds: dict[str, Any],
                   specials: Sequence[tuple[bool, Sequence[Sequence[int]]]],
                   phases: Sequence[tuple[bool, tuple[Label, ...]]]) -> bool:
    """`[rounds] guide_at_setup`: the guide's parts (`guide = true`) are walked at the game's
    and each era's setup, before ERA starts round 1 (`profile_walk`): its special rounds
    come before round 1 only (`after = [0]`), its steps of a phase are round 1's
    (`until_round = 1`), and there is one such part at least. `specials`: (guide, after per
    variant) of each [[special]]; `phases`: (guide, steps) of each [[phase]]."""
    path: Path = ("rounds", "guide_at_setup")
    if not r.flag(rounds.get("guide_at_setup", False), path):
        return False
    marked = False
    for index, (guide, after) in enumerate(specials):
        if guide and any(n for rounds_after in after for n in rounds_after):
            raise r.error(("special", index, "after"), "with guide_at_setup a special round "
                          "of the guide (guide = true) comes before round 1 only: after = [0]")
        marked |= guide
    for index, (guide, steps) in enumerate(phases):
        for number, step in enumerate(steps):
            if isinstance(step, Step) and step.guide and not guide and step.until_round != 1:
                raise r.error(("phase", index, "steps", number), "with guide_at_setup a step "
                              "of the guide (guide = true) is round 1's: until_round = 1")
            marked |= isinstance(step, Step) and step.guide
        marked |= guide
    if not marked:
        raise r.error(path, "guide_at_setup needs parts of the guide to walk at the setup "
                      "(guide = true on a [[phase]], a [[special]] or a step)")
    return True


class _Reader:
    """Hands out checked values of the parsed data, each error placed at its key's line."""

    def __init__(self, source: str, lines: dict[Path, int], base_dir: str | None = None
                 ) -> None:
        self.source = source
        self.lines = lines
        self.base_dir = base_dir
        self.eras = 0  # the profile's [[era]] tables: a step's era keys need them
        self.numbers: tuple[str, ...] = ("players",)  # the `{name}`s a step's text may hold

    def line(self, path: Path) -> int | None:
        for end in range(len(path), -1, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return None

    def error(self, path: Path, problem: str) -> ProfileError:
        return ProfileError(f"{self.where(path)}: {problem}")

    def where(self, path: Path) -> str:
        """"file:line: key 'x.y'", for messages."""
        line = self.line(path)
        where = f"{self.source}:{line}" if line is not None else self.source
        return f"{where}: key '{dotted(path) or '(top)'}'"

    def expected(self, path: Path, what: str, got: object) -> ProfileError:
        return self.error(path, f"expected {what}, got {_shown(got)}")

    def table(self, data: Any, path: Path, known: tuple[str, ...],
              required: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.expected(path, "a table", data)
        for key in data:
            if key not in known:
                raise self.error((*path, key), "unknown key (known here: "
                                 + ", ".join(known) + ")")
        for key in required:
            if key not in data:
                raise self.error(path, f"missing key '{key}'")
        return data

    def items(self, data: Any, path: Path, what: str, *, empty: bool = False
              ) -> Iterator[tuple[Path, Any]]:
        if not isinstance(data, list) or (not empty and not data):
            raise self.expected(path, f"a list of {what}" + ("" if empty else " (at least one)"),
                                data)
        for index, item in enumerate(data):
            yield (*path, index), item

    def integer(self, data: Any, path: Path, low: int, high: int) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or not low <= data <= high:
            raise self.expected(path, f"a whole number from {low} to {high}", data)
        return data

    def number(self, data: Any, path: Path, high: float) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float) or not 0 < data <= high:
            raise self.expected(path, f"a number of seconds above 0 and at most {high:g}", data)
        return float(data)

    def sound(self, data: Any, path: Path, cues: tuple[str, ...]) -> str:
        """One of the box's `cues`, or the name of a sound file of the profile's own, made
        relative to the profile's folder (`SOUND_FILES`: a typo of a cue is an error, not
        a file that is missing)."""
        if data in cues:
            return str(data)
        if (not isinstance(data, str) or not data.strip() or len(data) > MAX_PATH
                or not data.isprintable() or not data.strip().lower().endswith(SOUND_FILES)):
            named = "".join(f"{c!r}, " for c in cues)  # none: only a file will do
            raise self.expected(path, (f"one of {named}or " if cues else "")
                                + "a sound file's name (" + ", ".join(SOUND_FILES) + ")", data)
        name = PurePath(data.strip())
        if not name.is_absolute() and self.base_dir is not None:
            name = PurePath(self.base_dir) / name
        return str(name)

    def flag(self, data: Any, path: Path) -> bool:
        if not isinstance(data, bool):
            raise self.expected(path, "true or false", data)
        return data

    def choice(self, data: Any, path: Path, choices: tuple[str, ...]) -> str:
        if data not in choices:
            raise self.expected(path, "one of " + ", ".join(repr(c) for c in choices), data)
        return str(data)

    def ident(self, data: Any, path: Path) -> str:
        if not isinstance(data, str) or not _ID.match(data):
            raise self.expected(path, "an id: lower-case letters, digits, '-' or '_', "
                                "up to 32", data)
        return data

    def label(self, data: Any, path: Path) -> Label:
        """`{ en = "...", ja = "..." }`; a plain string serves both languages."""
        if isinstance(data, str):
            data = {"en": data, "ja": data}
        table = self.table(data, path, ("en", "ja"), ("en", "ja"))
        texts = []
        for key in ("en", "ja"):
            text = table[key]
            if not isinstance(text, str) or not text.strip() or len(text) > 120 or not all(
                    ch.isprintable() for ch in text):
                raise self.expected((*path, key), "a printable text of 1 to 120 characters",
                                    text)
            texts.append(text.strip())
        return Label(*texts)

    def steps(self, data: Any, path: Path) -> tuple[Label, ...]:
        """Texts, each optionally `{ en = ..., ja = ..., players_at_least = n, ... }` with
        the `STEP_KEYS`: shown only with so many players, in those variants and rounds."""
        steps: list[Label] = []
        for at, item in self.items(data, path, "texts", empty=True):
            self._numbers(item, at)
            if not isinstance(item, dict) or not set(STEP_KEYS) & item.keys():
                steps.append(self.label(item, at))
                continue
            self.table(item, at, ("en", "ja", *STEP_KEYS), ("en", "ja"))
            low = self.integer(item.get("players_at_least", 1), (*at, "players_at_least"), 1,
                               MAX_PLAYERS)
            high = self.integer(item.get("players_at_most", MAX_PLAYERS),
                                (*at, "players_at_most"), low, MAX_PLAYERS)
            variants = tuple(self.ident(v, p) for p, v in self.items(
                item["variants"], (*at, "variants"), "variant ids")) if "variants" in item else ()
            first = self.integer(item.get("from_round", 0), (*at, "from_round"), 0, MAX_ROUNDS)
            last = self.integer(item.get("until_round", MAX_ROUNDS), (*at, "until_round"),
                                first, MAX_ROUNDS)
            text = self.label({"en": item["en"], "ja": item["ja"]}, at)
            from_era, era = self._step_eras(item, at)
            say = self.choice(item["say"], (*at, "say"), GUIDE_TEXTS) if "say" in item else ""
            steps.append(Step(text.en, text.ja, low, high, variants, first, last, from_era,
                              era, self.flag(item.get("guide", False), (*at, "guide")), say))
        return tuple(steps)

    def _numbers(self, item: Any, at: Path) -> None:
        """Each `{name}` in a step's texts one of the `numbers` (the player count, the
        `[[era]] numbers`)."""
        texts = item.items() if isinstance(item, dict) else [("", item)]
        for key, text in texts:
            for name in NUMBER.findall(text) if isinstance(text, str) else ():
                if name not in self.numbers:
                    raise self.error((*at, key) if key else at, f"unknown number '{{{name}}}' "
                                     "(known: " + ", ".join(
                                         f"{{{n}}}" for n in self.numbers) + "; give it in "
                                     "each [[era]]'s numbers)")

    def _step_eras(self, item: dict[str, Any], at: Path) -> tuple[int, int]:
        """A step's `from_era` and `era` (Time of Empires' step keys), in a game of eras."""
        for key in ("from_era", "era"):
            if key in item and not self.eras:
                raise self.error((*at, key), "this game has no [[era]] tables")
        if not self.eras:
            return 1, 0
        first = self.integer(item.get("from_era", 1), (*at, "from_era"), 1, self.eras)
        only = self.integer(item.get("era", 0), (*at, "era"), 0, self.eras)
        if only and only < first:
            raise self.error((*at, "era"), f"never shown: era {only} is before from_era "
                             f"{first}")
        return first, only

    def labels(self, data: Any, path: Path, *, empty: bool = True) -> tuple[Label, ...]:
        return tuple(self.label(item, at) for at, item in self.items(data, path, "texts",
                                                                      empty=empty))



def _shown(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
