"""README's real-time example, a game in the own-game ("era") format that is not Time of
Empires (tests/profiles/camp-run.toml, the same text): one 10:00 era, gongs at 3:20 and 6:40
with the profile's own prompt, ten final ticks. It plays end to end through `erabox simulate
--game`, on the box's own engine: the calls at their times with no press, across a pause, a
power cut in its scoring, and its one era's scoring ends the game. Its power-cut proof is in
tests/test_power_cut_profiles.py."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.core import settings as settings_menu
from erabox.core.config import Call, Config
from erabox.core.era_profile import parse_era_profile
from erabox.core.machine import new_game, next_deadline, step
from erabox.core.model import Button, Gesture, Input, Mode, Phase, Prompt, Screen, Sound, Tick
from erabox.core.profile import ProfileError
from erabox.core.record import snapshot
from erabox.core.snapshot import SnapshotError, loads
from erabox.core.view import screen
from erabox.files.games import shipped_games
from erabox.ui.layout import TextItem, layout
from erabox.ui.panel import Panel
from erabox.ui.strings import era_name
from test_own_game_profile import simulate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "profiles" / "camp-run.toml"
SHIPPED = shipped_games() / "time-of-empires.toml"
CAMP = ("Return to camp", "キャンプへ戻れ")
LEAD_IN = [0.0, 1.0, 2.0, 3.0, 4.0]


def readme_block() -> str:
    """The TOML block of README's real-time example."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("**A real-time game**"):readme.index("## Configuration")]
    return part.split("```toml\n", 1)[1].split("```", 1)[0]


def test_readme_shows_the_example_word_for_word() -> None:
    assert readme_block() == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_parses_to_one_era_with_its_own_calls() -> None:
    own = parse_era_profile(readme_block(), "camp-run.toml")
    assert own.eras == 1 and own.id == "camp-run"
    assert own.realtime.length_s == 600 and own.realtime.scholar_cues_s == (200, 400)
    assert own.realtime.calls == (Call(Sound.GONG, CAMP),) * 2


