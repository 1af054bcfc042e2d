"""The record kept across power cuts: `snapshot` (a clock-free dict of the game, saved by the
state file), `restore` (the game after a restart, from one), and the checks that a record fits
the era's cue list.

Around a cry or the end gong the record carries two marks (docs/power-cuts.md): "armed", saved
`ARM_LEAD_S` before the cue is due and not yet handed to the mixer, and "sounded", saved
durably just before the cry is handed to it. The transitions that set them are in machine.py.
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import replace
from typing import Any

from . import points as scoring
from . import settings as settings_menu
from .config import Config
from .game import (
    Cue,
    Game,
    elapsed,
    guide_steps,
    new_game,
    prepare_sounds,
    score_variant,
    scoring_step_at,
    sheet,
    start_player,
    timeline,
    without_led,
)
from .model import (
    Effect,
    Mode,
    Music,
    MusicAction,
    Phase,
    PrepareMusic,
    Prompt,
    Save,
    SetVolume,
    Show,
    ShowPrompt,
)
from .rules import SCORING_STEPS
from .view import opening, screen

SCHEMA_VERSION = 1
ARM_LEAD_S = 0.5  # a cry or the end gong is recorded on disk this long before it sounds
SOUNDED_LEAD_S = 0.1  # ... and recorded as sounded at least this long before it is handed over
MAX_SOUNDED_LEAD_S = 5.0  # ... and at most this long, however slow the card (`sounded_lead`)
MAX_WRITE_S = 60.0  # a measured write time is taken as at most this (a hung card)
SAVED_TIME_SLACK_S = 2e-3  # `elapsed` is saved rounded to the millisecond
RESUMED_PROMPT_S = 5.0


def restore(
    snapshot: dict[str, Any], config: Config, now: float,
    settings: settings_menu.Settings | None = None,
) -> tuple[Game, tuple[Effect, ...]]:
    """The game after a restart, from a saved snapshot (see `snapshot.py` for validation).

    A real-time era comes back paused at its saved running time; an introductory era at the
    same round and start player; either way "Resumed" is shown. Around a cry or the end gong
    (docs/power-cuts.md, the table of windows):

    - "armed" (the cue was due within `ARM_LEAD_S` and had not been handed to the mixer): the
      era comes back paused AT the cue, which sounds the moment the table resumes;
    - "sounded" (saved durably just before the cry was handed to the mixer): the cry is not
      sounded again; the scholar prompt it owes the table is shown, silently, and saved again,
      so any number of further cuts show it again until the table resumes. For the end gong
      the "sounded" record is the era's scoring, which comes back as it is.

    A snapshot of Era I's setup saved under other settings than `settings` (a cut between the
    two files' writes) comes back as that setup freshly made with `settings`: either the whole
    change or none of it, never half.
    """
    variant = int(snapshot.get("variant", 1))  # added later: older files play the first
    if _settings_changed_under(snapshot, settings):
        game = new_game(config, settings=settings, variant=variant)
        return game, opening(game, now)
    phase = Phase(snapshot["phase"])
    mode = Mode(snapshot["mode"])
    era = int(snapshot["era"])
    base = config
    if settings is not None:
        config = settings_menu.apply(base, settings)
    game = Game(
        config=config,
        base=base,
        settings=settings,
        phase=phase,
        era=era,
        mode=mode,
        volume=float(snapshot["volume"]),
        era_start_player=int(snapshot["era_start_player"]) % len(config.players),
        round=snapshot.get("round"),
        scoring_step=min(max(0, int(snapshot.get("scoring_step", 0))), SCORING_STEPS),
        variant=variant,
    )
    players = len(config.players)
    saved_scores = snapshot.get("scores")
    book = scoring.blank(players, config.eras)
    if isinstance(saved_scores, dict):
        try:
            book = scoring.sheet_from_dict(saved_scores, players, config.eras)
        except ValueError:  # players changed since: the points no longer fit the table
            book = scoring.blank(players, config.eras)
    game = replace(game, sheet=book)
    guide = snapshot.get("guide")
    if phase is Phase.SETUP and isinstance(guide, int) and not isinstance(guide, bool):
        game = replace(game, guide=max(0, min(guide, len(guide_steps(game)) - 1)))
    if phase is Phase.SCORING:
        # Back on the same player and step; only the number being entered is lost.
        # Back on the same player and step, with the number being entered.
        saved = snapshot.get("entry")
        saved = saved if isinstance(saved, dict) else {}
        by_step = saved.get("by_step", True)  # files from before era totals: per step
        by_step = by_step if isinstance(by_step, bool) else True
        index = min(max(0, int(saved.get("index", 0))),
                    len(scoring.positions(players, by_step, game.config.checklist)))
        tie = saved.get("tie")
        value = saved.get("value", 0)
        value = min(max(0, value), scoring.MAX_POINTS) if _int(value) else 0
        entry = scoring.Entry(era=era, index=index, tie=tie if isinstance(tie, int) else None,
                              value=value, by_step=by_step, checklist=game.config.checklist)
        if entry.tie is not None and not (
                era == config.eras and 0 <= entry.tie < len(scoring.tied_for_first(
                    scoring.totals(book)))):
            entry = replace(entry, tie=None)
        game = replace(game, entry=entry if config.keep_score else None)
    effects: list[Effect] = [SetVolume(game.volume, music=game.config.audio.music_level),
                             *prepare_sounds(game.config)]
    prompt = Prompt.RESUMED
    if phase is Phase.LEAD_IN:  # the era had not begun: set it up again
        game = replace(game, phase=Phase.SETUP)
    elif phase in (Phase.RUNNING, Phase.PAUSED):
        game, prompt = _restore_realtime(game, snapshot, now)
    elif phase in (Phase.INTRO_ROUND, Phase.SCHOLARS):
        effects.append(Music(MusicAction.RESUME, era, mode, 0.0))
    if prompt is Prompt.RESUMED:
        game = replace(game, prompt=Prompt.RESUMED, prompt_until=now + RESUMED_PROMPT_S)
    if game.phase not in (Phase.SCORING, Phase.GAME_OVER):  # this era's music is to come
        effects.insert(1, PrepareMusic(era, mode, score_variant(game)))
    shown = screen(game, now)  # an owed call's prompt in its own words, if it has them
    effects.append(ShowPrompt(prompt, shown.prompt_text and shown.prompt_text[0]))
    effects.append(Show(shown))
    if game.phase is Phase.PAUSED:
        # What the table is owed (a cue to sound on resume, a prompt to show) is on disk as
        # this restart shows it, however many cuts follow.
        effects.append(Save(_record(game, now)))
    return game, without_led(game, tuple(effects))


def _restore_realtime(game: Game, saved: dict[str, Any], now: float) -> tuple[Game, Prompt]:
    """A running or paused era comes back paused: at its armed cue, with its owed scholar
    prompt, or at its saved running time (the loader checked these against the cue list)."""
    config = game.config
    cues = timeline(config)
    done = min(int(saved.get("cues_done", 0)), len(cues) - 1)
    held = min(max(0.0, float(saved["elapsed"])), config.realtime.length_s)
    armed = _armed_cue(saved, config)
    if armed is not None:  # not handed to the mixer: back at the cue, sounded on resume
        held = cues[armed].at
    game = replace(game, phase=Phase.PAUSED, held_elapsed=held, cues_done=done)
    sounded = saved.get("sounded")
    if _just_sounded(cues, sounded, done):
        # Handed to the mixer (or about to be): never sounded again; its prompt is owed,
        # with its whole `scholar_prompt_s` of running time for the resume.
        return replace(game, sounded=sounded, prompt=Prompt.SCHOLARS, prompt_until=None,
                       prompt_left=config.realtime.scholar_prompt_s), Prompt.SCHOLARS
    return game, Prompt.RESUMED


def sounded_lead(game: Game) -> float:
    """How long before a cry or the end gong its "sounded" record goes to disk: the least lead
    `SOUNDED_LEAD_S` plus twice the card's measured durable-write time (the record may queue
    behind a save being written), at most `MAX_SOUNDED_LEAD_S`. A card that writes in time
    never makes the call late nor lets a cut sound it twice; a cut in this window before the
    call shows the call instead (docs/power-cuts.md), so the window grows with the card."""
    return card_lead(game.write_s)


def card_lead(write_s: float) -> float:
    """`sounded_lead` for a card whose durable writes take `write_s` (a game profile's press
    waits for its record this long too)."""
    return min(MAX_SOUNDED_LEAD_S, SOUNDED_LEAD_S + 2.0 * clean_write_s(write_s))


def clean_write_s(write_s: float) -> float:
    """A measured durable-write time as the box keeps it: seconds to the ms; negative or not
    finite: 0, beyond `MAX_WRITE_S`: that."""
    return round(min(max(write_s, 0.0), MAX_WRITE_S), 3) if math.isfinite(write_s) else 0.0


def with_write_time(game: Game, write_s: float) -> Game:
    """The game with the card's measured durable-write time (`clean_write_s`)."""
    clean = clean_write_s(write_s)
    return game if clean == game.write_s else replace(game, write_s=clean)


