"""Finding and reading the config file (the parsing itself is pure: `erabox.core.config`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from erabox.adapters.files import FileRefused, read_regular
from erabox.core.config import Config, ConfigError, parse_config
from erabox.core.own_game import own_numbers_of
from erabox.core.profile import ProfileError
from erabox.files.games import OWN_GAME, game_folders, own_game_profile, shipped_games

SYSTEM_CONFIG = Path("/etc/erabox/erabox.toml")
MAX_CONFIG_BYTES = 1024 * 1024  # a config is a few kB; refuse to read a disk


def config_candidates(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where a config is looked for when `--config` is not given, in order."""
    env = os.environ if environ is None else environ
    found = []
    if env.get("ERABOX_CONFIG"):
        found.append(Path(env["ERABOX_CONFIG"]).expanduser())
    found.append(SYSTEM_CONFIG)
    home = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    found.append(Path(home) / "erabox" / "erabox.toml")
    return found


def load_config(path: str | None, environ: Mapping[str, str] | None = None,
                game: str | None = None) -> Config:
    """The config from `path`, else the first existing candidate, else the defaults, with the
    box's own game's numbers from its profile (`own_game_profile`: `game`, else the config's
    `game` when it names Time of Empires, else `time-of-empires.toml`, a copy beside the
    config first; `own_game.own_numbers_of`); the config's `[realtime]` and `[intro]` keys
    win over them. `game` (the command line's `--game`) replaces the config's; one naming
    the box's own game plays it: the config's `game` is then "", its `own_game` the file.

    An explicit path (or $ERABOX_CONFIG) that does not exist is an error; so is any file that
    exists but does not parse. Raises `ConfigError` (or `ProfileError`) with the file named.
    """
    env = os.environ if environ is None else environ
    if path is None:
        candidates = config_candidates(env)
        if env.get("ERABOX_CONFIG"):
            path = str(candidates[0])
        else:
            existing = [c for c in candidates if c.is_file()]
            if not existing:
                return _with_own_game(Config(), "", None, None, env, game)
            path = str(existing[0])
    file = Path(path).expanduser()
    try:
        data = read_regular(file, MAX_CONFIG_BYTES)  # a FIFO, a device, a loop: refused
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file") from None
    except FileRefused as exc:
        raise ConfigError(f"{file}: cannot use it as the config ({exc})") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{file}: more than {MAX_CONFIG_BYTES} bytes, not a config")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{file}: cannot read it ({exc})") from None
    base_dir = str(file.resolve().parent)
    config = parse_config(text, source=str(file), base_dir=base_dir)
    return _with_own_game(config, text, str(file), base_dir, env, game)


def _with_own_game(config: Config, text: str, source: str | None, base_dir: str | None,
                   env: Mapping[str, str], game: str | None) -> Config:
    folders = game_folders(source, env)
    named = config.game if game is None else game
    try:
        own = own_game_profile(named, folders) if named else None
    except ProfileError:
        if game is not None:
            raise  # --game: the command line names it, the command stops (exit 2)
        # The config's game: when it is played, the box says why it cannot be on its screen
        # (which_game.game_to_play); a file of a game not played stops nothing.
        own = None
    if own is not None:  # the game named is the box's own, Time of Empires
        config = replace(config, game="")
    else:  # none named, or another game: the own game (the menu's) keeps its numbers
        config = replace(config, game=named)
        own = own_game_profile("", folders)
        assert own is not None
    shipped = str(shipped_games() / f"{OWN_GAME}.toml")
    config = replace(config, own_game="" if own.source == shipped else own.source)
    numbers = own_numbers_of(own)
    if source is None:
        return replace(config, realtime=numbers.realtime, intro=numbers.intro,
                       prep=numbers.prep, checklist=numbers.checklist, eras=numbers.eras,
                       audio=replace(config.audio, game_eras=numbers.music))
    played = parse_config(text, source=source, base_dir=base_dir,
                          numbers=(numbers.realtime, numbers.intro))
    return replace(played, game=config.game, own_game=config.own_game, prep=numbers.prep,
                   checklist=numbers.checklist, eras=numbers.eras,
                   audio=replace(played.audio, game_eras=numbers.music))
