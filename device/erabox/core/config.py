"""The box's configuration: TOML in, a frozen, validated model out.

Every key is optional; defaults are the rulebook's (9-minute era, cries at 3:00 and 6:00, 15
introductory rounds, scholars after rounds 5 and 10: `rules`), each written once, below.
A key that is unknown, of the wrong type or out of range raises `ConfigError` naming the file,
the key and what was expected: the box refuses to start on a config it would misread rather
than guess.

This module only parses text; reading the file is the caller's job (`load_config_file`).
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import PurePath
from typing import Any, ClassVar

from . import rules
from .model import GameMusic, Mode, Sound

LANGUAGES = ("en", "ja")
DEFAULT_PLAYERS = ("red", "blue", "green", "yellow")
# Colours a player list names as plain strings (the box says each: ui/strings.py); anything
# else is a typo unless written explicitly as a name of the table's own: { name = "Aiko" }.
KNOWN_COLOURS = ("red", "blue", "green", "yellow", "black", "white", "purple", "orange", "pink",
                 "brown", "grey", "gray")
MUSIC_KINDS = ("loop", "track")
# "score": real-time eras play the 540 s score (sounds/era<N>_score.ogg) at running time;
MUSIC_STYLES = ("score", "synth")  # "synth": short loops everywhere (the scores may go)
SCORE_VARIANTS = 3  # versions of each era's built-in score (sounds/README.md)
POINTS_ENTRIES = ("totals", "steps")  # era totals (the default) or per scoring step


class ConfigError(ValueError):
    """A config file that cannot be used. The message names file, key and expectation."""


@dataclass(frozen=True)
class Call:
    """A timed call, the profile's: its sound; its own prompt (English, Japanese) or None;
    `file`: its own sound file, played instead of `sound` (which stands in when it cannot)."""
    sound: Sound = Sound.CRY
    prompt: tuple[str, str] | None = None
    file: str = ""


@dataclass(frozen=True)
class RealtimeConfig:
    length_s: float = rules.ERA_LENGTH_S
    scholar_cues_s: tuple[float, ...] = rules.SCHOLAR_CUES_S
    lead_in_s: int = rules.LEAD_IN_S
    final_ticks_s: int = rules.FINAL_TICKS_S
    scholar_prompt_s: float = rules.SCHOLAR_PROMPT_S
    calls: tuple[Call, ...] = ()  # the profile's, not keys of the file; () all the box's cry

    def call(self, n: int) -> Call:  # the `n`-th timed call (from 0) of the era
        return self.calls[n] if n < len(self.calls) else Call()


@dataclass(frozen=True)
class IntroConfig:
    rounds: int = rules.INTRO_ROUNDS
    scholar_after_rounds: tuple[int, ...] = rules.SCHOLAR_AFTER_ROUNDS


@dataclass(frozen=True)
class PrepNumbers:
    """The preparation guide: its steps and numbers. Not keys of the config file, but of the
    game's profile (games/time-of-empires.toml, `own_game`), handed in when the box
    starts; the defaults are the rulebook's (`rules.py`)."""

    wonders: tuple[int, ...] = rules.WONDERS_ON_BOARD  # on the wonder board, per era
    bonus_token_vp: tuple[int, ...] = rules.BONUS_TOKEN_VP  # VP per building, per era
    setup: tuple[rules.GuideRow, ...] = rules.SETUP_STEPS  # the game's setup, before Era I
    steps: tuple[rules.GuideRow, ...] = rules.PREP_STEPS  # each era's preparation


