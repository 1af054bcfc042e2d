"""The box's configuration: TOML in, a frozen, validated model out.

Every key is optional; defaults are the rulebook's (9-minute era, cries at 3:00 and 6:00,
15 introductory rounds with scholar calls after rounds 5 and 10: `erabox.core.rules`), and each
default is written once, in the dataclasses below (the parser reads them from there).
A key that is unknown, of the wrong type or out of range raises `ConfigError` naming the file,
the key and what was expected: the box refuses to start on a config it would misread rather
than guess.

This module only parses text; reading the file is the caller's job (`load_config_file`).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import PurePath
from typing import Any, ClassVar

from . import rules
from .model import Mode

LANGUAGES = ("en", "ja")
DEFAULT_PLAYERS = ("red", "blue", "green", "yellow")
MUSIC_KINDS = ("loop", "track")
# "score": real-time eras play the through-composed 540 s score (sounds/era<N>_score.ogg),
# positioned at running time; "synth": the short synthesised loops everywhere (~20 MB less
# on the SD card: the scores may then be deleted).
MUSIC_STYLES = ("score", "synth")
POINTS_ENTRIES = ("totals", "steps")  # era totals (the default) or per scoring step


class ConfigError(ValueError):
    """A config file that cannot be used. The message names file, key and expectation."""


@dataclass(frozen=True)
class RealtimeConfig:
    length_s: float = rules.ERA_LENGTH_S
    scholar_cues_s: tuple[float, ...] = rules.SCHOLAR_CUES_S
    lead_in_s: int = rules.LEAD_IN_S
    final_ticks_s: int = rules.FINAL_TICKS_S
    scholar_prompt_s: float = rules.SCHOLAR_PROMPT_S


@dataclass(frozen=True)
class IntroConfig:
    rounds: int = rules.INTRO_ROUNDS
    scholar_after_rounds: tuple[int, ...] = rules.SCHOLAR_AFTER_ROUNDS


@dataclass(frozen=True)
class EraMusic:
    """Per-era music: the built-in loop unless `music` names a file."""

    music: str = ""  # absolute path, "" = built-in
    music_kind: str = "loop"  # "loop" under the box's cues, or "track" = a timed soundtrack
    track_offset_s: float = 0.0  # position of the first gong in a track


@dataclass(frozen=True)
class AudioConfig:
    rate: int = 44100
    buffer: int = 512
    device: str = ""
    volume: float = 0.8
    duck_db: float = 12.0  # how far the music drops under a cue
    music_level: float = 1.0  # the music's share of the volume (0..1); cues stay at `volume`
    gong: str = ""  # replacement cue files ("" = built-in)
    cry: str = ""
    tick: str = ""
    music_style: str = "score"  # one of MUSIC_STYLES
    eras: tuple[EraMusic, ...] = (EraMusic(),) * rules.ERAS  # one per era


# The panel heights the screen layouts are made for (SSD1306 modules are 128 wide).
PANEL_HEIGHTS = (64, 32)


@dataclass(frozen=True)
class DisplayConfig:
    # The panel's size in pixels. The one place it is written: the renderer (as a
    # `erabox.ui.panel.Panel`), the frame checks, the OLED driver, the window and the terminal
    # take it from here. Every SSD1306 module is 128 wide (ClassVar: not a key of the file);
    # the height is the `[display] height` key, one of PANEL_HEIGHTS.
    width: ClassVar[int] = 128
    height: int = 64
    i2c_bus: int = 1
    address: int = 0x3C
    rotate: int = 0
    contrast: int = 255

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the panel in pixels."""
        return (self.width, self.height)


@dataclass(frozen=True)
class ButtonsConfig:
    next_pin: int = 17
    era_pin: int = 27
    vol_up_pin: int | None = 22
    vol_down_pin: int | None = 23
    led_pin: int | None = 24
    # The optional rotary encoder (hardware.md suggests GPIO5/GPIO6): both pins or neither.
    dial_a_pin: int | None = None
    dial_b_pin: int | None = None
    hold_s: float = 0.8
    both_s: float = 3.0
    bounce_s: float = 0.02


