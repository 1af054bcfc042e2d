"""`python -m device` is `erabox`."""

from .cli import main

raise SystemExit(main())
