"""The config file: every key's bad value is refused with file, key and what was expected;
unknown keys are refused; the annotated example parses to exactly the defaults."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from erabox.core.config import (
    AudioConfig,
    ButtonsConfig,
    Config,
    ConfigError,
    DisplayConfig,
    EraMusic,
    IntroConfig,
    RealtimeConfig,
    parse_config,
)
from erabox.core.model import Mode
from erabox.files.config import load_config

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "/etc/erabox/test.toml"

# Per key (as written in the file: `table.key`), values the box must refuse.
BAD_VALUES: dict[str, list[str]] = {
    "language": ['"fr"', "1", '["en"]'],
    "players": ['[]', '["red", "blue", "green", "yellow", "purple", "orange", "white", "black",'
                ' "pink"]', '["a", "b", "c", "d", "e"]', '["red", "red"]', '["red", 3]',
                '["red", " "]', '"red"', '["red", "blu"]', '["red", {name = ""}]',
                '["red", {nom = "Aiko"}]', '["red", {name = "Aiko", colour = "x"}]',
                '["red", "Red"]', '["Aiko", {name = "aiko"}]', '["red", {name = "Red"}]'],
    "default_mode": ['"fast"', "true"],
    "keep_score": ['"yes"', "1", "[]"],
    "points_entry": ['"total"', "true", '["steps"]'],
    "state_file": ["3", "[]"],
    "game": ["3", "[]", "true"],
    "realtime.length_s": ["-3", "0", '"540"', "true", "100000"],
    "realtime.scholar_cues_s": ["[360, 180]", "[180, 180]", "[0, 180]", "[180, 540]",
                                "[600]", '"180"', "[true]", '["180"]'],
    "realtime.lead_in_s": ["-1", "2.5", "61", '"5"'],
    "realtime.final_ticks_s": ["-1", "1.5", "61"],
    "realtime.scholar_prompt_s": ["-1", '"15"', "601"],
    "intro.rounds": ["0", "3.5", "100", '"15"'],
    "intro.scholar_after_rounds": ["[5.5]", "[10, 5]", "[15]", "[0]", "5"],
    "audio.rate": ["100", "44100.0", '"44100"'],
    "audio.buffer": ["1", "100000"],
    "audio.device": ["3", "false"],
    "audio.volume": ["1.5", "-0.1", '"loud"'],
    "audio.duck_db": ["-1", "61"],
    "audio.score_variant": ["-1", "4", "1.5", "true"],
    "audio.music_level": ["1.5", "-0.1", "true"],
    "audio.gong": ["3"],
    "audio.cry": ["[]"],
    "audio.tick": ["false"],
    "audio.music_style": ['"orchestra"', "1", '["synth"]'],
    "display.height": ["48", "128", "0", '"32"'],
    "display.i2c_bus": ["-1", '"1"'],
    "display.address": ["0x3E", "60.0", '"0x3C"'],
    "display.rotate": ["90", "-180"],
    "display.contrast": ["256", "-1"],
    "buttons.next_pin": ["40", "-1", "false", '"17"', "17.0"],
    "buttons.era_pin": ["28", "false", "true"],
    "buttons.vol_up_pin": ["99", "true", '"22"'],
    "buttons.vol_down_pin": ["-1"],
    "buttons.led_pin": ["2.5"],
    "buttons.dial_a_pin": ["28", "true", '"5"'],
    "buttons.dial_b_pin": ["-1", "6.0"],
    "buttons.hold_s": ["0", "-1", "11", '"0.8"'],
    "buttons.both_s": ["0", "31"],
    "buttons.bounce_s": ["-0.1", "1"],
    **{f"era{n}.{key}": values for n in (1, 2, 3) for key, values in (
        ("music", ["3"]), ("music_kind", ['"mp3"', "1"]), ("track_offset_s", ["-1", '"0"']))},
}
TABLES = ["realtime", "intro", "audio", "display", "buttons", "era1", "era2", "era3"]


def toml(key: str, value: str) -> str:
    """One key's line in its table."""
    if "." not in key:
        return f"{key} = {value}\n"
    table, name = key.split(".")
    return f"[{table}]\n{name} = {value}\n"


def every_key() -> set[str]:
    """Every key a config file may hold, read off the config model itself."""
    nested = {"realtime": RealtimeConfig, "intro": IntroConfig, "audio": AudioConfig,
              "display": DisplayConfig, "buttons": ButtonsConfig}
    # era_modes, cue_led and guide are set on the box only (its settings menu), not in a file;
    # games, game_names, game_players and broken_games are what the box found at start (the
    # menu's choices); prep holds the game's profile's numbers (games/time-of-empires.toml),
    # and so are its eras, their own music and its calls' sounds and prompts, and own_game
    # (the file found); [hall] has its own tests
    # (test_hall_core.py).
    keys = {f.name for f in dataclasses.fields(Config)} - set(nested) - {
        "source", "era_modes", "cue_led", "guide", "games", "game_names", "game_players",
        "broken_games", "prep", "checklist", "hall", "eras", "own_game"}
    for table, model in nested.items():
        keys |= {f"{table}.{f.name}" for f in dataclasses.fields(model)} - {
            "audio.eras", "audio.game_eras", "realtime.calls"}
    keys |= {f"era{n}.{f.name}" for n in (1, 2, 3) for f in dataclasses.fields(EraMusic)}
    return keys


