"""Finding and reading game profiles (the parsing itself is pure: `erabox.core.profile`).

Profiles are looked for, first found wins by name (the file name without `.toml`):
1. the `games/` folder beside the config file in use,
2. ~/.config/erabox/games/ ($XDG_CONFIG_HOME/erabox/games/), even without a config file,
3. /etc/erabox/games/,
4. the profiles shipped with erabox (the package's `games/` folder).
So a user's `hadrians-wall.toml` replaces the shipped one.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from erabox.adapters.files import FileRefused, check_regular, read_regular
from erabox.core.config import Config
from erabox.core.own_game import OWN_GAME as OWN_GAME
from erabox.core.profile import Profile, ProfileError, parse_profile

log = logging.getLogger("erabox")

SYSTEM_GAMES = Path("/etc/erabox/games")
MAX_PROFILE_BYTES = 1024 * 1024  # a profile is a few kB; refuse to read a disk


@dataclass(frozen=True)
class GameFile:
    """A profile found: its name, where it is, and whether it came with erabox."""

    name: str
    where: Traversable
    shipped: bool


def shipped_games() -> Traversable:
    return resources.files("erabox") / "games"


def game_folders(config_source: str | None,
                 environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where user profiles are looked for, in order: `games/` beside the config file in use
    (if one was read), beside the user's config (~/.config/erabox/games, also when there is
    no config file yet), then /etc/erabox/games."""
    env = os.environ if environ is None else environ
    folders = []
    if config_source and Path(config_source).is_file():
        folders.append(Path(config_source).resolve().parent / "games")
    home = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    folders.append(Path(home) / "erabox" / "games")
    folders.append(SYSTEM_GAMES)
    unique: list[Path] = []
    for folder in folders:
        if folder not in unique:
            unique.append(folder)
    return unique


def available_games(folders: Iterable[Path], shipped: Traversable | None = None
                    ) -> dict[str, GameFile]:
    """Every profile by name, in the order above (a name found twice: the first wins)."""
    found: dict[str, GameFile] = {}
    sources: list[tuple[Traversable, bool]] = [(folder, False) for folder in folders]
    sources.append((shipped_games() if shipped is None else shipped, True))
    for folder, is_shipped in sources:
        try:
            names = sorted(item.name for item in folder.iterdir())
        except OSError:  # no such folder, or not readable: nothing there
            continue
        for file_name in names:
            item = folder / file_name
            if file_name.endswith(".toml") and item.is_file():
                name = file_name.removesuffix(".toml")
                found.setdefault(name, GameFile(name, item, is_shipped))
    return found


def offer_games(config: Config, folders: Iterable[Path], shipped: Traversable | None = None
                ) -> Config:
    """`config` with the games found (`available_games`) as the settings menu's "Game"
    choices, each with its own name (a profile that cannot be read keeps its file's name:
    choosing it says why in the log)."""
    found = available_games(folders, shipped)
    names = []
    offered = []
    limits = []
    broken = []
    for name, game in found.items():
        try:
            profile = read_profile(game.where)
        except ProfileError as exc:
            # Said once here, at start; the menu lists it as broken, with its file and line.
            log.warning("%s (the settings menu lists %r as broken until the file is fixed)",
                        exc, name)
            offered.append(name)
            broken.append((name, file_and_line(str(exc), game.where)))
            continue
        if is_own_game(name, profile):
            continue  # the box's own game: the menu's first choice already
        offered.append(name)
        names.append((name, profile.name.en, profile.name.ja))
        limits.append((name, profile.min_players, profile.max_players))
    return replace(config, games=tuple(offered), game_names=tuple(names),
                   game_players=tuple(limits), broken_games=tuple(broken))


def file_and_line(message: str, where: Traversable) -> str:
    """Where a profile's error is, as the screen says it: the file's name and the line
    ("harvest.toml:21"), or only the name when the error has no line."""
    found = re.match(re.escape(str(where)) + r":(\d+):", message)
    return f"{where.name}:{found.group(1)}" if found else where.name


def error_place(message: str, name: str) -> str:
    """As `file_and_line`, for the error of a game named `name` (a name or a file): the
    file and line the message starts with, else `name` itself (a game not found)."""
    found = re.match(r"(.+?\.toml)(?::(\d+))?:", message)
    if found is None:
        return name
    return Path(found.group(1)).name + (f":{found.group(2)}" if found.group(2) else "")


def read_profile(where: Traversable, source: str | None = None) -> Profile:
    """Read and parse one profile file, or raise `ProfileError` naming it."""
    name = source or str(where)
    try:
        if isinstance(where, Path):  # a file of the user's: a FIFO, a device are refused
            data = read_regular(where, MAX_PROFILE_BYTES)
        else:  # shipped with erabox
            with where.open("rb") as handle:
                data = handle.read(MAX_PROFILE_BYTES + 1)
    except FileRefused as exc:
        raise ProfileError(f"{name}: cannot read the profile ({exc})") from None
    except OSError as exc:
        raise ProfileError(f"{name}: cannot read the profile ({exc.strerror or exc})") from None
    if len(data) > MAX_PROFILE_BYTES:
        raise ProfileError(f"{name}: more than {MAX_PROFILE_BYTES} bytes, not a profile")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ProfileError(f"{name}:{line}: not UTF-8 text; save the profile as UTF-8"
                           ) from None
    try:
        return _parse_game(text, name, where)
    except ProfileError:
        raise
    except Exception as exc:
        # A check that missed a case: still one clear line naming the file, so no profile
        # file, however broken, can stop the box.
        raise ProfileError(f"{name}: cannot be read as a profile ({type(exc).__name__}: "
                           f"{str(exc)[:120]})") from None


