"""Settings chosen on the box: who plays, language, modes, volume and the like.

The config file is where defaults come from, and what only an installer sets (pins, audio
device, I2C bus). What a table changes every game night is set here, with the two buttons, and
overrides the file: `apply(config, settings)` gives the config the game runs with.

The menu is pure, like the core: `menu_step(menu, settings, defaults, input)` returns the new
menu (None once it is closed) and the new settings. It opens from the "New game" setup screen
(hold ERA), so nothing changes under a game in progress; players can only be chosen there,
before Era I, and the screen says so.

Buttons in the menu (the hint line says the same):
    NEXT press: next item     NEXT hold: previous item
    ERA press:  change it     ERA hold: back to the game
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .config import DEFAULT_PLAYERS, LANGUAGES, Config
from .model import Button, Gesture, Input, Mode
from .rules import FINAL_TICKS_S  # final ticks switched on without a count in the config

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
    modes: tuple[Mode, Mode, Mode]
    volume: float
    final_ticks: bool
    lead_in_s: int
    brightness: int
    cue_led: bool
    guide: bool = True  # the preparation guide before each era
    music_level: float = 1.0  # the music's share of the volume: cues louder than the music

    @property
    def players(self) -> tuple[str, ...]:
        """The config's player list: seating order, starting with the oldest."""
        return self.seats[self.oldest:] + self.seats[:self.oldest]


def defaults(config: Config) -> Settings:
    """The settings a config file describes (what "back to defaults" returns to)."""
    return Settings(
        seats=config.players,
        oldest=0,
        language=config.language,
        modes=(mode(config, 1), mode(config, 2), mode(config, 3)),
        volume=max(VOLUME_FLOOR, config.audio.volume),
        final_ticks=config.realtime.final_ticks_s > 0,
        lead_in_s=config.realtime.lead_in_s,
        brightness=config.display.contrast,
        cue_led=config.cue_led,
        guide=config.guide,
        music_level=max(VOLUME_FLOOR, config.audio.music_level),
    )


def mode(config: Config, era: int) -> Mode:
    """The mode an era is set up in: chosen per era on the box, else the config's default."""
    if len(config.era_modes) >= era >= 1:
        return config.era_modes[era - 1]
    return config.default_mode


def apply(config: Config, settings: Settings) -> Config:
    """`config` (from the file) with `settings` laid over it."""
    ticks = config.realtime.final_ticks_s or FINAL_TICKS_S
    return replace(
        config,
        players=settings.players,
        language=settings.language,
        default_mode=settings.modes[0],
        era_modes=settings.modes,
        cue_led=settings.cue_led,
        guide=settings.guide,
        audio=replace(config.audio, volume=settings.volume, music_level=settings.music_level),
        realtime=replace(config.realtime, final_ticks_s=ticks if settings.final_ticks else 0,
                         lead_in_s=settings.lead_in_s),
        display=replace(config.display, contrast=settings.brightness),
    )


def palette(config: Config) -> tuple[str, ...]:
    """The colours a seat can take: the game's four, and any others the config names."""
    return tuple(dict.fromkeys(config.players + DEFAULT_PLAYERS))


# --- the file -----------------------------------------------------------------------------------


def to_dict(settings: Settings) -> dict[str, Any]:
    return {
        "schema": SETTINGS_SCHEMA,
        "seats": list(settings.seats),
        "oldest": settings.oldest,
        "language": settings.language,
        "modes": [m.value for m in settings.modes],
        "volume": settings.volume,
        "final_ticks": settings.final_ticks,
        "lead_in_s": settings.lead_in_s,
        "brightness": settings.brightness,
        "cue_led": settings.cue_led,
        "guide": settings.guide,
        "music_level": settings.music_level,
    }


