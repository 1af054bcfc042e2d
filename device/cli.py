"""Command line: `erabox run`, `erabox simulate`, `erabox bench`."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("erabox: not wired yet", file=sys.stderr)
    return 1