def _armed_cue(snapshot: dict[str, Any], config: Config) -> int | None:
    """The cue a running snapshot armed and had not yet handed to the mixer, if any."""
    armed, done = snapshot.get("armed"), snapshot.get("cues_done", 0)
    cues = timeline(config)
    if (snapshot.get("phase") == Phase.RUNNING.value and _int(armed) and armed == done
            and 0 <= armed < len(cues)):
        return int(armed)
    return None


def _is_call(cue: Cue) -> bool:
    """A cue the table acts on and that has its own records: a timed call or the end gong."""
    return cue.recorded


def _just_sounded(cues: tuple[Cue, ...], sounded: object, done: int) -> bool:
    """Cue `sounded` is the timed call just done when `done` cues are: only final ticks
    since (a call among the final ticks keeps its prompt, and its record, over them)."""
    return (isinstance(sounded, int) and not isinstance(sounded, bool)
            and 0 <= sounded < done <= len(cues) and cues[sounded].call is not None
            and not any(cue.recorded for cue in cues[sounded + 1:done]))


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def settings_digest(settings: settings_menu.Settings | None) -> str | None:
    """A short fingerprint of the settings a snapshot was made under (None: the config's).

    Two checksums of the settings' text, 16 hex digits: it only tells whether the settings on
    disk are the ones the game was saved under. Not hashlib: importing it maps OpenSSL's
    libcrypto, about 4 MB of the box's memory for one fingerprint (docs/performance.md).
    """
    if settings is None:
        return None
    data = _settings_bytes(settings)
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def _settings_bytes(settings: settings_menu.Settings) -> bytes:
    """The text both fingerprints are taken of: the settings as sorted JSON."""
    return json.dumps(settings_menu.to_dict(settings), sort_keys=True).encode("utf-8")


