"""The profile format (docs/profiles.md): what it reads, and the errors for what it cannot use.

Every error names the file, the line and the key; `erabox simulate --game FILE` and
`erabox run --game FILE` exit 2 with that message, never a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from erabox.core.profile import Category, ProfileError, parse_profile, shown_steps
from erabox.core.toml_lines import dotted, key_lines
from erabox.files.games import available_games, read_profile

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("altay", "hadrians-wall", "lords-of-xidit")

MINIMAL = """\
[game]
name = { en = "Tiny", ja = "小さな" }

[players]
min = 2
max = 4

[rounds]
name = { en = "Round", ja = "ラウンド" }
count = 3

[[phase]]
id = "play"
label = { en = "Play", ja = "プレイ" }
"""


def test_the_minimal_profile_reads() -> None:
    profile = parse_profile(MINIMAL, "tiny.toml", default_id="tiny")
    assert profile.id == "tiny"
    assert [v.rounds for v in profile.variants] == [3]
    assert profile.phases[0].steps == (profile.phases[0].label,)  # no steps: the label
    assert profile.start_rule == "none"


def test_every_shipped_profile_reads() -> None:
    games = available_games([])
    # time-of-empires.toml is the box's own game (tests/test_own_game_profile.py), a round
    # profile as the others
    assert set(games) == {*SHIPPED, "time-of-empires"}
    for name, found in games.items():
        assert found.shipped
        profile = read_profile(found.where)
        assert profile.id == name
        for label in (profile.name, *(p.label for p in profile.phases)):
            assert label.en and label.ja


def test_key_lines_follow_tables_arrays_and_inline_tables() -> None:
    text = ('[game]\nname = { en = "a", ja = "b" }\n[[phase]]\nid = "x"\n'
            'steps = [\n  "one",\n  { en = "two", ja = "2" },  # comment\n]\n'
            '[[phase]]\nid = "y"\ntext = """a\n]b"""\nlate = 1\n[[scoring.category]]\nid = "c"\n')
    lines = key_lines(text)
    assert lines[("game", "name", "ja")] == 2
    assert lines[("phase", 0, "steps", 1, "en")] == 7
    assert lines[("phase", 1, "id")] == 10
    assert lines[("phase", 1, "late")] == 13  # after a multi-line string
    assert lines[("scoring", "category", 0, "id")] == 15
    assert dotted(("phase", 0, "steps", 1, "en")) == "phase[1].steps[2].en"


# (what is changed, the key the message names, its line in the changed text)
BAD: list[tuple[str, str, str, int]] = [
    ("count = 3", "count = 0", "rounds.count", 10),
    ("count = 3", 'count = "many"', "rounds.count", 10),
    ("min = 2", "min = 9", "players.min", 5),
    ("max = 4", "max = 1", "players.max", 6),
    ('id = "play"', 'id = "Play Time"', "phase[1].id", 13),
    ('label = { en = "Play", ja = "プレイ" }', 'label = { en = "Play" }', "phase[1].label", 14),
    ('label = { en = "Play", ja = "プレイ" }', 'label = { en = "Play", ja = "" }',
     "phase[1].label.ja", 14),
    ('id = "play"', 'id = "play"\ntimer_s = -5', "phase[1].timer_s", 14),
    ('id = "play"', 'id = "play"\ngong = false', "phase[1].gong", 14),
    ('id = "play"', 'id = "play"\nsteps = ["a", 3]', "phase[1].steps[2]", 14),
    ('id = "play"', 'id = "play"\ncolour = "red"', "phase[1].colour", 14),
    ("[players]", '[start_player]\nrule = "clockwise"\n\n[players]', "start_player.rule", 5),
]
EXTRA: list[tuple[str, str, int]] = [
    ('[[special]]\nid = "s"\nlabel = "S"\nafter = [2, 1]\n', "special[1].after[2]", 19),
    ('[[special]]\nid = "s"\nlabel = "S"\nafter = [4]\n', "special[1].after[1]", 19),
    ('[[event]]\nid = "e"\nlabel = "E"\nsound = "bell"\n', "event[1].sound", 19),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\n\n[[scoring.category]]\nid = "a"\n'
     'label = "B"\n', "scoring.category[2].id", 21),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\npenalty = [1, 3]\ncap = 4\n',
     "scoring.category[1].penalty", 19),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\ndivide = 0\n',
     "scoring.category[1].divide", 19),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\n\n[[scoring.tie_break]]\nmore = "b"\n',
     "scoring.tie_break[1].more", 21),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\n\n[[scoring.tie_break]]\n'
     'seat = "left"\n', "scoring.tie_break[1].seat", 21),
    ('[scoring]\norder = "eliminations"\n', "scoring.order", 17),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\n[[scoring.stage]]\ncategory = "a"\n'
     'eliminate = { "9" = 1 }\n', "scoring.stage[1].eliminate.9", 21),
    # a digit that is not 0-9 (int() refuses it): the same clean error, not a traceback
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\n[[scoring.stage]]\ncategory = "a"\n'
     'eliminate = { "⑤" = 1 }\n', "scoring.stage[1].eliminate.⑤", 21),
    ('[[scoring.category]]\nid = "a"\nlabel = "A"\n[[scoring.stage]]\ncategory = "a"\n'
     'eliminate = { "٣" = 1 }\n', "scoring.stage[1].eliminate.٣", 21),
    # a special round that would never come
    ('[[special]]\nid = "s"\nlabel = "S"\nafter = []\n', "special[1].after", 19),
]


PLAY = 'label = { en = "Play", ja = "プレイ" }\n'
# Steps for some player counts only (MINIMAL is for 2 to 4 players; its steps on line 15).
STEPS_BAD = [
    ('steps = [{ en = "A", ja = "A", players_at_most = 9 }]\n',
     "phase[1].steps[1].players_at_most", "from 1 to 8, got 9"),
    ('steps = [{ en = "A", ja = "A", players_at_least = 3, players_at_most = 2 }]\n',
     "phase[1].steps[1].players_at_most", "from 3 to 8, got 2"),
    ('steps = [{ en = "A", ja = "A", players = 2 }]\n',
     "phase[1].steps[1].players", "unknown key"),
    ('steps = [{ ja = "A", players_at_least = 2 }]\n',
     "phase[1].steps[1]", "missing key 'en'"),
    ('steps = ["A", { en = "B", ja = "B", players_at_most = 1 }]\n',
     "phase[1].steps[2].players_at_least", "never shown: this game is for 2 to 4 players"),
    ('steps = [{ en = "B", ja = "B", players_at_most = 2 }]\n',
     "phase[1].steps", "no step left with 3 players"),
]


@pytest.mark.parametrize(("steps", "key", "problem"), STEPS_BAD)
def test_steps_for_some_player_counts_are_checked(steps: str, key: str, problem: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(MINIMAL.replace(PLAY, PLAY + steps), "games/tiny.toml")
    message = str(caught.value)
    assert message.startswith(f"games/tiny.toml:15: key '{key}'"), message
    assert problem in message


def test_steps_for_some_player_counts_are_left_out_for_the_others() -> None:
    profile = parse_profile(MINIMAL.replace(PLAY, PLAY + (
        'steps = ["All", { en = "Two", ja = "2", players_at_most = 2 },\n'
        '  { en = "Three up", ja = "3+", players_at_least = 3 }]\n')), "tiny.toml")
    steps = profile.phases[0].steps
    assert [s.en for s in shown_steps(steps, 2)] == ["All", "Two"]
    assert [s.en for s in shown_steps(steps, 3)] == ["All", "Three up"]
    assert [s.en for s in shown_steps(steps, 4)] == ["All", "Three up"]


@pytest.mark.parametrize(("old", "new", "key", "line"), BAD)
def test_a_bad_value_names_the_file_line_and_key(old: str, new: str, key: str,
                                                 line: int) -> None:
    text = MINIMAL.replace(old, new, 1)
    assert text != MINIMAL
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/tiny.toml")
    message = str(caught.value)
    assert message.startswith(f"games/tiny.toml:{line}: key '{key}'"), message


@pytest.mark.parametrize(("added", "key", "line"), EXTRA)
def test_a_bad_added_table_names_the_file_line_and_key(added: str, key: str,
                                                       line: int) -> None:
    text = MINIMAL + "\n" + added
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "tiny.toml")
    message = str(caught.value)
    assert message.startswith(f"tiny.toml:{line}: key '{key}'"), message


def test_a_special_rounds_messages_name_only_what_the_file_says() -> None:
    """No variant in the file: the message names no variant (not the internal one); with
    [[variant]] tables it names the one whose rounds bound the list."""
    with pytest.raises(ProfileError) as caught:
        parse_profile(MINIMAL + '\n[[special]]\nid = "s"\nlabel = "S"\nafter = [4]\n',
                      "tiny.toml")
    assert str(caught.value) == ("tiny.toml:19: key 'special[1].after[1]': expected a round "
                                 "number from 0 (before round 1) to 3, got 4")
    variants = MINIMAL.replace("count = 3\n", "").replace("[[phase]]", (
        '[[variant]]\nid = "short"\nlabel = "Short"\nrounds = 2\n\n'
        '[[variant]]\nid = "long"\nlabel = "Long"\nrounds = 6\n\n[[phase]]'))
    with pytest.raises(ProfileError, match=r"from 0 \(before round 1\) to 2 \(the rounds of "
                                           r"the variant "
                                           r"'short'\), got 4"):
        parse_profile(variants + '\n[[special]]\nid = "s"\nlabel = "S"\nafter = [4]\n',
                      "tiny.toml")
    # by variant: one empty list is a special round that does not come in that variant...
    one = parse_profile(variants + '\n[[special]]\nid = "s"\nlabel = "S"\n'
                        'after = { short = [], long = [4] }\n', "tiny.toml")
    assert one.specials[0].after == ((), (4,))
    # ... but not in any: refused
    with pytest.raises(ProfileError, match=r"key 'special\[1\].after': empty: this special "
                       "round would never come"):
        parse_profile(variants + '\n[[special]]\nid = "s"\nlabel = "S"\n'
                      'after = { short = [], long = [] }\n', "tiny.toml")


def test_missing_tables_and_unknown_keys_are_named() -> None:
    with pytest.raises(ProfileError, match=r"tiny.toml: key '\(top\)': missing key 'phase'"):
        parse_profile(MINIMAL.split("[[phase]]")[0], "tiny.toml")
    with pytest.raises(ProfileError, match=r"tiny.toml:1: key 'colours': unknown key"):
        parse_profile('colours = ["red"]\n' + MINIMAL, "tiny.toml")
    with pytest.raises(ProfileError, match=r"tiny.toml:16: key 'phase\[1\].colours'"):
        parse_profile(MINIMAL + '\ncolours = ["red"]\n', "tiny.toml")  # inside [[phase]]


def test_an_endless_game_is_refused() -> None:
    text = MINIMAL.replace("count = 3", 'count = "until_event"')
    with pytest.raises(ProfileError, match=r"tiny.toml:10: key 'rounds.count'.*never end"):
        parse_profile(text, "tiny.toml")
    ended = text + '\n[[event]]\nid = "end"\nlabel = "End"\nends_game = true\n'
    assert parse_profile(ended, "tiny.toml").variants[0].rounds is None


def test_invalid_toml_names_its_line() -> None:
    with pytest.raises(ProfileError, match=r"^tiny.toml:3: not valid TOML"):
        parse_profile('[game]\nname = "x"\nsteps = [\n', "tiny.toml")


@pytest.mark.parametrize(("value", "points"), [(0, 0), (1, -1), (8, -18), (9, -22), (30, -22)])
def test_a_penalty_table_takes_its_last_entry_for_anything_more(value: int,
                                                                points: int) -> None:
    disdain = Category("d", parse_profile(MINIMAL).name, penalty=(1, 3, 5, 7, 9, 12, 15, 18, 22))
    assert disdain.points(value) == points


@pytest.mark.parametrize(("value", "points"), [(0, 0), (2, 0), (3, 1), (8, 2), (9, 3)])
def test_divide_rounds_down_and_cap_limits(value: int, points: int) -> None:
    name = parse_profile(MINIMAL).name
    assert Category("c", name, divide=3).points(value) == points
    assert Category("w", name, cap=7).points(value + 6) == min(value + 6, 7)
    assert Category("s", name, multiply=3).points(value) == 3 * value


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "erabox", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, input="")


@pytest.mark.parametrize("command", ["simulate", "run"])
def test_a_bad_profile_exits_2_naming_the_key_and_line(tmp_path: Path, command: str) -> None:
    bad = tmp_path / "mygame.toml"
    bad.write_text(MINIMAL.replace("count = 3", "count = 0"), encoding="utf-8")
    done = run_cli(command, "--game", str(bad))
    assert done.returncode == 2
    assert done.stderr == (f"erabox: {bad}:10: key 'rounds.count': expected a whole number "
                           "from 1 to 999, got 0\n")
    assert "Traceback" not in done.stderr


def test_an_unknown_game_lists_the_available_ones() -> None:
    done = run_cli("simulate", "--game", "chess")
    assert done.returncode == 2
    assert "no game named 'chess' (available: " in done.stderr
    assert all(name in done.stderr for name in SHIPPED)


def test_a_profile_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(MINIMAL.encode("utf-8").replace("小さな".encode(), "caf\xe9".encode(
        "latin-1")))
    done = run_cli("simulate", "--game", str(bad))
    assert (done.returncode, done.stderr) == (2, f"erabox: {bad}:2: not UTF-8 text; save the "
                                                 "profile as UTF-8\n")


def test_a_bad_game_in_the_config_opens_the_menu_of_erabox_run_and_stops_simulate(
        tmp_path: Path) -> None:
    """`erabox run`: the box starts on Time of Empires' settings menu, whose screen says the
    file is broken (tests/test_which_game.py), the log naming file, line and key; `erabox
    simulate`, a command with no screen, exits 2 with that message."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "tiny.toml").write_text(MINIMAL.replace("max = 4", "max = 0"),
                                                  encoding="utf-8")
    config = tmp_path / "erabox.toml"
    config.write_text(f'game = "tiny"\nstate_file = "{tmp_path / "state.json"}"\n',
                      encoding="utf-8")
    (tmp_path / "end.script").write_text("0.3 end\n", encoding="utf-8")
    done = run_cli("run", "--config", str(config), "--display", "none", "--audio", "none",
                   "--script", str(tmp_path / "end.script"))
    assert done.returncode == 0, done.stderr
    assert (f"{tmp_path / 'games' / 'tiny.toml'}:6: key 'players.max': expected a whole "
            "number from 2 to 8, got 0") in done.stderr
    assert "the settings menu opens on Time of Empires" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_cli("simulate", "--config", str(config))
    assert done.returncode == 2
    assert done.stderr == (f"erabox: {tmp_path / 'games' / 'tiny.toml'}:6: key 'players.max': "
                           "expected a whole number from 2 to 8, got 0\n")
    config.write_text('game = "games/tiny.toml"\n', encoding="utf-8")  # a file, from here
    done = run_cli("simulate", "--config", str(config))
    assert done.returncode == 2 and "tiny.toml:6: key 'players.max'" in done.stderr


def key_paths(data: object, path: tuple[str | int, ...] = ()
              ) -> list[tuple[str | int, ...]]:
    """Every key and element path of parsed TOML data."""
    found = [path] if path else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += key_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += key_paths(value, (*path, index))
    return found


def test_key_lines_place_every_key_of_the_shipped_profiles() -> None:
    """Every key and element of each shipped file has a line, and that line is the key's."""
    import tomllib

    for found in available_games([]).values():
        text = found.where.read_text(encoding="utf-8")
        lines = key_lines(text)
        rows = text.splitlines()
        for path in key_paths(tomllib.loads(text)):
            assert path in lines, (found.name, path)
            if isinstance(path[-1], str):
                assert path[-1] in rows[lines[path] - 1], (found.name, path)


@pytest.mark.parametrize("text", ['a = [1, }', 'a = { b = ] }', 'x = "unterminated', "[[", "="])
def test_key_lines_never_hangs_on_text_it_was_not_made_for(text: str) -> None:
    key_lines(text)  # the scanner runs on text tomllib accepted; anything else still ends
