"""The command line's own errors: a mistyped option names the subcommand it was given to."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from erabox import cli


def usage_error(*args: str) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
        cli.main(list(args))
    assert stop.value.code == 2
    return err.getvalue()


def test_a_mistyped_option_gets_the_subcommands_usage_and_a_suggestion() -> None:
    err = usage_error("run", "--displya", "terminal")
    assert err.startswith("usage: erabox run ")
    assert "erabox run: error: unrecognized arguments: --displya (did you mean --display?)" \
        in err
    assert "terminal" in err  # what argparse could not place is named too


@pytest.mark.parametrize("command", ["run", "simulate", "selftest", "bench"])
def test_every_subcommand_reports_its_own_unknown_arguments(command: str) -> None:
    err = usage_error(command, "--no-such-option")
    assert err.startswith(f"usage: erabox {command} ")
    assert f"erabox {command}: error: unrecognized arguments: --no-such-option" in err


def test_an_unknown_command_still_gets_the_top_level_usage() -> None:
    err = usage_error("runn")
    assert err.startswith("usage: erabox [-h]") and "invalid choice: 'runn'" in err


def test_run_reads_the_config_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`erabox run` reads its config once and hands it on: a file changed between two reads
    could start the box with one config and its game from another."""
    from erabox.files import config as config_file
    from erabox.run import app

    conf = tmp_path / "erabox.toml"
    conf.write_text('language = "ja"\n')
    reads: list[object] = []
    real = config_file.load_config

    def counted(path: object, **kw: object) -> object:
        reads.append(path)
        return real(path, **kw)  # type: ignore[arg-type]

    seen: list[object] = []
    monkeypatch.setattr(cli, "load_config", counted)
    monkeypatch.setattr(app, "load_config", counted)
    monkeypatch.setattr(app, "run", lambda args, **kw: seen.append(kw["config"]) or 0)
    assert cli.main(["run", "--config", str(conf)]) == 0
    assert len(reads) == 1
    assert getattr(seen[0], "language", None) == "ja"
