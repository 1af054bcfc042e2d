"""Sample screens: one or more of every kind and overlay, as the game core would produce them.

The gallery draws these, the render tests check them, and the display test and the bench reuse
them as realistic frames.
"""

from __future__ import annotations

from erabox.core import prep
from erabox.core import settings as settings_menu
from erabox.core.config import Config
from erabox.core.model import Mode, Phase, Prompt, Question, Screen
from erabox.core.prep import steps as prep_steps
from erabox.core.rules import ERA_LENGTH_S, SCHOLAR_CUES_S

_CUES = SCHOLAR_CUES_S


def _left(elapsed: float) -> int:
    """Whole seconds left at `elapsed` running seconds, rounded up like the core."""
    return max(0, int(ERA_LENGTH_S - elapsed + 0.999))


def _running(elapsed: float, **fields: object) -> Screen:
    """A real-time Era II screen at `elapsed` running seconds."""
    left = _left(elapsed)
    return Screen(
        Phase.RUNNING,
        2,
        Mode.REALTIME,
        seconds_left=left,
        elapsed=elapsed,
        cue_marks=_CUES,
        **fields,  # type: ignore[arg-type]
    )


def sample_screens() -> list[tuple[str, Screen]]:
    """(name, screen) for every kind of screen and every overlay; names are file-name safe."""
    intro = Mode.INTRO
    return [
        ("setup_new_game", Screen(Phase.SETUP, 1, Mode.REALTIME, new_game=True)),
        ("setup_era2_intro", Screen(Phase.SETUP, 2, intro)),
        ("setup_era3_realtime", Screen(Phase.SETUP, 3, Mode.REALTIME)),
        ("lead_in", Screen(Phase.LEAD_IN, 1, Mode.REALTIME, countdown=5)),
        ("running_start", _running(0.0)),
        ("running", _running(250.4)),
        ("running_scholars", _running(182.0, prompt=Prompt.SCHOLARS)),
        ("running_pause_hint", _running(400.0, prompt=Prompt.PAUSE_HINT)),
        ("running_last_seconds", _running(ERA_LENGTH_S - 7.5)),
        (
            "paused",
            Screen(Phase.PAUSED, 2, Mode.REALTIME, seconds_left=_left(100.0), elapsed=100.0,
                   cue_marks=_CUES),
        ),
        (
            "paused_resumed",
            Screen(Phase.PAUSED, 3, Mode.REALTIME, seconds_left=_left(239.0), elapsed=239.0,
                   cue_marks=_CUES, prompt=Prompt.RESUMED),
        ),
        ("intro_round", Screen(Phase.INTRO_ROUND, 1, intro, round=7, start_player="blue")),
        (
            "intro_round_resumed",
            Screen(Phase.INTRO_ROUND, 2, intro, round=12, start_player="green",
                   prompt=Prompt.RESUMED),
        ),
        (
            "intro_round_other_colour",
            Screen(Phase.INTRO_ROUND, 3, intro, round=1, start_player="turquoise"),
        ),
        ("scholars", Screen(Phase.SCHOLARS, 1, intro, round=5, start_player="yellow")),
        (
            "confirm_restart_era",
            Screen(Phase.CONFIRM, 2, Mode.REALTIME, seconds_left=_left(239.0), elapsed=239.0,
                   cue_marks=_CUES, question=Question.RESTART_ERA),
        ),
        ("confirm_new_game", Screen(Phase.CONFIRM, 1, intro, question=Question.NEW_GAME)),
        ("running_volume", _running(250.4, volume=80)),
        ("intro_round_last", Screen(Phase.INTRO_ROUND, 1, intro, round=15, start_player="red")),
        ("intro_round_undone", Screen(Phase.INTRO_ROUND, 1, intro, round=6, start_player="blue",
                                      prompt=Prompt.UNDONE)),
        ("setup_new_game_quiet", Screen(Phase.SETUP, 1, Mode.REALTIME, new_game=True,
                                        quiet=True)),
        ("running_quiet", _running(100.0, quiet=True)),
        ("scholars_quiet", Screen(Phase.SCHOLARS, 2, intro, round=10, start_player="red",
                                  quiet=True)),
        ("running_holding_for_new_game", _running(300.0, hold_progress=0.5)),
        ("intro_round_holding_for_new_game", Screen(Phase.INTRO_ROUND, 2, intro, round=4,
                                                    start_player="green", hold_progress=0.17)),
        *_settings_samples(),
        *_guide_samples(),
        *_score_samples(),
        ("intro_round_volume", Screen(Phase.INTRO_ROUND, 2, intro, round=3, start_player="red",
                                      volume=100)),
    ]


