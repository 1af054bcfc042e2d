"""Finding and reading the config file (the parsing itself is pure: `erabox.core.config`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from erabox.core.config import Config, ConfigError, parse_config

SYSTEM_CONFIG = Path("/etc/erabox/erabox.toml")


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


def load_config(path: str | None, environ: Mapping[str, str] | None = None) -> Config:
    """The config from `path`, else the first existing candidate, else the defaults.

    An explicit path (or $ERABOX_CONFIG) that does not exist is an error; so is any file that
    exists but does not parse. Raises `ConfigError` with the file named.
    """
    env = os.environ if environ is None else environ
    if path is None:
        candidates = config_candidates(env)
        if env.get("ERABOX_CONFIG"):
            path = str(candidates[0])
        else:
            existing = [c for c in candidates if c.is_file()]
            if not existing:
                return Config()
            path = str(existing[0])
    file = Path(path).expanduser()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot read it ({exc})") from None
    return parse_config(text, source=str(file), base_dir=str(file.resolve().parent))
