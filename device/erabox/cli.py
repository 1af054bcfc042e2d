"""Command line: `erabox run`, `erabox simulate`, `erabox bench`, `erabox selftest`.

Exit codes: 0 success, 1 a runtime failure, 2 bad usage, config or script (message on stderr
naming the file, line or key). `erabox selftest` exits 1 when a part is missing or NEXT or ERA
was never pressed (its last line names every problem), 0 only when all answered.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from erabox import __version__
from erabox.adapters.state_file import StateInUse
from erabox.core.config import Config, ConfigError
from erabox.core.profile import Profile, ProfileError
from erabox.core.script import ScriptError, ScriptLine
from erabox.files.config import load_config
from erabox.files.script import read_script

if TYPE_CHECKING:
    from erabox.run.frames import FrameWriter


def cmd_simulate(args: argparse.Namespace) -> int:
    from erabox.run.driver import json_lines
    from erabox.run.simulate import simulate

    config = load_config(args.config, game=args.game)  # Time of Empires' numbers: its profile
    script = read_script(args.script, sys.stdin.buffer) if args.script else []
    if config.game:
        return simulate_game(args, config, script)
    if args.players or args.seed is not None:
        raise ConfigError("--players and --seed go with --game (a game profile); Time of "
                          "Empires takes its players from the config")
    # The games the settings menu offers, as `erabox run` finds them: one chosen there is
    # played next, from its setup.
    from erabox.files.games import game_folders, load_game, offer_games

    folders = game_folders(config.source if config.source != "<defaults>" else None)
    config = offer_games(config, folders)
    simulate(config, script, args.until, json_lines(sys.stdout), frames(args, config),
             find_profile=lambda name: load_game(name, folders))
    sys.stdout.flush()
    return 0


def frames(args: argparse.Namespace, config: Config) -> FrameWriter | None:
    """`--frames DIR`: each distinct screen as a PNG (None: not asked for)."""
    if not args.frames:
        return None
    from erabox.run.frames import FrameWriter
    from erabox.ui.panel import Panel

    return FrameWriter(Path(args.frames), config.language, Panel.of(config.display))


def simulate_game(args: argparse.Namespace, config: Config, script: list[ScriptLine]) -> int:
    """`erabox simulate --game`: a game profile played from the script."""
    from erabox.run.driver import json_lines
    from erabox.run.simulate import simulate

    profile = game_profile(config.game, config)
    players = config.players
    if args.players:
        from erabox.core.config import PlayerNameError, player_name

        try:  # as in the config: a known colour, or a name of one's own given as name=Aiko
            players = tuple(player_name({"name": p.strip()[5:]} if p.strip().startswith(
                "name=") else p) for p in args.players.split(","))
        except PlayerNameError as exc:
            raise ConfigError(f"--players {args.players!r}: {exc} (here: name=...)") from None
        if len({p.casefold() for p in players}) != len(players):
            raise ConfigError(f"--players {args.players!r}: expected different players "
                              "separated by commas")
    if not profile.min_players <= len(players) <= profile.max_players:
        span = (str(profile.min_players) if profile.min_players == profile.max_players
                else f"{profile.min_players} to {profile.max_players}")
        raise ConfigError(f"{profile.source}: {profile.name.en} is for {span} players, "
                          f"not {len(players)} (give them with --players a,b,c)")
    # The players as given, and the box's "Points entry" (a profile's `[scoring] entry =
    # "setting"` follows it); the rest of Time of Empires' config is not the profile's.
    simulate(Config(players=players, points_entry=config.points_entry), script, args.until,
             json_lines(sys.stdout),
             frames(args, config), profile=profile, seed=args.seed or 0)
    sys.stdout.flush()
    return 0


def game_profile(game: str, config: Config) -> Profile:
    """The profile `--game` or the config's `game` names (`ProfileError` if unusable)."""
    from erabox.files.games import game_folders, load_game

    source = config.source if config.source != "<defaults>" else None
    return load_game(game, game_folders(source))


def cmd_run(args: argparse.Namespace) -> int:
    from erabox.run.app import run

    config = load_config(args.config, game=args.game)
    # --game: checked here (a game that cannot be played stops the command, exit 2); which
    # game plays otherwise, the menu's or the config's, is decided at start (app.run).
    profile = game_profile(config.game, config) if args.game and config.game else None
    return run(args, profile=profile, config=config)


def cmd_bench(args: argparse.Namespace) -> int:
    from erabox.benchmarks.bench import main as bench_main

    return bench_main(args)


def cmd_selftest(args: argparse.Namespace) -> int:
    from erabox.run.selftest import main as selftest_main

    return selftest_main(args)