def test_every_key_has_bad_values_to_try() -> None:
    assert set(BAD_VALUES) == every_key()


@pytest.mark.parametrize(("key", "value"),
                         [(k, v) for k, values in BAD_VALUES.items() for v in values])
def test_a_bad_value_names_the_file_the_key_and_what_was_expected(key: str, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(toml(key, value), source=SOURCE)
    message = str(caught.value)
    assert SOURCE in message
    assert f"'{key}'" in message
    assert "expected" in message


@pytest.mark.parametrize("key", sorted(every_key()))
def test_every_key_takes_its_default_written_out(key: str) -> None:
    """Writing a key with its default value is accepted and changes nothing."""
    default = Config()
    if "." in key:
        table, name = key.split(".")
        if table.startswith("era"):
            value = getattr(default.audio.eras[int(table[3]) - 1], name)
        else:
            value = getattr(getattr(default, table), name)
    else:
        value = getattr(default, key)
    assert parse_config(toml(key, toml_value(value)), SOURCE) == dataclasses.replace(
        default, source=SOURCE)


def toml_value(value: object) -> str:
    if value is None:  # a part that is not fitted (a pin): false in the file
        return "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


@pytest.mark.parametrize("table", ["", *TABLES])
def test_unknown_keys_are_refused(table: str) -> None:
    text = f"[{table}]\nlength_sec = 10\n" if table else "volume = 0.5\n"
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source=SOURCE)
    name = f"{table}." if table else ""
    assert SOURCE in str(caught.value)
    assert f"'{name}{'length_sec' if table else 'volume'}'" in str(caught.value)


def test_unknown_table_is_refused() -> None:
    with pytest.raises(ConfigError, match="'sound'"):
        parse_config("[sound]\nvolume = 0.5\n", SOURCE)


@pytest.mark.parametrize("table", TABLES)
def test_a_table_written_as_a_value_is_refused(table: str) -> None:
    with pytest.raises(ConfigError, match=f"'{table}'.*expected"):
        parse_config(f"{table} = 5\n", SOURCE)


def test_not_toml_names_the_file() -> None:
    with pytest.raises(ConfigError, match=SOURCE):
        parse_config("language = \n", SOURCE)


def test_two_parts_on_one_pin_are_refused() -> None:
    with pytest.raises(ConfigError, match="buttons"):
        parse_config("[buttons]\nled_pin = 17\n", SOURCE)


def test_the_dial_needs_both_pins_each_its_own() -> None:
    config = parse_config("[buttons]\ndial_a_pin = 5\ndial_b_pin = 6\n", SOURCE)
    assert (config.buttons.dial_a_pin, config.buttons.dial_b_pin) == (5, 6)
    with pytest.raises(ConfigError, match="dial_a_pin=5, dial_b_pin=false"):
        parse_config("[buttons]\ndial_a_pin = 5\n", SOURCE)
    with pytest.raises(ConfigError, match="dial_a_pin=false, dial_b_pin=6"):
        parse_config("[buttons]\ndial_b_pin = 6\n", SOURCE)
    with pytest.raises(ConfigError, match="every pin to be different"):
        parse_config("[buttons]\ndial_a_pin = 5\ndial_b_pin = 17\n", SOURCE)
    with pytest.raises(ConfigError, match="every pin to be different"):
        parse_config("[buttons]\ndial_a_pin = 6\ndial_b_pin = 6\n", SOURCE)


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_good_values_are_read() -> None:
    config = parse_config("""
        language = "ja"
        players = ["green", "yellow"]
        default_mode = "intro"
        state_file = "saves/state.json"
        [realtime]
        length_s = 60
        scholar_cues_s = [10, 20.5, 30, 59]
        lead_in_s = 0
        final_ticks_s = 0
        [intro]
        rounds = 6
        scholar_after_rounds = [2, 4]
        [display]
        height = 32
        address = 0x3D
        rotate = 180
        [buttons]
        vol_up_pin = false
        vol_down_pin = false
        led_pin = false
        hold_s = 1.5
        [era2]
        music = "music/era2.ogg"
        music_kind = "track"
        track_offset_s = 12.5
    """, source=SOURCE, base_dir="/etc/erabox")
    assert config.language == "ja"
    assert config.players == ("green", "yellow")
    assert config.default_mode is Mode.INTRO
    assert config.state_file == "/etc/erabox/saves/state.json"  # relative to the file
    assert config.realtime == RealtimeConfig(length_s=60.0,
                                             scholar_cues_s=(10.0, 20.5, 30.0, 59.0),
                                             lead_in_s=0, final_ticks_s=0)
    assert config.intro == IntroConfig(rounds=6, scholar_after_rounds=(2, 4))
    assert (config.display.address, config.display.rotate) == (0x3D, 180)
    assert config.display.size == (128, 32)
    assert (config.buttons.vol_up_pin, config.buttons.vol_down_pin,
            config.buttons.led_pin) == (None, None, None)
    assert config.buttons.hold_s == 1.5
    assert config.audio.eras[1] == EraMusic("/etc/erabox/music/era2.ogg", "track", 12.5)
    assert config.audio.eras[0] == EraMusic()