@dataclass(frozen=True)
class Config:
    language: str = "en"
    players: tuple[str, ...] = DEFAULT_PLAYERS
    default_mode: Mode = Mode.REALTIME
    state_file: str = ""
    game: str = ""  # a game profile's name or file (docs/profiles.md); "" = Time of Empires
    # The game profiles found at start (names, the settings menu's "Game" choices): handed in
    # by the box (profile_file.available_games), never read from the file.
    games: tuple[str, ...] = ()
    # ... and their own names, (name, English, Japanese): what "Game" shows for each.
    game_names: tuple[tuple[str, str, str], ...] = ()
    realtime: RealtimeConfig = field(default_factory=RealtimeConfig)
    intro: IntroConfig = field(default_factory=IntroConfig)
    audio: AudioConfig = field(default_factory=AudioConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    source: str = "<defaults>"  # where it came from, for messages
    # Set on the box only (settings menu, `erabox.core.settings`), never read from the file:
    era_modes: tuple[Mode, ...] = ()  # each era's mode when set up; () = `default_mode`
    cue_led: bool = True  # flash the cue LED (when one is fitted)
    guide: bool = True  # show the preparation guide before each era's action phase
    # Victory points (docs/behaviour.md): kept on the box at all, and entered as era totals
    # ("totals": one number per player and era) or per step of the scoring checklist.
    keep_score: bool = True
    points_entry: str = "totals"


class _Table:
    """One TOML table being read: hands out typed values and remembers which keys were used."""

    def __init__(self, source: str, prefix: str, data: dict[str, Any]) -> None:
        self.source = source
        self.prefix = prefix
        self.data = data
        self.used: set[str] = set()

    def fail(self, key: str, expected: str) -> ConfigError:
        value = _shown(self.data.get(key))
        return ConfigError(
            f"{self.source}: key '{self.prefix}{key}': expected {expected}, got {value}"
        )

    def get(self, key: str) -> Any:
        self.used.add(key)
        return self.data.get(key)

    def has(self, key: str) -> bool:
        return key in self.data

    def number(
        self, key: str, default: float, low: float | None = None, high: float | None = None,
        *, above: float | None = None,
    ) -> float:
        value = self.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, "a number")
        try:
            finite = math.isfinite(value)
        except OverflowError:  # an integer too big for a float
            finite = False
        if not finite:
            raise self.fail(key, "a finite number " + _range_text(low, high, above))
        ok = (low is None or value >= low) and (high is None or value <= high)
        ok = ok and (above is None or value > above)
        if not ok:
            raise self.fail(key, _range_text(low, high, above))
        return float(value)

    def integer(self, key: str, default: int, low: int | None = None,
                high: int | None = None) -> int:
        value = self.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, "a whole number")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(key, "a whole number " + _range_text(low, high, None))
        return value

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.get(key)
        if value is None:
            return default
        if value not in choices:
            raise self.fail(key, "one of " + ", ".join(repr(c) for c in choices))
        return str(value)

    def flag(self, key: str, default: bool) -> bool:
        value = self.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(key, "true or false")
        return value

    def text(self, key: str, default: str) -> str:
        value = self.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.fail(key, "a string")
        return value

    def pin(self, key: str, default: int | None) -> int | None:
        """A BCM pin number 0..27, or false to leave that part out."""
        value = self.get(key)
        if value is None:
            return default
        if value is False:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
            raise self.fail(key, "a BCM GPIO number 0..27, or false for none")
        return value

    def table(self, key: str) -> _Table:
        value = self.get(key)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise self.fail(key, "a table ([" + self.prefix + key + "])")
        return _Table(self.source, f"{self.prefix}{key}.", value)

    def check_unknown(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise ConfigError(
                f"{self.source}: unknown key '{_shown_text(self.prefix + unknown[0], 60)}'"
                f" (known here: {', '.join(sorted(self.used))})"
            )


def _shown(value: object, limit: int = 60) -> str:
    """A bad value as the message shows it: its repr, cut short (a value may be megabytes)."""
    try:
        text = repr(value)
    except ValueError:  # an integer with more digits than repr allows
        return "a number with too many digits"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _range_text(low: float | None, high: float | None, above: float | None) -> str:
    if above is not None:
        return f"a number above {above:g}" + (f" and at most {high:g}" if high is not None else "")
    if low is not None and high is not None:
        return f"from {low:g} to {high:g}"
    if low is not None:
        return f"at least {low:g}"
    if high is not None:
        return f"at most {high:g}"
    return "a number"


def parse_config(text: str, source: str = "<config>", base_dir: str | None = None) -> Config:
    """Parse and validate TOML text. Relative file paths are taken from `base_dir`."""
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {_shown_text(str(exc))}") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid TOML: arrays or tables nested too deeply"
                          ) from None
    except ValueError:  # tomllib converts an integer of more than 4300 digits and fails
        where = re.search(r"\d{4000,}", text)
        line = f"line {text.count(chr(10), 0, where.start()) + 1}: " if where else ""
        raise ConfigError(f"{source}: {line}a number with more digits than any setting takes"
                          ) from None
    top = _Table(source, "", data)

    def path(table: _Table, key: str) -> str:
        value = table.text(key, "")
        if value and base_dir is not None and not PurePath(value).is_absolute():
            value = str(PurePath(base_dir) / value)
        return value

    d = Config()  # every default below comes from the dataclasses above
    language = top.choice("language", d.language, LANGUAGES)
    players = _players(top)
    default_mode = Mode(top.choice("default_mode", d.default_mode.value,
                                   tuple(m.value for m in Mode)))
    state_file = path(top, "state_file")
    keep_score = top.flag("keep_score", d.keep_score)
    points_entry = top.choice("points_entry", d.points_entry, POINTS_ENTRIES)
    game = top.text("game", d.game)
    if game.endswith(".toml"):  # a file, like the other paths: beside the config
        game = path(top, "game")

    rt = top.table("realtime")
    drt = d.realtime
    length = rt.number("length_s", drt.length_s, above=0, high=24 * 3600)
    cues = _increasing(rt, "scholar_cues_s", drt.scholar_cues_s, length)
    realtime = RealtimeConfig(
        length_s=length,
        scholar_cues_s=cues,
        lead_in_s=rt.integer("lead_in_s", drt.lead_in_s, 0, 60),
        final_ticks_s=rt.integer("final_ticks_s", drt.final_ticks_s, 0, 60),
        scholar_prompt_s=rt.number("scholar_prompt_s", drt.scholar_prompt_s, 0, 600),
    )

    it = top.table("intro")
    rounds = it.integer("rounds", d.intro.rounds, 1, 99)
    after = tuple(int(r) for r in _increasing(it, "scholar_after_rounds",
                                               d.intro.scholar_after_rounds, rounds,
                                               integers=True))
    intro = IntroConfig(rounds=rounds, scholar_after_rounds=after)

    au = top.table("audio")
    audio_fields: dict[str, Any] = {
        "rate": au.integer("rate", d.audio.rate, 8000, 192000),
        "buffer": au.integer("buffer", d.audio.buffer, 64, 16384),
        "device": au.text("device", d.audio.device),
        "volume": au.number("volume", d.audio.volume, 0.0, 1.0),
        "duck_db": au.number("duck_db", d.audio.duck_db, 0.0, 60.0),
        "music_level": au.number("music_level", d.audio.music_level, 0.0, 1.0),
        "gong": path(au, "gong"),
        "cry": path(au, "cry"),
        "tick": path(au, "tick"),
        "music_style": au.choice("music_style", "score", MUSIC_STYLES),
    }
    au.check_unknown()

    eras = []
    for n, default_music in enumerate(d.audio.eras, start=1):
        et = top.table(f"era{n}")
        eras.append(EraMusic(
            music=path(et, "music"),
            music_kind=et.choice("music_kind", default_music.music_kind, MUSIC_KINDS),
            track_offset_s=et.number("track_offset_s", default_music.track_offset_s, 0.0),
        ))
        et.check_unknown()
    audio = AudioConfig(**audio_fields, eras=tuple(eras))

    di = top.table("display")
    display = DisplayConfig(
        height=_height(di, d.display.height),
        i2c_bus=di.integer("i2c_bus", d.display.i2c_bus, 0, 99),
        address=_address(di, d.display.address),
        rotate=int(_rotate(di, d.display.rotate)),
        contrast=di.integer("contrast", d.display.contrast, 0, 255),
    )

    bt = top.table("buttons")
    buttons = ButtonsConfig(
        next_pin=_required_pin(bt, "next_pin", d.buttons.next_pin),
        era_pin=_required_pin(bt, "era_pin", d.buttons.era_pin),
        vol_up_pin=bt.pin("vol_up_pin", d.buttons.vol_up_pin),
        vol_down_pin=bt.pin("vol_down_pin", d.buttons.vol_down_pin),
        led_pin=bt.pin("led_pin", d.buttons.led_pin),
        dial_a_pin=bt.pin("dial_a_pin", d.buttons.dial_a_pin),
        dial_b_pin=bt.pin("dial_b_pin", d.buttons.dial_b_pin),
        hold_s=bt.number("hold_s", d.buttons.hold_s, above=0.05, high=10),
        both_s=bt.number("both_s", d.buttons.both_s, above=0.1, high=30),
        bounce_s=bt.number("bounce_s", d.buttons.bounce_s, 0.0, 0.5),
    )
    if (buttons.dial_a_pin is None) != (buttons.dial_b_pin is None):
        raise ConfigError(f"{source}: key 'buttons': expected dial_a_pin and dial_b_pin both "
                          f"set (a rotary encoder has two pins) or both false, got "
                          f"dial_a_pin={_pin_text(buttons.dial_a_pin)}, "
                          f"dial_b_pin={_pin_text(buttons.dial_b_pin)}")
    used = [p for p in (buttons.next_pin, buttons.era_pin, buttons.vol_up_pin,
                        buttons.vol_down_pin, buttons.led_pin, buttons.dial_a_pin,
                        buttons.dial_b_pin) if p is not None]
    if len(set(used)) != len(used):
        raise ConfigError(f"{source}: key 'buttons': expected every pin to be different, "
                          f"got {used}")

    for table in (rt, it, di, bt, top):
        table.check_unknown()
    return Config(
        language=language, players=players, default_mode=default_mode, state_file=state_file,
        game=game, realtime=realtime, intro=intro, audio=audio, display=display, buttons=buttons,
        source=source, keep_score=keep_score, points_entry=points_entry,
    )