@dataclass(frozen=True)
class Checklist:
    """The scoring checklist of each era, step by step: whether the box asks the step's points
    (`points`), and how many times the number asked counts (`multiply`: destruction's 3 VP a
    building). Not keys of the config file: the game's profile's (`own_game`)."""

    points: tuple[bool, ...] = rules.SCORING_GIVES_POINTS
    multiply: tuple[int, ...] = rules.SCORING_MULTIPLY


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
    duck_db: float = 6.0  # how far the music drops under a cue (the cues stand 8-16 LU above it)
    music_level: float = 1.0  # the music's share of the volume (0..1); cues stay at `volume`
    gong: str = ""  # replacement cue files ("" = built-in)
    cry: str = ""
    tick: str = ""
    music_style: str = "score"  # one of MUSIC_STYLES
    score_variant: int = 0  # the era scores' version: 0 = the next each new game, 1..3 that one
    eras: tuple[EraMusic, ...] = (EraMusic(),) * rules.ERAS  # [era1]..[era3]: one per era
    game_eras: tuple[GameMusic, ...] = ()  # the game profile's own, per era (not file keys)


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
class HallConfig:
    """`[hall]`: the box is one table of a hall (docs/hall.md). Absent: a box on its own."""

    broker: str = ""  # "host" or "host:port" of the MQTT broker
    port: int = 1883  # the broker's port when `broker` names none (8883 is TLS's usual one)
    hall: str = "hall"  # the hall's name: its topics are erabox/<hall>/...
    table: str = ""  # this table's name (also its broker user unless `user` is given)
    user: str = ""
    password: str = ""
    password_file: str = ""  # read at start instead of `password` (kept out of the config)
    key: str = ""  # the hall key that signs the director's commands
    key_file: str = ""
    tls_ca: str = ""  # TLS: the CA file that signed the broker's certificate ("" = no TLS)
    tls_cert: str = ""  # TLS client certificate and key, when the broker asks for one
    tls_key: str = ""
    # A table's own NEXT hold pauses its era alone. Off by default: a hall keeps one running
    # time, and a table that pauses alone ends its era after the others (a rules call is the
    # judge's: the director pauses every table).
    pause_alone: bool = False


HALL_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Config:
    language: str = "en"
    players: tuple[str, ...] = DEFAULT_PLAYERS
    default_mode: Mode = Mode.REALTIME
    state_file: str = ""
    game: str = ""  # a game profile's name or file (docs/profiles.md); "" = Time of Empires
    own_game: str = ""  # Time of Empires' profile found (a user's copy), "" the shipped one
    eras: int = rules.ERAS  # the game's: its profile's `[[era]]` tables, not a file's key
    # The game profiles found at start, handed in by the box (files/games.py: offer_games), not
    # file keys: names (the menu's "Game"), (name, English, Japanese), (name, fewest, most
    # players), and (name, "file.toml:line") of those listed as broken.
    games: tuple[str, ...] = ()
    game_names: tuple[tuple[str, str, str], ...] = ()
    game_players: tuple[tuple[str, int, int], ...] = ()
    broken_games: tuple[tuple[str, str], ...] = ()
    realtime: RealtimeConfig = field(default_factory=RealtimeConfig)
    intro: IntroConfig = field(default_factory=IntroConfig)
    prep: PrepNumbers = field(default_factory=PrepNumbers)  # from the profile, not the file
    checklist: Checklist = field(default_factory=Checklist)  # the profile's too
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
    hall: HallConfig | None = None  # [hall]: one table of a hall (docs/hall.md)


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