def _parse_game(text: str, name: str, where: Traversable) -> Profile:
    """The profile in `text` (the file `name`)."""
    # The id defaults to the file's name, made fit for one ("My game.toml" -> "my-game")
    stem = re.sub(r"[^a-z0-9_-]+", "-", Path(where.name).stem.lower()).strip("-_")[:32]
    return parse_profile(text, name, default_id=stem or "game",
                         base_dir=str(Path(str(where)).parent))


def missing_music(profile: Profile) -> list[str]:
    """The phase music files (the phases' and the eras' `music`, the phases' `track`) and
    the special rounds', events' and calls' own sound files of `profile` that cannot be
    read, each said in the log with the key and line naming it.
    The play goes on without them (as with a missing era music file: the screen marks it),
    the box's cry sounding instead of a missing own sound."""
    missing = []
    named = [(p.music.path, p.music.key) for p in profile.phases
             if p.music is not None and not p.music.box]  # the box's own: the config's
    if any(p.music is not None and not p.music.box for p in profile.phases):  # else the box's
        named += [(era.music, era.music_key) for era in profile.eras if era.music]  # own: below
    for path, key in named:
        if path in missing:
            continue
        if not _readable(path):
            why = "does not exist" if not os.path.lexists(path) else "cannot be read"
            log.warning("%s: the sound file %s %s; the phase plays without music", key,
                        path, why)
            missing.append(path)
    tracks = [(t.path, t.key) for t in [*(p.track for p in profile.phases),
                                        *(e.track for e in profile.eras)] if t is not None]
    missing += [path for path in missing_sounds(tracks, "the box sounds its own cues, and "
                                                "the phase plays without music")
                if path not in missing]
    return missing + [path for path in missing_sounds(profile.own_sounds())
                      if path not in missing]


def missing_sounds(files: Iterable[tuple[str, str]],
                   instead: str = "the box's cry sounds instead") -> list[str]:
    """Of a profile's own sound files, (path, "file:line: key"), those that cannot be read,
    each said once in the log with what plays `instead` (checked again, and decoded or
    opened, by the sound when the game is set up: `erabox.adapters.audio`)."""
    missing: list[str] = []
    for path, key in files:
        if path not in missing and not _readable(path):
            why = "does not exist" if not os.path.lexists(path) else "cannot be read"
            log.warning("%s: the sound file %s %s; %s", key, path, why, instead)
            missing.append(path)
    return missing


# An era's own music that cannot be read: its other own music, else the box's, stands in.
ERA_MUSIC_INSTEAD = "the era's other music plays instead (its own, else the box's)"


def _readable(path: str) -> bool:
    """A regular file (through links) the box may read: a FIFO would hang the mixer."""
    try:
        check_regular(path)
    except (OSError, FileRefused):
        return False
    return os.access(path, os.R_OK)


def load_game(game: str, folders: Iterable[Path], shipped: Traversable | None = None
              ) -> Profile:
    """The profile `game` names: a file (a path, or a name ending in .toml), else a name
    from `available_games`. Raises `ProfileError` naming what is wrong."""
    if "/" in game or game.endswith(".toml"):
        return read_profile(Path(game).expanduser())
    games = available_games(folders, shipped)
    if game not in games:
        known = ", ".join(games) or "none"
        raise ProfileError(f"no game named {game!r} (available: {known}; or give a .toml file)")
    return read_profile(games[game].where)


def is_own_game(game: str, profile: Profile) -> bool:
    """Whether `profile`, found for `game` (a name or a file), is the box's own game, Time of
    Empires (the settings menu's first "Game", its numbers the config's): the file of that
    name, or a profile of that id (a user's copy given by its path)."""
    return game == OWN_GAME or profile.id == OWN_GAME


def own_game_profile(game: str, folders: Iterable[Path], shipped: Traversable | None = None
                     ) -> Profile | None:
    """The round profile of the box's own game: `game` when it names it (`is_own_game`),
    else the one named `time-of-empires` found first (a copy beside the config wins over the
    shipped one). None when `game` names another game. A profile that cannot be read raises
    `ProfileError` (naming its file, line and key); its eras' own music files (the box's era
    music plays them: `Config.audio.game_eras`) that cannot be read are said in the log."""
    folders = list(folders)
    if game:
        found = load_game(game, folders, shipped)
        if not is_own_game(game, found):
            return None
    else:
        found = load_game(OWN_GAME, folders, shipped)
    missing_sounds([(file, key) for era in found.eras for file, key in (
        (era.music, era.music_key), (era.score, era.score_key)) if file], ERA_MUSIC_INSTEAD)
    return found


def own_rounds(own_game: str = "", shipped: Traversable | None = None) -> Profile:
    """Time of Empires' profile, as the one engine plays it: the file found at start
    (`Config.own_game`: a user's copy), "" the shipped one."""
    if own_game:
        return read_profile(Path(own_game))
    return read_profile((shipped or shipped_games()) / f"{OWN_GAME}.toml")