def _players(top: _Table) -> tuple[str, ...]:
    value = top.get("players")
    if value is None:
        return DEFAULT_PLAYERS
    expected = (f"a list of {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} different colour names"
                " (printable, up to 16 characters), oldest player first")
    if not isinstance(value, list) or not rules.MIN_PLAYERS <= len(value) <= rules.MAX_PLAYERS:
        raise top.fail("players", expected)
    if not all(isinstance(v, str) and v.strip() and v.isprintable() and len(v) <= 16
               for v in value):
        raise top.fail("players", expected)
    players = tuple(v.strip() for v in value)
    if len({p.casefold() for p in players}) != len(players):  # "red" and "Red " are one colour
        raise top.fail("players", expected)
    return players


def _shown_text(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _increasing(table: _Table, key: str, default: tuple[float, ...], below: float,
                *, integers: bool = False) -> tuple[float, ...]:
    value = table.get(key)
    if value is None:
        value = [v for v in default if v < below]
        return tuple(float(v) for v in value)
    kind = "whole numbers" if integers else "numbers"
    expected = f"a list of increasing {kind} above 0 and below {below:g}"
    if not isinstance(value, list):
        raise table.fail(key, expected)
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | float) or (integers and
                                                                     not isinstance(v, int)):
            raise table.fail(key, expected)
    if any(not 0 < v < below for v in value) or any(b <= a for a, b in pairwise(value)):
        raise table.fail(key, expected)
    return tuple(float(v) for v in value)


def _pin_text(pin: int | None) -> str:
    return "false" if pin is None else str(pin)


def _required_pin(table: _Table, key: str, default: int) -> int:
    value = table.pin(key, default)
    if value is None:
        raise table.fail(key, "a BCM GPIO number 0..27 (this button is required)")
    return value


def _address(table: _Table, default: int) -> int:
    value = table.integer("address", default)
    if value not in (0x3C, 0x3D):
        raise table.fail("address", "0x3C or 0x3D (the SSD1306's two I2C addresses)")
    return value


def _height(table: _Table, default: int) -> int:
    value = table.integer("height", default)
    if value not in PANEL_HEIGHTS:
        raise table.fail("height", " or ".join(str(h) for h in PANEL_HEIGHTS)
                         + " (the panel's height in pixels: 128x64 or 128x32)")
    return value


def _rotate(table: _Table, default: int) -> int:
    value = table.integer("rotate", default)
    if value not in (0, 180):
        raise table.fail("rotate", "0 or 180")
    return value
