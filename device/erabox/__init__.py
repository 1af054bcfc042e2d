"""erabox: the soundtrack and timer box for Time of Empires."""

from pathlib import Path

__version__ = "0.1.0"

#: The project's own sounds (absolute, so the box works from any working directory): package
#: data, installed with the package (in the repository, device/erabox/sounds links to sounds/).
SOUNDS_DIR = Path(__file__).resolve().parent / "sounds"
