"""The screen model: what the display shows for a game at a moment (`screen`), the fields of
a `state` event line (`describe`), and the first effects a fresh game hands the adapters.

Pure and clock-free: `now` is passed in. Pixels are drawn from the `Screen` in erabox.ui.
"""

from __future__ import annotations

import math
from typing import Any

from . import points as scoring
from . import prep
from . import settings as settings_menu
from .game import (
    EPS,
    Game,
    current_settings,
    elapsed,
    guide_steps,
    in_guide,
    prepare_sounds,
    score_variant,
    scoring_step_at,
    screen_kind,
    sheet,
    start_player,
    start_player_index,
    state_name,
    timeline,
)
from .model import Effect, Phase, PrepareMusic, Prompt, Screen, SetVolume, Show

QUIET_LEVEL = 0.1  # at or below this volume every screen shows the quiet mark


def opening(game: Game, now: float) -> tuple[Effect, ...]:
    """What a fresh game hands the adapters before its first input: the volume, the first
    era's music to get ready, and the screen."""
    return (SetVolume(game.volume, music=game.config.audio.music_level),
            PrepareMusic(game.era, game.mode, score_variant(game)),
            *prepare_sounds(game.config), Show(screen(game, now)))


def describe(game: Game, now: float) -> dict[str, Any]:
    """The fields of a `state` event line (see docs/simulate.md)."""
    running = elapsed(game, now)
    return {
        "state": state_name(game).value,
        "era": game.era,
        "mode": game.mode.value,
        "round": game.round if game.phase in (Phase.INTRO_ROUND, Phase.SCHOLARS) else None,
        "start_player": start_player(game),
        "elapsed": None if running is None else round(running, 3),
    }


def screen(game: Game, now: float) -> Screen:
    """The screen model for this moment."""
    cfg = game.config
    running = elapsed(game, now)
    seconds_left = None
    if running is not None:
        seconds_left = max(0, math.ceil(cfg.realtime.length_s - running - EPS))
    countdown = None
    if game.phase is Phase.LEAD_IN and game.lead_in_started is not None:
        countdown = max(1, cfg.realtime.lead_in_s - int(now - game.lead_in_started + EPS))
    player = start_player(game)
    if game.phase is Phase.SCHOLARS:  # the screen names who starts next
        player = cfg.players[(start_player_index(game) + 1) % len(cfg.players)]
    menu: dict[str, Any] = {}
    if game.menu is not None:
        chosen = current_settings(game)
        names = settings_menu.items(chosen)
        index = min(game.menu.item, len(names) - 1)
        value = settings_menu.value(chosen, names[index])
        menu = {"menu_item": names[index], "menu_value": value,
                "menu_position": (index + 1, len(names)), "menu_note": game.menu.note or (
                    settings_menu.game_problem(chosen) if names[index] == "game" else None),
                "menu_names": next(((en, ja) for name, en, ja in cfg.game_names
                                    if names[index] == "game" and name == value), None)}
    return Screen(
        **_guide_fields(game),
        **_score_fields(game, now),
        kind=screen_kind(game),
        era=game.era,
        eras=cfg.eras,
        mode=game.mode,
        new_game=game.phase is Phase.SETUP and game.era == 1,
        seconds_left=seconds_left,
        length_s=cfg.realtime.length_s,
        # Whole running seconds: the screen only changes on the second, so two moments within
        # the same second give equal screens (and the display skips the second one).
        elapsed=None if running is None else float(math.floor(running + EPS)),
        cue_marks=cfg.realtime.scholar_cues_s,
        countdown=countdown,
        round=game.round if game.phase in (Phase.INTRO_ROUND, Phase.SCHOLARS) else None,
        rounds=cfg.intro.rounds,
        start_player=player,
        scoring_step=scoring_step_at(game) if game.phase is Phase.SCORING
        and game.entry is not None else None,
        question=game.question,
        prompt=game.prompt,
        # (not `steer.may_pause_alone`, which imports what imports this)
        hall_held=game.phase is Phase.PAUSED and cfg.hall is not None and not cfg.hall.pause_alone,
        prompt_text=_call_text(game),
        volume=round(game.volume * 100) if game.volume_until is not None else None,
        language=cfg.language,
        quiet=game.volume <= QUIET_LEVEL + EPS,
        **menu,
    )


def _call_text(game: Game) -> tuple[str, str] | None:
    """The profile's own text (English, Japanese) of the timed call whose prompt is up: the
    last one sounded (None: the box's "Appoint scholars!")."""
    if game.prompt is not Prompt.SCHOLARS:
        return None
    calls = [c.call for c in timeline(game.config)[:game.cues_done] if c.call is not None]
    return game.config.realtime.call(calls[-1]).prompt if calls else None


def _guide_fields(game: Game) -> dict[str, Any]:
    if not in_guide(game):
        return {}
    assert game.guide is not None
    steps = guide_steps(game)
    index = min(game.guide, len(steps) - 1)
    return {"guide_step": steps[index].key, "guide_n": steps[index].n,
            "guide_position": prep.position(steps, index),
            "guide_part": steps[index].part.value}


def named_places(game: Game, places: tuple[scoring.Place, ...]
                 ) -> tuple[tuple[int, str, int, int | None], ...]:
    """Places as shown and reported: (place, colour, total, buildings or None)."""
    players = game.config.players
    return tuple((p.place, players[p.player], p.total, p.buildings) for p in places)


def _score_fields(game: Game, now: float) -> dict[str, Any]:
    players = game.config.players
    book = sheet(game)
    if game.phase is Phase.GAME_OVER:
        if not game.config.keep_score:  # kept on paper: no ranking to show
            return {}
        return {"entry": "ranking", "places": named_places(game, scoring.final_ranking(book)),
                "totals": tuple(zip(players, scoring.totals(book), strict=True))}
    if game.phase is not Phase.SCORING or game.entry is None:
        return {}
    entry = game.entry
    stage = scoring.stage(entry, len(players))
    asked = scoring.asked_player(entry, book)
    sums = list(scoring.totals(book))
    value = scoring.shown_value(entry, now)
    buildings = scoring.in_buildings(entry, len(players))
    times = scoring.times(entry, len(players))
    if asked is not None and stage is scoring.Stage.POINTS:
        # the running total shows the number being entered
        sums[asked] += value * times
    fields: dict[str, Any] = {
        "entry": stage.value,
        "player": None if asked is None else players[asked],
        "value": value if stage in (scoring.Stage.POINTS, scoring.Stage.BUILDINGS) else None,
        "totals": tuple(zip(players, sums, strict=True)),
        "ramp": scoring.ramp(entry, now),
        "era_total": not entry.by_step,
        "value_vp": value * times if buildings else None,
        "value_times": times if buildings else None,
    }
    if stage is scoring.Stage.STANDINGS:
        fields["places"] = named_places(game, scoring.standings(scoring.totals(book)))
    return fields