def _sha256_digest(settings: settings_menu.Settings | None) -> str | None:
    """The fingerprint earlier versions wrote (sha256), for a state file saved by one of them:
    hashlib is imported here only, when such a file is read (it maps OpenSSL's libcrypto)."""
    if settings is None:
        return None
    import hashlib

    return hashlib.sha256(_settings_bytes(settings)).hexdigest()[:16]


def _settings_changed_under(snapshot: dict[str, Any],
                            settings: settings_menu.Settings | None) -> bool:
    """True for Era I's setup saved under settings other than those on disk now: the settings
    change was cut between its two writes (older snapshots have no fingerprint: no check)."""
    if ("settings" not in snapshot or snapshot.get("phase") != Phase.SETUP.value
            or snapshot.get("era") != 1):
        return False
    saved: object = snapshot["settings"]
    return saved != settings_digest(settings) and saved != _sha256_digest(settings)


def cue_problem(snapshot: dict[str, Any], config: Config) -> str | None:
    """What makes a well-typed snapshot inconsistent with the era's cue list, or None.

    A real-time era's record must fit its timeline: every cue clearly before `elapsed` done,
    none clearly after it; "armed" only on the next cue, a call due within `ARM_LEAD_S`, while
    running; "sounded" only on the cry just done. Outside a running era neither is set.
    """
    armed, sounded = snapshot.get("armed"), snapshot.get("sounded")
    phase = snapshot.get("phase")
    if phase not in (Phase.RUNNING.value, Phase.PAUSED.value):
        if armed is not None or sounded is not None:
            return f"a cue is armed or sounded in {phase}, outside a running era"
        return None
    cues = timeline(config)
    done = snapshot.get("cues_done", 0)
    at = min(float(snapshot["elapsed"]), config.realtime.length_s)
    slack = SAVED_TIME_SLACK_S
    if not _int(done) or done > len(cues) - 1:
        return f"{done} cues done in an era of {len(cues)} (the last one ends it)"
    before = sum(1 for c in cues if c.at < at - slack)
    upto = sum(1 for c in cues if c.at <= at + slack)
    if not before <= done <= upto:
        return (f"{done} cues done at {at:g} s running time, the era's cue list says "
                f"{before}" + ("" if before == upto else f" to {upto}"))
    if armed is not None and not (phase == Phase.RUNNING.value and armed == done
                                  and _is_call(cues[done])
                                  and cues[done].at - at <= ARM_LEAD_S + slack):
        return f"cue {armed} is armed at {at:g} s, it is not the next call due"
    if sounded is not None and not _just_sounded(cues, sounded, done):
        return f"cue {sounded} is recorded sounded, it is not the call just done"
    return None


