"""`python -m erabox` is the `erabox` command."""

from .cli import main

raise SystemExit(main())
