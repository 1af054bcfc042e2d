"""Regenerate docs/screens/: every screen in English and Japanese, for a 128x64 panel and (in
docs/screens/128x32/) a 128x32 one (`make gallery`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from erabox.ui.gallery import write_galleries  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Write the gallery (default `docs/screens/`) and say how many files were written."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    args = parser.parse_args(argv)
    written = write_galleries(args.out)
    print(f"wrote {len(written)} files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