def from_dict(data: object, config: Config) -> Settings:
    """Settings from a saved dict; raises `SettingsError` naming the first bad key."""
    if not isinstance(data, dict):
        raise SettingsError("not a JSON object")
    if data.get("schema") != SETTINGS_SCHEMA:
        raise SettingsError(f"schema {data.get('schema')!r}, this box reads {SETTINGS_SCHEMA}")

    def need(key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise SettingsError(f"'{key}' should be {expected}, is {data.get(key)!r}")

    seats = data.get("seats")
    need("seats", isinstance(seats, list) and 2 <= len(seats) <= 4
         and all(isinstance(s, str) and s.strip() and len(s) <= 16 for s in seats)
         and len(set(seats)) == len(seats), "2 to 4 different colours")
    assert isinstance(seats, list)
    oldest = data.get("oldest")
    need("oldest", isinstance(oldest, int) and not isinstance(oldest, bool)
         and 0 <= oldest < len(seats), "a seat index")
    need("language", data.get("language") in LANGUAGES, " or ".join(LANGUAGES))
    modes = data.get("modes")
    values = {m.value for m in Mode}
    need("modes", isinstance(modes, list) and len(modes) == 3
         and all(m in values for m in modes), "three of 'realtime'/'intro'")
    assert isinstance(modes, list)
    volume = data.get("volume")
    need("volume", isinstance(volume, int | float) and not isinstance(volume, bool)
         and VOLUME_FLOOR - 1e-9 <= volume <= 1, f"{VOLUME_FLOOR:g}..1")
    for key in ("final_ticks", "cue_led"):
        need(key, isinstance(data.get(key), bool), "true or false")
    # Added after the first settings files were written: absent means the guide is shown.
    need("guide", isinstance(data.get("guide", True), bool), "true or false")
    # Added later too: absent means the config file's level.
    level = data.get("music_level", max(VOLUME_FLOOR, config.audio.music_level))
    need("music_level", isinstance(level, int | float) and not isinstance(level, bool)
         and VOLUME_FLOOR - 1e-9 <= level <= 1, f"{VOLUME_FLOOR:g}..1")
    assert isinstance(level, int | float)
    lead_in = data.get("lead_in_s")
    need("lead_in_s", isinstance(lead_in, int) and not isinstance(lead_in, bool)
         and 0 <= lead_in <= 60, "0..60")
    brightness = data.get("brightness")
    need("brightness", isinstance(brightness, int) and not isinstance(brightness, bool)
         and 0 <= brightness <= 255, "0..255")
    assert isinstance(oldest, int) and isinstance(volume, int | float)
    assert isinstance(lead_in, int) and isinstance(brightness, int)
    return Settings(
        seats=tuple(seats), oldest=oldest, language=str(data["language"]),
        modes=(Mode(modes[0]), Mode(modes[1]), Mode(modes[2])), volume=float(volume),
        final_ticks=bool(data["final_ticks"]), lead_in_s=lead_in, brightness=brightness,
        cue_led=bool(data["cue_led"]),
        guide=bool(data.get("guide", True)),
        music_level=float(level),
    )


# --- the menu -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Menu:
    """The open settings menu: which item is shown; `note` is a one-off message key
    ("defaults_done") shown until the next press."""

    item: int = 0
    note: str | None = None


def items(settings: Settings) -> tuple[str, ...]:
    """The menu's items, in order (one seat item per player)."""
    seats = tuple(f"seat{n}" for n in range(1, len(settings.seats) + 1))
    return ("players", *seats, "oldest", "language", "mode1", "mode2", "mode3", "volume",
            "music_level", "final_ticks", "lead_in", "brightness", "cue_led", "guide",
            "defaults", "done")


def value(settings: Settings, item: str) -> str:
    """The current value of `item`, language-neutral (the screen translates it)."""
    if item == "players":
        return str(len(settings.seats))
    if item.startswith("seat"):
        return settings.seats[int(item[4:]) - 1]
    if item == "oldest":
        return settings.seats[settings.oldest]
    if item == "language":
        return settings.language
    if item.startswith("mode"):
        return settings.modes[int(item[4:]) - 1].value
    if item == "volume":
        return str(round(settings.volume * 100))
    if item == "music_level":
        return str(round(settings.music_level * 100))
    if item == "final_ticks":
        return "on" if settings.final_ticks else "off"
    if item == "lead_in":
        return str(settings.lead_in_s)
    if item == "brightness":
        return str(_nearest_index(BRIGHTNESS_CHOICES, settings.brightness) + 1)
    if item == "cue_led":
        return "on" if settings.cue_led else "off"
    if item == "guide":
        return "on" if settings.guide else "off"
    return ""


def menu_step(menu: Menu, settings: Settings, colours: tuple[str, ...], initial: Settings,
              event: Input) -> tuple[Menu | None, Settings]:
    """One button gesture in the menu. Returns (None, settings) when the menu closes.

    `colours` is the palette seats choose from; `initial` is what "back to defaults" restores.
    """
    names = items(settings)
    here = names[min(menu.item, len(names) - 1)]
    button, gesture = event.button, event.gesture
    if (button, gesture) == (Button.ERA, Gesture.HOLD):
        return None, settings
    if button is Button.NEXT:
        step = 1 if gesture is Gesture.PRESS else -1
        return Menu(item=(menu.item + step) % len(names)), settings
    if (button, gesture) != (Button.ERA, Gesture.PRESS):
        return menu, settings
    if here == "done":
        return None, settings
    if here == "defaults":
        return Menu(item=menu.item, note="defaults_done"), initial
    return Menu(item=menu.item), change(settings, here, colours)


def change(settings: Settings, item: str, colours: tuple[str, ...]) -> Settings:
    """`item` moved to its next value (wrapping round)."""
    if item == "players":
        count = len(settings.seats) % 4 + 1 if len(settings.seats) < 4 else 2
        seats = list(settings.seats[:count])
        for colour in colours:
            if len(seats) >= count:
                break
            if colour not in seats:
                seats.append(colour)
        return replace(settings, seats=tuple(seats), oldest=min(settings.oldest, count - 1))
    if item.startswith("seat"):
        index = int(item[4:]) - 1
        seats = list(settings.seats)
        old = seats[index]
        pool = colours if old in colours else (*colours, old)
        new = pool[(pool.index(old) + 1) % len(pool)]
        if new in seats:  # another seat has it: the two seats swap colours
            seats[seats.index(new)] = old
        seats[index] = new
        return replace(settings, seats=tuple(seats))
    if item == "oldest":
        return replace(settings, oldest=(settings.oldest + 1) % len(settings.seats))
    if item == "language":
        return replace(settings, language=_next(LANGUAGES, settings.language))
    if item.startswith("mode"):
        index = int(item[4:]) - 1
        modes = list(settings.modes)
        modes[index] = Mode.INTRO if modes[index] is Mode.REALTIME else Mode.REALTIME
        return replace(settings, modes=(modes[0], modes[1], modes[2]))
    if item == "volume":
        at = _nearest_index(VOLUME_STEPS, settings.volume)
        return replace(settings, volume=VOLUME_STEPS[(at + 1) % len(VOLUME_STEPS)])
    if item == "music_level":
        at = _nearest_index(VOLUME_STEPS, settings.music_level)
        return replace(settings, music_level=VOLUME_STEPS[(at + 1) % len(VOLUME_STEPS)])
    if item == "final_ticks":
        return replace(settings, final_ticks=not settings.final_ticks)
    if item == "lead_in":
        at = _nearest_index(LEAD_IN_CHOICES, settings.lead_in_s)
        return replace(settings, lead_in_s=LEAD_IN_CHOICES[(at + 1) % len(LEAD_IN_CHOICES)])
    if item == "brightness":
        at = _nearest_index(BRIGHTNESS_CHOICES, settings.brightness)
        return replace(settings,
                       brightness=BRIGHTNESS_CHOICES[(at + 1) % len(BRIGHTNESS_CHOICES)])
    if item == "cue_led":
        return replace(settings, cue_led=not settings.cue_led)
    if item == "guide":
        return replace(settings, guide=not settings.guide)
    return settings


def _next(choices: tuple[str, ...], current: str) -> str:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices \
        else choices[0]


def _nearest_index(choices: tuple[float, ...], current: float) -> int:
    """The choice nearest `current` (the file may hold a value between two steps); the
    higher one on a tie."""
    return min(range(len(choices)), key=lambda i: (abs(choices[i] - current), -i))
