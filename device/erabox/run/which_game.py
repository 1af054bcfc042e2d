"""Which game the box plays: one rule for `--game`, the settings menu and the config.

`game_to_play` decides at start (a game that cannot be played opens Time of Empires' settings
menu, saying why: `mark_refused`); `chosen_game` checks the game the settings menu chose while
the box runs; `check_players` says whether a game is for this many players (`PlayersError`).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from erabox.adapters.settings_file import SettingsFile
from erabox.core.config import Config, ConfigError
from erabox.core.profile import Profile, ProfileError
from erabox.core.settings import apply as apply_settings
from erabox.files.games import error_place

log = logging.getLogger("erabox")


@dataclass(frozen=True)
class Start:
    """The game the box plays at start (`game_to_play`): `profile` (None: Time of Empires),
    the config it runs with (the box's settings laid over the file), and `refused`: the game
    that was to be played cannot be: Time of Empires' settings menu opens, its screen saying
    why and what to change; `played` is then the file's config, the game marked in it as
    the menu needs (`mark_refused`)."""

    profile: Profile | None
    played: Config
    refused: bool = False
    why_played: str | None = None  # why `profile` plays: "game" (--game), "menu", "config"


def game_to_play(args: argparse.Namespace, config: Config, settings_file: SettingsFile,
                  find: Callable[[str], Profile]) -> Start:
    """Which game plays, one rule for the command line, the settings menu and the config:
    `--game` for this run; else the game chosen in the settings menu, once "Game" was ever
    changed there; else the config's `game`; else Time of Empires. The box's settings
    (players, seats, oldest, language, ...) apply to every game. One log line says which
    game plays and why.

    A game that cannot be played (its file broken or gone, not for this many players): with
    `--game`, `ConfigError`/`ProfileError` (exit 2, naming what to change); else a warning and
    `refused` (the box starts on Time of Empires' settings menu, which says so)."""
    chosen = settings_file.load(config)
    played = config if chosen is None else apply_settings(config, chosen)
    if getattr(args, "game", None):
        name, why, by = config.game, "given with --game", "game"  # "": the box's own game
    elif chosen is not None and chosen.game_chosen:
        name, why, by = chosen.game, "chosen in the settings menu", "menu"
    elif config.game:
        name, why, by = config.game, f"set in the config ({config.source}: game)", "config"
    else:
        name, why = "", "no other game chosen in the settings menu or set in the config"
    if not name:
        log.info("playing Time of Empires: %s", why)
        return Start(None, played)
    try:
        profile = find(name)
        check_players(profile, played.players, players_from(chosen))
    except (ProfileError, ConfigError) as exc:
        if getattr(args, "game", None):
            raise
        log.warning("cannot play %r, %s: %s; the settings menu opens on Time of Empires to "
                    "choose players or another game", name, why, exc)
        return Start(None, mark_refused(config, name, exc), refused=True)
    log.info("playing %s: %s", profile.id, why)
    return Start(profile, played, why_played=by)  # its first setup says why, as this line does


def players_from(chosen: object) -> str:
    """Where the players came from, as an error says what to change."""
    return "the settings menu's Players" if chosen is not None else "`players` in the config"


def mark_refused(config: Config, name: str, problem: Exception) -> Config:
    """`config` with the game `name` marked as the menu shows a game that cannot be played:
    not for this many players (`PlayersError`: its player counts), else broken (a file given
    by its path, gone, or broken since the start: where the message says)."""
    players = tuple(g for g in config.game_players if g[0] != name)
    broken = tuple(g for g in config.broken_games if g[0] != name)
    if isinstance(problem, PlayersError):
        return replace(config, game_players=(*players, (name, problem.fewest, problem.most)),
                       broken_games=broken)
    return replace(config, game_players=players,
                   broken_games=(*broken, (name, error_place(str(problem), name))))


def chosen_game(name: str, config: Config, find: Callable[[str], Profile] | None
                ) -> Profile:
    """The profile the settings menu chose, checked against `config`'s players (the menu's);
    `ProfileError` or `ConfigError` saying why it cannot be played."""
    if find is None:
        raise ProfileError("this box cannot look games up")
    profile = find(name)
    check_players(profile, config.players, "the settings menu's Players")
    log.info("playing %s: chosen in the settings menu (%s)", profile.id, profile.source)
    return profile


def switched_game(name: str, played: Config, own: Config,
                  find: Callable[[str], Profile] | None) -> tuple[Profile | None, Config]:
    """The game the settings menu closed on, for the menu's players (`played`: the settings
    laid over the file): its profile, and `own` (Time of Empires' config) as it was; or, where
    it cannot be played (a game given as a file, a file changed since the start), None and
    `own` marked so that the menu, open again, says why on the screen (and the log)."""
    try:
        return chosen_game(name, played, find), own
    except (ProfileError, ConfigError) as exc:
        log.warning("cannot play %r, chosen in the settings menu: %s", name, exc)
        return None, mark_refused(own, name, exc)


def check_players(profile: Profile, players: tuple[str, ...],
                  players_from: str = "`players` in the config") -> None:
    """A profile is for so many players: `players` must fit (`ConfigError` if not, naming
    where they came from: `players_from`, what to change)."""
    if not profile.min_players <= len(players) <= profile.max_players:
        span = (str(profile.min_players) if profile.min_players == profile.max_players
                else f"{profile.min_players} to {profile.max_players}")
        raise PlayersError(f"{profile.source}: {profile.name.en} is for {span} players, not "
                           f"{len(players)} (change {players_from}, or play another game)",
                           profile.min_players, profile.max_players)


class PlayersError(ConfigError):
    """A game that is not for this many players (`fewest` to `most`)."""

    def __init__(self, message: str, fewest: int, most: int) -> None:
        super().__init__(message)
        self.fewest, self.most = fewest, most