def played(tmp_path: Path, script: str) -> list[dict[str, Any]]:
    """The README's block saved in a `games/` folder beside a config, played by name."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "camp-run.toml").write_text(readme_block(), encoding="utf-8")
    (tmp_path / "erabox.toml").write_text('players = ["red", "blue"]\n', encoding="utf-8")
    (tmp_path / "run.script").write_text(script, encoding="utf-8")
    code, events, err = simulate(["--config", str(tmp_path / "erabox.toml"), "--game",
                                  "camp-run", "--script", str(tmp_path / "run.script"),
                                  "--until", "800"])
    assert code == 0, err
    return events


def test_it_plays_end_to_end_its_calls_on_time_across_a_pause(tmp_path: Path) -> None:
    # ERA at 0: the 5 s lead-in, the start gong at 5; NEXT held at 100 pauses (95 s run),
    # NEXT at 130 resumes: every later call comes 30 s later. After the end gong ERA presses
    # confirm both players' era totals and the standings; a power cut at 650 in the scoring.
    script = "0 era press\n100 next hold\n130 next press\n650 restart\n"
    script += "".join(f"{660 + n} era press\n" for n in range(6))
    events = played(tmp_path, script)
    sounds = [(e["t"], e["sound"]) for e in events if e["type"] == "sound"]
    assert [(t, s) for t, s in sounds if s != "tick"] == [
        (5.0, "gong"), (5.0, "music_start"), (100.0, "music_pause"), (130.0, "music_resume"),
        (235.0, "gong"), (435.0, "gong"), (635.0, "gong"), (635.0, "music_stop")]
    # the lead-in's ticks, then the final ticks before the end gong
    assert [t for t, s in sounds if s == "tick"] == [*LEAD_IN, *(625.0 + n for n in range(10))]
    prompts = [(e["t"], e["prompt"], e.get("text")) for e in events if e["type"] == "prompt"]
    assert prompts == [(235.0, "scholars", CAMP[0]), (435.0, "scholars", CAMP[0]),
                       (650.0, "resumed", None)]
    states = [(e["t"], e["state"], e["era"]) for e in events if e["type"] == "state"]
    assert states[-1][1] == "game_over" and {era for _, _, era in states} == {1}
    assert (635.0, "scoring", 1) in states
    ranking = [e for e in events if e["type"] == "ranking"]
    assert len(ranking) == 1 and ranking[0]["era"] == 1


def camp_config() -> Config:
    own = parse_era_profile(readme_block(), "camp-run.toml")
    return Config(realtime=own.realtime, eras=own.eras, guide=False)


def test_the_screen_shows_the_calls_own_text_until_its_time_is_up() -> None:
    game = new_game(camp_config())
    game, _ = step(game, Input(Button.ERA, Gesture.PRESS), 0.0)
    for t in range(1, 206):
        game, _ = step(game, Tick(), float(t))
    shown = screen(game, 205.0)
    assert shown.prompt is Prompt.SCHOLARS and shown.prompt_text == CAMP
    game, _ = step(game, Tick(), 220.0)  # prompt_s = 15
    assert screen(game, 220.0).prompt is None


@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_own_prompt_is_drawn_whole_on_both_panels(height: int, language: str) -> None:
    running = Screen(Phase.RUNNING, 1, Mode.REALTIME, eras=1, seconds_left=398, length_s=600,
                     elapsed=202.0, cue_marks=(200.0, 400.0), prompt=Prompt.SCHOLARS,
                     prompt_text=CAMP)
    lay = layout(running, language=language, panel=Panel(128, height))
    prompt = next(item for item in lay.items if isinstance(item, TextItem)
                  and item.role == "prompt")
    text = CAMP[1] if language == "ja" else CAMP[0]
    assert prompt.source == text and not prompt.block.abbreviated and prompt.inverted
    assert "".join(prompt.block.lines).replace(" ", "") == text.replace(" ", "")


def test_a_saved_game_fits_the_games_eras() -> None:
    """A snapshot of the one-era game resumes; one saying era 2 is refused (1..eras)."""
    config = camp_config()
    game = new_game(config)
    record = snapshot(game, 0.0)
    assert loads(json.dumps(record), config)["era"] == 1
    with pytest.raises(SnapshotError, match=r"'era' should be 1\.\.1"):
        loads(json.dumps({**record, "era": 2}), config)
    # ... and its score sheet, of one era, does not fit a game of three
    with pytest.raises(SnapshotError, match="should be 3 eras"):
        loads(json.dumps(record), Config())
    toe = snapshot(new_game(Config()), 0.0)
    assert loads(json.dumps({**toe, "era": 3}), Config())["era"] == 3  # Time of Empires


def test_a_game_of_five_eras_ends_after_its_fifth() -> None:
    """Time of Empires' profile with two more `[[era]]` tables plays five eras, each
    counted in the state and the scoring, then the final ranking (and never a sixth)."""
    text = SHIPPED.read_text(encoding="utf-8").replace(
        "[[era]]\nwonders = 3\nbonus_token_vp = 3\n",
        "[[era]]\nwonders = 3\nbonus_token_vp = 3\n\n[[era]]\nwonders = 3\n\n[[era]]\n")
    own = parse_era_profile(text, "five.toml")
    assert own.eras == 5 and own.prep.wonders == (1, 2, 3, 3, 0)
    config = Config(realtime=replace(own.realtime, lead_in_s=0), eras=5, guide=False,
                    players=("red", "blue"), prep=own.prep, checklist=own.checklist)
    game, now, ended = new_game(config), 0.0, []
    while game.phase is not Phase.GAME_OVER and now < 10_000:
        if game.phase in (Phase.RUNNING, Phase.LEAD_IN):
            due = next_deadline(game, now)
            assert due is not None
            now = max(now, due)
            game, _ = step(game, Tick(), now)
            if game.phase is Phase.SCORING:
                ended.append((game.era, screen(game, now).eras))
        else:  # setup starts the era; in the scoring ERA confirms, ties ask the buildings
            now += 1.0
            game, _ = step(game, Input(Button.ERA, Gesture.PRESS), now)
    assert game.phase is Phase.GAME_OVER and game.era == 5
    assert ended == [(n, 5) for n in range(1, 6)]
    assert now == pytest.approx(5 * 540, abs=200)
    assert (era_name(5, "en"), era_name(5, "ja")) == ("Era V", "時代Ⅴ")


def test_the_settings_menu_sets_the_mode_of_the_games_eras_only() -> None:
    one = settings_menu.items(settings_menu.defaults(camp_config()))
    assert "mode1" in one and "mode2" not in one
    three = settings_menu.items(settings_menu.defaults(Config()))
    assert [item for item in three if item.startswith("mode")] == ["mode1", "mode2", "mode3"]


def test_ten_eras_are_refused_naming_file_line_and_key() -> None:
    text = readme_block().replace("[[era]]", "\n\n".join(["[[era]]"] * 10), 1)
    assert text.count("[[era]]") == 10
    with pytest.raises(ProfileError, match=r"^camp-run.toml:\d+: key 'era': a game of 1 to 9 "
                                           r"eras, got 10 \[\[era\]\] tables"):
        parse_era_profile(text, "camp-run.toml")
    nine = readme_block().replace("[[era]]", "\n\n".join(["[[era]]"] * 9), 1)
    assert parse_era_profile(nine, "camp-run.toml").eras == 9