def snapshot(game: Game, now: float) -> dict[str, Any]:
    """A clock-free record of the game, enough for `restore` after a power cut.

    Once a call's "sounded" record is written ahead of it, every save until the call goes out
    is that record: a later save must not put back "armed" while the call may be sounding."""
    ahead = game.sounded_ahead
    if (ahead is not None and game.phase is Phase.RUNNING and ahead[0] == game.cues_done
            and ahead[1] == game.anchor):
        record: dict[str, Any] = json.loads(ahead[2])
        return record
    running = elapsed(game, now)
    cues = timeline(game.config)
    if running is not None and game.phase is Phase.RUNNING and game.cues_done < len(cues):
        # A step woken late saves before firing what fell due: the era cannot be past a cue
        # it has not given yet.
        running = min(running, cues[game.cues_done].at)
    return {
        "schema": SCHEMA_VERSION,
        "phase": game.phase.value,
        "era": game.era,
        "mode": game.mode.value,
        "round": game.round,
        "era_start_player": game.era_start_player,
        "start_player": start_player(game),  # for people reading the file
        "elapsed": None if running is None else round(running, 3),
        "cues_done": game.cues_done,
        "armed": game.armed if game.armed == game.cues_done else None,
        "sounded": game.sounded,
        "scoring_step": scoring_step_at(game),
        "volume": game.volume,
        "guide": game.guide if game.phase is Phase.SETUP else None,
        "scores": scoring.sheet_to_dict(sheet(game)),
        # where the entry is, and the number being entered (a hold's ramp is not kept)
        "entry": None if game.entry is None or game.phase is not Phase.SCORING
        else {"index": game.entry.index, "tie": game.entry.tie, "value": game.entry.value,
              "by_step": game.entry.by_step},
        "settings": settings_digest(game.settings),
        "variant": game.variant,
    }


def _record(game: Game, now: float) -> dict[str, Any]:
    """`snapshot`, for `restore`, whose parameter of that name hides the function."""
    return snapshot(game, now)


def snapshot_at_stop(game: Game, now: float) -> dict[str, Any]:
    """The record a clean stop saves: as `snapshot`, but no cue armed. The box knows the cue
    has not sounded, so the restart comes back at the saved running time and the cue sounds
    at its own time after the table resumes."""
    return snapshot(replace(game, armed=None, sounded_ahead=None), now)