def cmd_hall(args: argparse.Namespace) -> int:
    from erabox.run.hall_director import main as hall_main

    return hall_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="erabox", description="The soundtrack and timer box for Time of Empires.")
    parser.add_argument("--version", action="version", version=f"erabox {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="run the box (real parts, or simulated ones on a laptop)")
    run.add_argument("--config", metavar="FILE", help="TOML config (see erabox.example.toml)")
    run.add_argument("--display", default="auto", metavar="KIND",
                     help="auto (default), ssd1306, window, terminal, png:DIR, none")
    run.add_argument("--audio", default="auto", choices=["auto", "none"],
                     help="auto (default: pygame's mixer, silent if no device) or none")
    run.add_argument("--script", metavar="FILE", help="replay timed inputs in real time")
    run.add_argument("--events", metavar="FILE|-", help="write JSON-lines events here")
    run.add_argument("--game", metavar="NAME|FILE",
                     help="play a game profile instead of Time of Empires (docs/profiles.md)")
    run.set_defaults(func=cmd_run)

    sim = sub.add_parser("simulate", help="run the game core on a virtual clock")
    sim.add_argument("--config", metavar="FILE", help="TOML config")
    sim.add_argument("--script", metavar="FILE|-", help="timed inputs ('-' = stdin)")
    sim.add_argument("--until", type=float, metavar="SECONDS",
                     help="stop at this virtual time (default: 700 s after the last line)")
    sim.add_argument("--frames", metavar="DIR", help="also write every distinct screen as PNG")
    sim.add_argument("--game", metavar="NAME|FILE",
                     help="play a game profile instead (docs/profiles.md)")
    sim.add_argument("--players", metavar="A,B,..",
                     help="with --game: the players in seating order, colours or name=Aiko"
                          " (default: the config's)")
    sim.add_argument("--seed", type=int, metavar="N",
                     help="with --game: the draw of a random start player (default 0)")
    sim.set_defaults(func=cmd_simulate)

    bench = sub.add_parser("bench", help="timing, latency and footprint figures")
    bench.add_argument("--out", metavar="FILE", default="bench-results/bench.json",
                       help="where the JSON results go (default: bench-results/bench.json)")
    bench.add_argument("--quick", action="store_true", help="a shorter run")
    bench.add_argument("--only", choices=["output", "fair"], default=None,
                       help="only the output-onset, whole-game memory and wakeup figures "
                            "(output), or also the realistic naive-timer era (fair)")
    bench.add_argument("--soak", action="store_true",
                       help="the soak: hours of virtual play plus real play with random input")
    bench.add_argument("--soak-minutes", type=float, default=10.0, metavar="MIN",
                       help="real-play part of the soak (default 10)")
    bench.add_argument("--virtual-hours", type=float, default=8.0, metavar="H",
                       help="virtual-play part of the soak (default 8)")
    bench.set_defaults(func=cmd_bench)
    test = sub.add_parser("selftest", help="check the buttons, LED, screen and speaker one by one")
    test.add_argument("--config", metavar="FILE", help="TOML config")
    test.add_argument("--display", default="auto", metavar="KIND",
                      help="auto (default: the OLED if one answers), ssd1306, terminal, png:DIR,"
                           " none")
    test.add_argument("--audio", default="auto", choices=["auto", "none"],
                      help="auto (default: pygame's mixer) or none")
    test.add_argument("--seconds", type=float, default=60.0, metavar="S",
                      help="how long to watch the buttons at most (default 60)")
    test.add_argument("--pattern-seconds", type=float, default=1.5, metavar="S",
                      help="how long each test pattern and sound lasts (default 1.5)")
    test.set_defaults(func=cmd_selftest)
    hall = sub.add_parser("hall", help="direct a hall of boxes (docs/hall.md)")
    hall.add_argument("action", nargs="?", default="watch",
                      choices=["watch", "serve", "status", "start", "pause", "resume", "end"])
    hall.add_argument("--config", metavar="FILE", help="TOML config with a [hall] section")
    hall.add_argument("--lead", type=float, default=1.5, metavar="S",
                      help="a command's instant this far ahead (default 1.5 s)")
    hall.add_argument("--wait", type=float, default=0.0, metavar="S",
                      help="wait this long for every table to obey (exit 1 if one did not)")
    hall.set_defaults(func=cmd_hall)
    return parser


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands' own parsers, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _reject_unknown(command: argparse.ArgumentParser, unknown: list[str]) -> None:
    """Stop on arguments the subcommand does not know, with its own usage (not the top-level
    one) and the nearest option it does know, as in `erabox run --displya`."""
    known = [o for a in command._actions for o in a.option_strings if o.startswith("--")]
    words = []
    for word in unknown:
        close = difflib.get_close_matches(word.split("=")[0], known, n=1)
        words.append(f"{word} (did you mean {close[0]}?)" if close else word)
    command.error(f"unrecognized arguments: {' '.join(words)}")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `erabox` console script."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _reject_unknown(_commands(parser)[args.command], unknown)
    try:
        result: int = args.func(args)
        return result
    except (ConfigError, ProfileError, ScriptError, StateInUse) as exc:
        print(f"erabox: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
