"""Settings chosen on the box: who plays, language, modes, volume and the like.

The config file is where defaults come from, and what only an installer sets (pins, audio
device, I2C bus). What a table changes every game night is set here, with the two buttons, and
overrides the file: `apply(config, settings)` gives the config the game runs with.

The menu is pure, like the core: `menu_step(menu, settings, colours, initial, event)` returns
the new menu (None once it is closed) and the new settings. It opens from the "New game" setup
screen (hold ERA), so nothing changes under a game in progress; players can only be chosen
there, before Era I, and the screen says so.

Each menu item is one row of `ITEMS`: its value, how it changes, its label and how the screen
says it, read by the menu here and by the screen (`erabox.ui.plans`); and for a one-value
setting, how the settings file keeps it and which config field it comes from and goes to, read
by `to_dict`, `from_dict`, `defaults` and `apply`. A new one-value setting is a `Settings`
field and one row (and its strings, in both languages).

Buttons in the menu (the hint line says the same):
    NEXT press: next item     NEXT hold: previous item
    ERA press:  change it     ERA hold: back to the game
The menu opens on "Game", then "Players": a game and its player count come first. "Back to
defaults" restores only on a second ERA press (the first one asks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .config import DEFAULT_PLAYERS, LANGUAGES, POINTS_ENTRIES, SCORE_VARIANTS, Config
from .jsontext import JsonTextError, json_object, short
from .model import Button, Gesture, Input, Mode
from .rules import (
    ERAS,
    FINAL_TICKS_S,  # final ticks switched on without a count in the config
    MAX_ERAS,
    MAX_SEATS,
    MIN_SEATS,
)
from .seats import fitted, seat_colours, seat_range, seated

SETTINGS_SCHEMA = 1
VOLUME_FLOOR = 0.1  # the menu never sets the box silent: 10 % is its lowest step
VOLUME_STEPS = tuple(round(v / 10, 1) for v in range(1, 11))
LEAD_IN_CHOICES = (0, 3, 5, 10)
BRIGHTNESS_CHOICES = (16, 64, 128, 255)  # SSD1306 contrast: low, medium, high, full


class SettingsError(ValueError):
    """A settings file that cannot be used."""


@dataclass(frozen=True)
class Settings:
    """What the menu sets. `seats` are the players' colours in seating order, the box passing
    left from one to the next; `oldest` indexes the oldest player (Era I's start player)."""

    seats: tuple[str, ...]
    oldest: int
    language: str
    modes: tuple[Mode, ...]  # each era's, Era I first: the game's eras, at least three
    volume: float
    final_ticks: bool
    lead_in_s: int
    brightness: int
    cue_led: bool
    guide: bool = True  # the preparation guide before each era
    keep_score: bool = True  # victory points entered on the box
    points_entry: str = "totals"  # "totals" (era totals) or "steps" (per checklist step)
    game: str = ""  # the game played: a profile's name or file, "" = Time of Empires
    games: tuple[str, ...] = ()  # what "Game" can choose besides "": config.games (not saved)
    # Whether "Game" was ever changed in the menu: then its game is played; else the config's
    # `game` is (and `game` above is the config's). "Back to defaults" clears it.
    game_chosen: bool = False
    # What the menu knows of each game, from the config (not saved): (name, fewest, most
    # players), and (name, "file.toml:line") for those whose file cannot be used.
    game_players: tuple[tuple[str, int, int], ...] = ()
    broken_games: tuple[tuple[str, str], ...] = ()
    eras: int = ERAS  # the game's eras: config.eras (not saved); the menu sets each one's mode
    music_level: float = 1.0  # the music's share of the volume: cues louder than the music
    score_variant: int = 0  # the era scores' version: 0 = the next each new game, else that one

    @property
    def players(self) -> tuple[str, ...]:
        """The config's player list: seating order, starting with the oldest."""
        return self.seats[self.oldest:] + self.seats[:self.oldest]


def defaults(config: Config) -> Settings:
    """The settings a config file describes (what "back to defaults" returns to): its
    players as it lists them (a count a game profile does not seat is said on the menu's
    screen, `game_problem`; Time of Empires seats the first four, `own_game_players`)."""
    return Settings(
        seats=config.players,
        oldest=0,
        language=config.language,
        modes=tuple(mode(config, era) for era in range(1, max(ERAS, config.eras) + 1)),
        **_known_games(config), eras=config.eras,
        **{field: keep.from_config(config) for field, keep in _stored()},
    )


def _known_games(config: Config) -> dict[str, Any]:
    """The games the box found, as the menu knows them (from the config, never saved)."""
    return {"games": config.games, "game_players": config.game_players,
            "broken_games": config.broken_games}


def game_problem(settings: Settings) -> str | None:
    """Why the game `settings` would play cannot be played, as a menu note (language-neutral,
    `erabox.ui.plans` says it): "game_broken:<file:line>" (its file cannot be used), or
    "game_players:<fewest>:<most>" (not for this many players); None when it can be, or the
    menu does not know (a game given as a file: the box says so when it tries)."""
    for name, where in settings.broken_games:
        if name == settings.game:
            return f"game_broken:{where}"
    for name, fewest, most in settings.game_players:
        if name == settings.game and not fewest <= len(settings.seats) <= most:
            return f"game_players:{fewest}:{most}"
    return None


def mode(config: Config, era: int) -> Mode:
    """The mode an era is set up in: chosen per era on the box, else the config's default."""
    if len(config.era_modes) >= era >= 1:
        return config.era_modes[era - 1]
    return config.default_mode


def apply(config: Config, settings: Settings) -> Config:
    """`config` (from the file) with `settings` laid over it."""
    config = replace(
        config,
        players=settings.players,
        language=settings.language,
        default_mode=settings.modes[0],
        era_modes=settings.modes,
    )
    for field, keep in _stored():
        config = keep.to_config(config, getattr(settings, field))
    return config


def fit_seats(settings: Settings, colours: tuple[str, ...],
              span: tuple[int, int] | None = None) -> Settings:
    """`settings` seated as the chosen game seats (`seats.fitted`)."""
    seats, oldest = fitted(settings, colours, span)
    return settings if seats == settings.seats else replace(settings, seats=seats, oldest=oldest)


def palette(config: Config) -> tuple[str, ...]:
    """The colours a seat can take: the game's four, and any others the config names (a game
    for more players adds more of the seat colours, `seat_colours`)."""
    return tuple(dict.fromkeys(config.players + DEFAULT_PLAYERS))


# --- the file -----------------------------------------------------------------------------------


def to_dict(settings: Settings) -> dict[str, Any]:
    saved = {
        "schema": SETTINGS_SCHEMA,
        "seats": list(settings.seats),
        "oldest": settings.oldest,
        "language": settings.language,
        "modes": [m.value for m in settings.modes],
        **{field: getattr(settings, field) for field, _ in _stored()},
    }
    if settings.game_chosen:
        saved["game_chosen"] = True
    else:  # the config's game plays: "" as files always held then (and their fingerprints)
        saved["game"] = ""
    return saved


def loads(text: str, config: Config) -> Settings:
    """Settings from the settings file's text; raises `SettingsError` saying what is wrong."""
    try:
        return from_dict(json_object(text), config)
    except JsonTextError as exc:
        raise SettingsError(str(exc)) from None
    except (TypeError, AttributeError, KeyError, IndexError) as exc:  # a safety net
        raise SettingsError(f"a value of the wrong type ({short(str(exc))})") from None


def from_dict(data: object, config: Config) -> Settings:
    """Settings from a saved dict; raises `SettingsError` naming the first bad key."""
    if not isinstance(data, dict):
        raise SettingsError("not a JSON object")
    schema = data.get("schema")
    if type(schema) is not int or schema != SETTINGS_SCHEMA:  # `true`, 1.0: not a schema
        raise SettingsError(f"schema {short(repr(schema))}, this box reads {SETTINGS_SCHEMA}")

    def need(key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise SettingsError(f"'{key}' should be {expected}, is {short(repr(data.get(key)))}")

    seats = data.get("seats")
    need("seats", isinstance(seats, list) and MIN_SEATS <= len(seats) <= MAX_SEATS
         and all(isinstance(s, str) and s.strip() == s and s and s.isprintable()
                 and len(s) <= 16 for s in seats)  # as the config's players
         and len({s.casefold() for s in seats}) == len(seats),
         f"{MIN_SEATS} to {MAX_SEATS} different colours (printable, up to 16 characters)")
    assert isinstance(seats, list)
    oldest = data.get("oldest")
    need("oldest", isinstance(oldest, int) and not isinstance(oldest, bool)
         and 0 <= oldest < len(seats), "a seat index")
    assert isinstance(oldest, int)
    need("language", isinstance(data.get("language"), str) and data["language"] in LANGUAGES,
         " or ".join(LANGUAGES))
    modes = data.get("modes")
    values = {m.value for m in Mode}
    need("modes", isinstance(modes, list) and ERAS <= len(modes) <= MAX_ERAS
         and all(isinstance(m, str) and m in values for m in modes),
         f"{ERAS} to {MAX_ERAS} of 'realtime'/'intro' (one per era)")
    assert isinstance(modes, list)
    # A file from a game of fewer eras (every file before games of more than three): an era
    # it has no mode for plays in Era I's, as such a file's eras beyond three always did.
    modes = modes + modes[:1] * (config.eras - len(modes))
    stored: dict[str, Any] = {}
    for field, keep in _stored():
        absent = keep.from_config(config) if keep.absent is FROM_CONFIG else keep.absent
        found = data.get(field, absent)
        need(field, found is not None and keep.check(found), keep.expected)
        stored[field] = keep.read(found)
    # Without `game_chosen` (a file from before it, or "Game" never chosen): "" is no choice;
    # another game was chosen in the menu (such a file came from before `game_chosen`).
    chosen = data.get("game_chosen", data.get("game", "") != "")
    need("game_chosen", isinstance(chosen, bool), "true or false")
    if not chosen:
        stored["game"] = config.game  # the config's game plays (docs: which game plays)
    return Settings(
        seats=tuple(seats), oldest=oldest, language=str(data["language"]),
        modes=tuple(Mode(m) for m in modes), game_chosen=chosen,
        **_known_games(config), eras=config.eras, **stored,
    )


# --- the menu -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Menu:
    """The open settings menu: which item is shown; `note` is a one-off message shown until
    the next press: "defaults_ask" (ERA pressed once on "Back to defaults": a second press
    restores), "defaults_done", or "swapped_<n>" (the seat changed took seat n's colour,
    and seat n its old one)."""

    item: int = 0
    note: str | None = None
    # The seats as they were when the seat item shown was first changed: each ERA press there
    # is one swap against these, so going once round a seat's colours disturbs no other seat.
    seats_before: tuple[str, ...] | None = None


# --- the menu's items: one row each ---------------------------------------------------------

# How the screen says an item's value (`MenuItem.says`): besides a strings key that takes the value
# as {n} ("value_percent" -> "80%"), one of these.
SAY_COLOUR = "colour"  # a player colour, translated
SAY_LANGUAGE = "language"  # a language, in its own name
SAY_WORD = "word"  # one of the item's `words`, by the strings key "value_<word>"
SAY_GAME = "game"  # a game profile's name as is; "" is Time of Empires (translated)
ON_OFF = ("on", "off")

Value = Callable[[Settings, int], str]
Change = Callable[[Settings, int, tuple[str, ...]], Settings]


FROM_CONFIG = "<from the config>"  # `Stored.absent`: a file without the key takes the config's


@dataclass(frozen=True)
class Stored:
    """How a one-value setting is kept: checked and read from the settings file (its key is
    the `Settings` field's name), taken from the config file as the default, laid over the
    config. `absent` is the value of a file written before the setting existed (None: the key
    is required; FROM_CONFIG: the config's)."""

    check: Callable[[Any], bool]  # a value from the file that the box can use
    expected: str  # what the file should hold, for the error ("true or false", "0..60")
    read: Callable[[Any], Any]  # the file's value as the field's type
    from_config: Callable[[Config], Any]  # the default, from the config file
    to_config: Callable[[Config, Any], Config]  # the config with this setting laid over it
    absent: Any = None


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _number(low: float, high: float, *, whole: bool = False) -> Callable[[Any], bool]:
    """A check for a number from `low` to `high` (an int when `whole`; never a bool)."""
    kinds = int if whole else int | float
    return lambda v: isinstance(v, kinds) and not isinstance(v, bool) and low <= v <= high




@dataclass(frozen=True)
class MenuItem:
    """One row of the settings menu: everything the menu and the screen know of an item.

    `value(settings, number)` is its value now, language-neutral ("80", "on", "ja", "blue");
    `change(settings, number, colours)` moves it to its next value, wrapping round. A
    numbered item stands for `count(settings)` items in a row, named with their number
    ("seat1".."seat4", "mode1".. one per era); `number` is 0 for the others. A one-value item
    names its `Settings` field and how it is `stored` (in the file and the config), so the
    file, the defaults and `apply` follow the table too.
    `label` and `note` are strings keys: the item's name (placeholders {n}: the number,
    {era}: the era of that number) and a line under its value where it says something the
    value does not ("" for none). `says` is how the screen says the value (SAY_* above, or a
    strings key taking {n}); `words` are the values SAY_WORD translates.
    """

    name: str
    value: Value
    change: Change
    label: str
    says: str
    note: str = ""
    words: tuple[str, ...] = ()
    count: Callable[[Settings], int] | None = None
    field: str = ""  # the `Settings` field a one-value item sets
    stored: Stored | None = None  # how that field is kept and where its default comes from


def _same(settings: Settings, _number: int, _colours: tuple[str, ...]) -> Settings:
    return settings


def _switch(name: str, field: str, stored: Stored, note: str = "") -> MenuItem:
    """An on/off item for the bool `field` of `Settings`."""

    def flip(settings: Settings, _number: int, _colours: tuple[str, ...]) -> Settings:
        changes: dict[str, Any] = {field: not getattr(settings, field)}
        return replace(settings, **changes)

    return MenuItem(name, value=lambda s, _: "on" if getattr(s, field) else "off", change=flip,
                    label=f"set_{name}", says=SAY_WORD, note=note, words=ON_OFF, field=field,
                    stored=stored)


def _steps(name: str, field: str, choices: tuple[float, ...], says: str,
           shown: Callable[[float], str], stored: Stored, note: str = "") -> MenuItem:
    """An item stepping the number `field` of `Settings` through `choices`, wrapping round
    (from the nearest choice: a file may hold a value between two steps); `shown` gives the
    value the screen says."""

    def step(settings: Settings, _number: int, _colours: tuple[str, ...]) -> Settings:
        at = _nearest_index(choices, getattr(settings, field))
        changes: dict[str, Any] = {field: choices[(at + 1) % len(choices)]}
        return replace(settings, **changes)

    return MenuItem(name, value=lambda s, _: shown(getattr(s, field)), change=step,
                    label=f"set_{name}", says=says, note=note, field=field, stored=stored)


def _change_players(settings: Settings, _number: int, colours: tuple[str, ...]) -> Settings:
    """One more player, through the chosen game's range and round (Time of Empires: 2 -> 3
    -> 4 -> 2); a new seat takes the first colour nobody has."""
    low, high = seat_range(settings)
    count = len(settings.seats) + 1 if low <= len(settings.seats) < high else low
    return replace(settings, seats=seated(settings.seats, count, colours),
                   oldest=min(settings.oldest, count - 1))


def _change_seat(settings: Settings, number: int, colours: tuple[str, ...]) -> Settings:
    """The seat's next colour; when another seat has it, the two seats swap colours."""
    seats = list(settings.seats)
    old = seats[number - 1]
    colours = seat_colours(settings, colours)
    pool = colours if old in colours else (*colours, old)
    new = pool[(pool.index(old) + 1) % len(pool)]
    if new in seats:
        seats[seats.index(new)] = old
    seats[number - 1] = new
    return replace(settings, seats=tuple(seats))


def _change_game(settings: Settings, _number: int, colours: tuple[str, ...]) -> Settings:
    """Time of Empires, then each game profile found, wrapping round: from now on the menu's
    game is played, not the config's; the player count is brought into the game's range
    (`fit_seats`)."""
    chosen = replace(settings, game=_next(("", *settings.games), settings.game), game_chosen=True)
    return fit_seats(chosen, colours)


def _is_game(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 255 and value.isprintable()


def _change_mode(settings: Settings, number: int, _colours: tuple[str, ...]) -> Settings:
    modes = list(settings.modes)
    modes[number - 1] = Mode.INTRO if modes[number - 1] is Mode.REALTIME else Mode.REALTIME
    return replace(settings, modes=tuple(modes))


# The era scores' version as the menu says it: 0 = the next one each new game.
VARIANT_WORDS = ("each_game",) + tuple(f"version{v}" for v in range(1, SCORE_VARIANTS + 1))

ITEMS: tuple[MenuItem, ...] = (
    # The game played, first: the menu opens on it, and the players' count (next) ranges over
    # what that game seats, so a game and its count are a few presses. Chosen here, it starts
    # (fresh) once the menu closes. Absent in a file written before profiles: the config's.
    MenuItem("game", lambda s, _: s.game, _change_game, label="set_game", says=SAY_GAME,
             note="note_game", field="game",
             stored=Stored(_is_game, "a game's name (\"\" for Time of Empires)", str,
                           lambda c: c.game, lambda c, g: replace(c, game=g),
                           absent=FROM_CONFIG)),
    MenuItem("players", lambda s, _: str(len(s.seats)), _change_players,
             label="set_players", says="value_players", note="note_players"),
    MenuItem("seat", lambda s, n: s.seats[n - 1], _change_seat,
             label="set_seat", says=SAY_COLOUR, note="note_players", count=lambda s: len(s.seats)),
    MenuItem("oldest", lambda s, _: s.seats[s.oldest],
             lambda s, _n, _c: replace(s, oldest=(s.oldest + 1) % len(s.seats)),
             label="set_oldest", says=SAY_COLOUR, note="note_oldest"),
    MenuItem("language", lambda s, _: s.language,
             lambda s, _n, _c: replace(s, language=_next(LANGUAGES, s.language)),
             label="set_language", says=SAY_LANGUAGE),
    MenuItem("mode", lambda s, n: s.modes[n - 1].value, _change_mode,
             label="set_mode", says=SAY_WORD, words=tuple(m.value for m in Mode),
             count=lambda s: min(s.eras, len(s.modes))),
    _steps("volume", "volume", VOLUME_STEPS, "value_percent", lambda v: str(round(v * 100)),
           Stored(_number(VOLUME_FLOOR - 1e-9, 1), f"{VOLUME_FLOOR:g}..1", float,
                  lambda c: max(VOLUME_FLOOR, c.audio.volume),
                  lambda c, v: replace(c, audio=replace(c.audio, volume=v))),
           note="note_volume"),
    # Added after the first settings files were written: absent means the config file's level.
    _steps("music_level", "music_level", VOLUME_STEPS, "value_percent",
           lambda v: str(round(v * 100)),
           Stored(_number(VOLUME_FLOOR - 1e-9, 1), f"{VOLUME_FLOOR:g}..1", float,
                  lambda c: max(VOLUME_FLOOR, c.audio.music_level),
                  lambda c, v: replace(c, audio=replace(c.audio, music_level=v)),
                  absent=FROM_CONFIG),
           note="note_music_level"),
    _switch("final_ticks", "final_ticks",
            Stored(_is_bool, "true or false", bool, lambda c: c.realtime.final_ticks_s > 0,
                   lambda c, on: replace(c, realtime=replace(
                       c.realtime, final_ticks_s=(c.realtime.final_ticks_s or FINAL_TICKS_S)
                       if on else 0))),
            note="note_final_ticks"),
    _steps("lead_in", "lead_in_s", LEAD_IN_CHOICES, "value_seconds", lambda v: str(v),
           Stored(_number(0, 60, whole=True), "0..60", int, lambda c: c.realtime.lead_in_s,
                  lambda c, v: replace(c, realtime=replace(c.realtime, lead_in_s=v)))),
    _steps("brightness", "brightness", BRIGHTNESS_CHOICES, "value_level",
           lambda v: str(_nearest_index(BRIGHTNESS_CHOICES, v) + 1),
           Stored(_number(0, 255, whole=True), "0..255", int, lambda c: c.display.contrast,
                  lambda c, v: replace(c, display=replace(c.display, contrast=v)))),
    _switch("cue_led", "cue_led",
            Stored(_is_bool, "true or false", bool, lambda c: c.cue_led,
                   lambda c, on: replace(c, cue_led=on))),
    # Added after the first settings files were written: absent means the guide is shown.
    _switch("guide", "guide",
            Stored(_is_bool, "true or false", bool, lambda c: c.guide,
                   lambda c, on: replace(c, guide=on), absent=True)),
    # Added later too: absent means the config file's value (it may set them).
    _switch("keep_score", "keep_score",
            Stored(_is_bool, "true or false", bool, lambda c: c.keep_score,
                   lambda c, on: replace(c, keep_score=on), absent=FROM_CONFIG),
            note="note_keep_score"),
    MenuItem("points_entry", lambda s, _: s.points_entry,
             lambda s, _n, _c: replace(s, points_entry=_next(POINTS_ENTRIES, s.points_entry)),
             label="set_points_entry", says=SAY_WORD, words=POINTS_ENTRIES,
             note="note_points_entry", field="points_entry",
             stored=Stored(lambda v: v in POINTS_ENTRIES, " or ".join(POINTS_ENTRIES), str,
                           lambda c: c.points_entry,
                           lambda c, v: replace(c, points_entry=v), absent=FROM_CONFIG)),
    # Added later too: which version of the era scores plays (absent: the config's).
    MenuItem("score_variant", lambda s, _: VARIANT_WORDS[s.score_variant],
             lambda s, _n, _c: replace(s, score_variant=(s.score_variant + 1)
                                       % (SCORE_VARIANTS + 1)),
             label="set_score_variant", says=SAY_WORD, words=VARIANT_WORDS,
             note="note_score_variant", field="score_variant",
             stored=Stored(_number(0, SCORE_VARIANTS, whole=True), f"0..{SCORE_VARIANTS}", int,
                           lambda c: c.audio.score_variant,
                           lambda c, v: replace(c, audio=replace(c.audio, score_variant=v)),
                           absent=FROM_CONFIG)),
    # The last two act on the menu itself (see `menu_step`); "Back to defaults" asks for a
    # second ERA press before it restores anything.
    MenuItem("defaults", lambda s, _: "", _same, label="set_defaults", says="value_restore",
             note="note_defaults"),
    MenuItem("done", lambda s, _: "", _same, label="set_done", says="value_back"),
)
"""The settings menu, in order. A new one-value setting is one row here (with its `Settings`
field and its strings)."""


def _stored() -> tuple[tuple[str, Stored], ...]:
    """The one-value items' fields and how each is kept, in table order: the file, the
    defaults and `apply` go by them."""
    return tuple((row.field, row.stored) for row in ITEMS if row.stored is not None)


def items(settings: Settings) -> tuple[str, ...]:
    """The menu's items, in order (one seat item per player)."""
    return tuple(
        f"{row.name}{number}" if row.count else row.name
        for row in ITEMS
        for number in (range(1, row.count(settings) + 1) if row.count else (0,))
    )


def find(item: str) -> tuple[MenuItem, int] | None:
    """The row of the menu item named `item`, and its number (0 for an unnumbered item);
    None when no row has that name."""
    for row in ITEMS:
        if row.count is None and item == row.name:
            return row, 0
        number = item.removeprefix(row.name)
        if row.count is not None and number != item and number.isdigit() \
                and int(number) >= 1:
            return row, int(number)
    return None


def value(settings: Settings, item: str) -> str:
    """The current value of `item`, language-neutral (the screen translates it)."""
    found = find(item)
    return "" if found is None else found[0].value(settings, found[1])


def menu_step(menu: Menu, settings: Settings, colours: tuple[str, ...], initial: Settings,
              event: Input) -> tuple[Menu | None, Settings]:
    """One button gesture in the menu. Returns (None, settings) when the menu closes.

    `colours` is the palette seats choose from; `initial` is what "back to defaults" restores.
    """
    names = items(settings)
    here = names[min(menu.item, len(names) - 1)]
    button, gesture = event.button, event.gesture
    if gesture is Gesture.RELEASE:  # the end of a hold: the hold itself did its job
        return menu, settings
    closing = (button, gesture) == (Button.ERA, Gesture.HOLD) or (
        (button, gesture) == (Button.ERA, Gesture.PRESS) and here == "done")
    problem = game_problem(settings) if closing else None
    if problem is not None:  # the menu stays, on "Game", saying why and what to change
        return Menu(item=names.index("game"), note=problem), settings
    if (button, gesture) == (Button.ERA, Gesture.HOLD):
        return None, settings
    if button is Button.NEXT:
        step = 1 if gesture is Gesture.PRESS else -1
        return Menu(item=(menu.item + step) % len(names)), settings
    if (button, gesture) != (Button.ERA, Gesture.PRESS):
        return menu, settings
    if here == "done":
        return None, settings
    if here == "defaults":  # a first ERA press only asks: one press by mistake loses nothing
        if menu.note == "defaults_ask":
            return Menu(item=menu.item, note="defaults_done"), initial
        return Menu(item=menu.item, note="defaults_ask"), settings
    found = find(here)
    if found is not None and found[0].name == "seat":
        before = menu.seats_before or settings.seats
        chosen = choose_seat(settings, before, found[1], colours)
        # A seat that took another seat's colour swapped with it: the screen says which.
        swapped = [i for i, (old, new) in enumerate(zip(before, chosen.seats, strict=False))
                   if old != new and i + 1 != found[1]]
        return Menu(item=menu.item, note=f"swapped_{swapped[0] + 1}" if swapped else None,
                    seats_before=before), chosen
    chosen = change(settings, here, colours)
    # Another game may seat more or fewer: the item stays the one shown, wherever it moved.
    return Menu(item=items(chosen).index(here)), chosen


def choose_seat(settings: Settings, before: tuple[str, ...], number: int,
                colours: tuple[str, ...]) -> Settings:
    """Seat `number` takes the colour after its current one. Against `before` (the seats
    when this seat's item was first changed): a colour another seat had there swaps the two,
    every other seat keeps what it had. Once round the colours, every seat is back."""
    current = settings.seats[number - 1]
    colours = seat_colours(settings, colours)
    pool = colours if current in colours else (*colours, current)
    new = pool[(pool.index(current) + 1) % len(pool)]
    seats = list(before)
    old = seats[number - 1]
    if new in seats:
        seats[seats.index(new)] = old
    seats[number - 1] = new
    return replace(settings, seats=tuple(seats))


def change(settings: Settings, item: str, colours: tuple[str, ...]) -> Settings:
    """`item` moved to its next value (wrapping round)."""
    found = find(item)
    return settings if found is None else found[0].change(settings, found[1], colours)


def _next(choices: tuple[str, ...], current: str) -> str:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices \
        else choices[0]


def _nearest_index(choices: tuple[float, ...], current: float) -> int:
    """The choice nearest `current` (the file may hold a value between two steps); the
    higher one on a tie."""
    return min(range(len(choices)), key=lambda i: (abs(choices[i] - current), -i))