def parse_config(text: str, source: str = "<config>", base_dir: str | None = None,
                 numbers: tuple[RealtimeConfig, IntroConfig] | None = None) -> Config:
    """Parse and validate TOML text. Relative file paths are taken from `base_dir`. `numbers`:
    the real-time and introductory numbers of the game's profile (`own_game`), the
    defaults of `[realtime]` and `[intro]` (else the rulebook's, `rules.py`)."""
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
    try:
        players = _players(top)
    except PlayerNameError as exc:
        raise ConfigError(f"{source}: key 'players': {exc}") from None
    default_mode = Mode(top.choice("default_mode", d.default_mode.value,
                                   tuple(m.value for m in Mode)))
    state_file = path(top, "state_file")
    keep_score = top.flag("keep_score", d.keep_score)
    points_entry = top.choice("points_entry", d.points_entry, POINTS_ENTRIES)
    game = top.text("game", d.game)
    if game.endswith(".toml"):  # a file, like the other paths: beside the config
        game = path(top, "game")

    rt = top.table("realtime")
    drt, dit = numbers if numbers is not None else (d.realtime, d.intro)
    length = rt.number("length_s", drt.length_s, above=0, high=24 * 3600)
    cues = _increasing(rt, "scholar_cues_s", drt.scholar_cues_s, length)
    realtime = RealtimeConfig(
        length_s=length,
        scholar_cues_s=cues,
        lead_in_s=rt.integer("lead_in_s", drt.lead_in_s, 0, 60),
        final_ticks_s=rt.integer("final_ticks_s", drt.final_ticks_s, 0, 60),
        scholar_prompt_s=rt.number("scholar_prompt_s", drt.scholar_prompt_s, 0, 600),
        calls=drt.calls,
    )

    it = top.table("intro")
    rounds = it.integer("rounds", dit.rounds, 1, 99)
    after = tuple(int(r) for r in _increasing(it, "scholar_after_rounds",
                                               dit.scholar_after_rounds, rounds,
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
        "score_variant": au.integer("score_variant", d.audio.score_variant, 0,
                                    SCORE_VARIANTS),
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

    hall = _hall(top.table("hall"), path) if top.has("hall") else None
    for table in (rt, it, di, bt, top):
        table.check_unknown()
    return Config(
        language=language, players=players, default_mode=default_mode, state_file=state_file,
        game=game, realtime=realtime, intro=intro, audio=audio, display=display, buttons=buttons,
        source=source, keep_score=keep_score, points_entry=points_entry, hall=hall,
    )


def _hall(table: _Table, path: Any) -> HallConfig:
    """`[hall]`: names are letters, digits, '-' and '_' (they are parts of MQTT topics)."""
    d = HallConfig()
    broker = table.text("broker", d.broker)
    port = int(table.integer("port", d.port, 1, 65535))
    if ":" in broker:
        broker, _, given = broker.rpartition(":")
        if not given.isdigit() or not 1 <= int(given) <= 65535:
            raise table.fail("broker", "a host name or address, or host:port")
        port = int(given)
    if not broker:
        raise table.fail("broker", "the broker's host name or address (e.g. \"hall.local\")")
    names = {}
    for key, default in (("hall", d.hall), ("table", d.table)):
        names[key] = table.text(key, default)
        if names[key] and not HALL_NAME.fullmatch(names[key]):
            raise table.fail(key, "1 to 32 letters, digits, '-' or '_'")
    hall = HallConfig(
        broker=broker, port=port, hall=names["hall"], table=names["table"],
        user=table.text("user", d.user), password=table.text("password", d.password),
        password_file=path(table, "password_file"), key=table.text("key", d.key),
        key_file=path(table, "key_file"), tls_ca=path(table, "tls_ca"),
        tls_cert=path(table, "tls_cert"), tls_key=path(table, "tls_key"),
        pause_alone=table.flag("pause_alone", d.pause_alone))
    if not (hall.key or hall.key_file):
        raise table.fail("key", "the hall key (or key_file): the director's commands are "
                         "signed with it")
    table.check_unknown()
    return hall


def _players(top: _Table) -> tuple[str, ...]:
    value = top.get("players")
    if value is None:
        return DEFAULT_PLAYERS
    expected = (f"a list of {rules.MIN_SEATS} to {rules.MAX_SEATS} different players, oldest"
                f" first: colours ({', '.join(KNOWN_COLOURS)}) or names of your own written"
                ' { name = "Aiko" } (printable, up to 16 characters)')
    if not isinstance(value, list) or not rules.MIN_SEATS <= len(value) <= rules.MAX_SEATS:
        raise top.fail("players", expected)
    players = tuple(player_name(v, expected) for v in value)
    if len({p.casefold() for p in players}) != len(players):  # "red" and "Red " are one colour
        raise top.fail("players", expected)
    return players


class PlayerNameError(ValueError):
    """A player that is neither a known colour nor an explicit name."""


def player_name(value: object, expected: str = "") -> str:
    """One entry of a player list: a known colour (any case; "blu" is a typo, not a player
    called "blu"), or a name of the table's own written explicitly, { name = "Aiko" }."""
    if isinstance(value, str):
        colour = value.strip().lower()
        if colour in KNOWN_COLOURS:
            return colour
        close = difflib.get_close_matches(colour, KNOWN_COLOURS, n=1)
        hint = f' Did you mean "{close[0]}"?' if close else ""
        raise PlayerNameError(
            f"{value!r} is not a colour the box knows (expected one of"
            f" {', '.join(KNOWN_COLOURS)}).{hint}"
            f' A name of your own is written {{ name = "{value.strip()}" }}.')
    if isinstance(value, dict) and set(value) == {"name"}:
        name = value["name"]
        if isinstance(name, str) and name.strip() and name.isprintable() and len(name) <= 16:
            return name.strip()
    raise PlayerNameError(f"expected {expected or 'a colour or { name = ... }'}, got {value!r}")


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