def _settings_samples() -> list[tuple[str, Screen]]:
    """The settings menu: one screen for each kind of item (and the notes after ERA once and
    twice on "Back to defaults", after a seat took another seat's colour, and on a game that
    cannot be played), at their real places for three players."""
    shown = [("game", ""), ("players", "3"), ("seat2", "green"), ("oldest", "blue"),
             ("language", "ja"), ("mode2", "intro"), ("volume", "80"), ("final_ticks", "on"),
             ("lead_in", "5"), ("brightness", "4"), ("cue_led", "off"), ("guide", "on"),
             ("keep_score", "on"), ("points_entry", "totals"), ("score_variant", "each_game"),
             ("defaults", ""), ("done", "")]
    names = settings_menu.items(settings_menu.defaults(Config(players=("red", "blue",
                                                                       "green"))))
    screens = []
    for item, value in shown:
        screens.append((f"settings_{item}", Screen(
            Phase.SETTINGS, 1, Mode.REALTIME, new_game=True, menu_item=item, menu_value=value,
            menu_position=(names.index(item) + 1, len(names)))))
    # a game profile by its own name (the longest shipped one is shortened to fit)
    xidit = ("Lords of Xidit", "Lords of Xidit")
    intro = ("Time of Empires: introductory era", "タイム・オブ・エンパイア 入門の時代")
    for name, item, value, note, own in (
            ("defaults_ask", "defaults", "", "defaults_ask", None),  # ERA once: it asks
            ("defaults_restored", "defaults", "", "defaults_done", None),
            ("seat_swapped", "seat1", "green", "swapped_3", None),
            ("game_profile", "game", "lords-of-xidit", None, xidit),
            ("game_profile_long_name", "game", "time-of-empires-intro", None, intro),
            # a game that cannot be played: the menu stays open, saying why and what to change
            ("game_not_for_these_players", "game", "lords-of-xidit", "game_players:3:5", xidit),
            ("game_broken_file", "game", "harvest", "game_broken:harvest.toml:21", None)):
        screens.append((f"settings_{name}", Screen(
            Phase.SETTINGS, 1, Mode.REALTIME, new_game=True, menu_item=item, menu_value=value,
            menu_position=(names.index(item) + 1, len(names)), menu_note=note,
            menu_names=own)))
    # a game of nine eras (a profile's [[era]] tables): the widest era numeral's mode
    nine = settings_menu.items(settings_menu.defaults(Config(players=("red", "blue", "green"),
                                                             eras=9)))
    screens.append(("settings_mode8_of_nine_eras", Screen(
        Phase.SETTINGS, 1, Mode.REALTIME, new_game=True, menu_item="mode8", menu_value="intro",
        menu_position=(nine.index("mode8") + 1, len(nine)))))
    return screens


def _guide_samples() -> list[tuple[str, Screen]]:
    """Every step of the preparation guide: Era III with 4 players has them all; Era I of a
    new 4-player game adds the game's setup, and in the introductory mode its own steps."""
    samples = []
    for era, mode, first in ((3, Mode.REALTIME, False), (1, Mode.INTRO, True)):
        guide = prep_steps(era, 4, mode, first)
        for index, step in enumerate(guide):
            name = step.key.removeprefix("prep_").removeprefix("setup_")
            if step.part is prep.Part.GAME:
                name = f"game_{name}"
            elif era == 1 and step.key not in ("prep_hourglasses_intro", "prep_oldest_holds_box"):
                continue  # shown by Era III already
            samples.append((f"prepare_{name}", Screen(
                Phase.PREPARE, era, mode, guide_step=step.key, guide_n=step.n,
                guide_position=prep.position(guide, index), guide_part=step.part.value)))
    return samples


_FOUR = (("red", 123), ("blue", 98), ("green", 123), ("yellow", 7))


def _score_samples() -> list[tuple[str, Screen]]:
    """Entering victory points, the standings, the tie-break and the final ranking."""
    rt = Mode.REALTIME
    places = ((1, "red", 123, None), (1, "green", 123, None), (3, "blue", 98, None),
              (4, "yellow", 7, None))
    ranked = ((1, "green", 123, 14), (2, "red", 123, 12), (3, "blue", 98, None),
              (4, "yellow", 7, None))
    shared = ((1, "red", 123, 12), (1, "green", 123, 12), (3, "blue", 98, None),
              (4, "yellow", 7, None))
    return [
        ("scoring_points", Screen(Phase.SCORING, 2, rt, scoring_step=4, entry="points",
                                  player="yellow", value=15, totals=_FOUR)),
        ("scoring_points_three", Screen(Phase.SCORING, 1, rt, scoring_step=0, entry="points",
                                        player="red", value=0,
                                        totals=(("red", 0), ("blue", 0), ("green", 0)))),
        ("scoring_era_total", Screen(Phase.SCORING, 2, rt, scoring_step=5, entry="points",
                                     player="green", value=19, totals=_FOUR, era_total=True)),
        ("scoring_hold_ramp", Screen(Phase.SCORING, 2, rt, scoring_step=5, entry="points",
                                     player="red", value=15, totals=_FOUR, era_total=True,
                                     ramp=15)),
        ("scoring_destruction", Screen(Phase.SCORING, 2, rt, scoring_step=0, entry="points",
                                       player="blue", value=2, value_vp=6, value_times=3,
                                       totals=_FOUR)),
        ("scoring_on_paper", Screen(Phase.SCORING, 1, rt)),
        ("scoring_no_points", Screen(Phase.SCORING, 3, rt, scoring_step=5, entry="shown",
                                     totals=_FOUR)),
        ("scoring_standings", Screen(Phase.SCORING, 2, rt, scoring_step=5, entry="standings",
                                     totals=_FOUR, places=places)),
        ("scoring_tie_buildings", Screen(Phase.SCORING, 3, rt, entry="buildings",
                                         player="green", value=14, totals=_FOUR)),
        ("game_over_ranking", Screen(Phase.GAME_OVER, 3, rt, entry="ranking", totals=_FOUR,
                                     places=ranked)),
        ("game_over_shared_victory", Screen(Phase.GAME_OVER, 3, rt, entry="ranking",
                                            totals=_FOUR, places=shared)),
    ]


def sample_renders() -> list[tuple[str, Screen, bool]]:
    """(name, screen, no_sound) for the gallery: every sample, plus no-sound mark variants."""
    screens = dict(sample_screens())
    return [(name, screen, False) for name, screen in sample_screens()] + [
        ("running_no_sound", screens["running"], True),
        ("scholars_no_sound", screens["scholars"], True),
        ("running_no_sound_volume", screens["running_volume"], True),
        ("setup_new_game_quiet_no_sound", screens["setup_new_game_quiet"], True),
    ]
