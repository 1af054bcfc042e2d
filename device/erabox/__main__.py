"""`python -m erabox` is the `erabox` command."""

from .launch import main

raise SystemExit(main())