def test_a_short_era_drops_the_default_cues_past_its_end() -> None:
    config = parse_config("[realtime]\nlength_s = 200\n", SOURCE)
    assert config.realtime.scholar_cues_s == (180.0,)


def test_the_example_config_parses_to_exactly_the_defaults() -> None:
    example = ROOT / "erabox.example.toml"
    config = load_config(str(example))
    assert dataclasses.replace(config, source=Config().source) == Config()
    assert config.source == str(example)


def test_the_example_config_documents_every_key() -> None:
    text = (ROOT / "erabox.example.toml").read_text(encoding="utf-8")
    # [realtime] and [intro] show their keys commented out: the game's profile says them
    start, end = text.index("[realtime]\n"), text.index("[audio]\n")
    text = text[:start] + re.sub(r"^# ([a-z_]+ = )", r"\1", text[start:end],
                                 flags=re.MULTILINE) + text[end:]
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    written, table = set(), ""
    for line in lines:
        if line.startswith("["):
            table = line.strip("[]") + "."
        elif "=" in line:
            written.add(table + line.split("=", 1)[0].strip())
    assert written == every_key()


def test_load_config_names_a_missing_or_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(str(tmp_path / "missing.toml"))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match=str(binary)):
        load_config(str(binary))


def test_load_config_order(tmp_path: Path) -> None:
    """--config, else $ERABOX_CONFIG, else the first existing candidate, else defaults."""
    home = tmp_path / "home"
    (home / "erabox").mkdir(parents=True)
    (home / "erabox" / "erabox.toml").write_text('language = "ja"\n', encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(home)}
    explicit = tmp_path / "explicit.toml"
    explicit.write_text('default_mode = "intro"\n', encoding="utf-8")
    from_env = {**env, "ERABOX_CONFIG": str(explicit)}
    assert load_config(str(explicit), env).default_mode is Mode.INTRO
    assert load_config(None, from_env).default_mode is Mode.INTRO
    system_has_one = Path("/etc/erabox/erabox.toml").is_file()
    if not system_has_one:
        assert load_config(None, env).language == "ja"
        assert load_config(None, {"XDG_CONFIG_HOME": str(tmp_path / "none")}) == Config()
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(None, {"ERABOX_CONFIG": str(tmp_path / "gone.toml")})


def test_simulate_with_a_bad_config_exits_2_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[realtime]\nlength_s = -3\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--config", str(bad), "--until", "10"],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert "length_s" in done.stderr and str(bad) in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_colour_typo_is_an_error_naming_the_choices_and_a_name_is_explicit() -> None:
    """`players = ["red", "blu"]` was a player called "blu": now a clear error naming the
    colours the box knows, what was probably meant, and how to write a name of one's own."""
    with pytest.raises(ConfigError) as caught:
        parse_config('players = ["red", "blu"]', source=SOURCE)
    message = str(caught.value)
    assert "'blu' is not a colour the box knows" in message
    assert "red, blue, green, yellow" in message and 'Did you mean "blue"?' in message
    assert '{ name = "blu" }' in message
    config = parse_config('players = ["Red", { name = "Aiko" }, "yellow"]', source=SOURCE)
    assert config.players == ("red", "Aiko", "yellow")


def test_every_known_colour_has_its_japanese_name() -> None:
    from erabox.core.config import KNOWN_COLOURS
    from erabox.ui.strings import COLOUR_NAMES_JA

    assert set(KNOWN_COLOURS) == set(COLOUR_NAMES_JA)


def test_simulate_players_are_checked_the_same_way(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    from erabox.cli import main

    script = tmp_path / "s.txt"
    script.write_text("0 era press\n", encoding="utf-8")
    code = main(["simulate", "--game", "altay", "--players", "red,blu",
                 "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 2 and "'blu' is not a colour the box knows" in err and "name=" in err
    assert main(["simulate", "--game", "altay", "--players", "red,name=Aiko",
                 "--script", str(script)]) == 0
    assert '"Aiko"' in capsys.readouterr().out
