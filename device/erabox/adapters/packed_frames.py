"""The panel's frames: the packed bytes every display backend compares and hands between
threads. Below `display.py` and `oled.py`, which both build on it.

A panel is 128 pixels wide (`DisplayConfig.width`) and as high as the config says (`[display]
height`, one of `PANEL_HEIGHTS`); a backend opened for one size refuses frames of another.
"""

from __future__ import annotations

from PIL import Image

from erabox.core.config import PANEL_HEIGHTS, DisplayConfig


def frame_bytes(image: Image.Image, size: tuple[int, int] | None = None) -> bytes:
    """The frame's pixels as packed bytes (rows of width/8 bytes, MSB = leftmost pixel).

    Used to compare frames and to hand a frame to another thread without sharing the caller's
    (mutable) image. Raises `ValueError` for anything but a mode "1" image of `size` (None:
    any panel size there are layouts for, 128x64 or 128x32).
    """
    if not isinstance(image, Image.Image):
        raise ValueError(f"a display frame must be a PIL image, got {type(image).__name__}")
    if size is None:
        fits = image.width == DisplayConfig.width and image.height in PANEL_HEIGHTS
        wanted = " or ".join(f"{DisplayConfig.width}x{h}" for h in PANEL_HEIGHTS)
    else:
        fits = image.size == size
        wanted = f"{size[0]}x{size[1]}"
    if not fits or image.mode != "1":
        raise ValueError(
            f"a display frame must be a {wanted} mode '1' image, "
            f"got {image.size[0]}x{image.size[1]} mode {image.mode!r}"
        )
    return image.tobytes()


def frame_image(frame: bytes, width: int = DisplayConfig.width) -> Image.Image:
    """The image back from `frame_bytes` (its height follows from the length)."""
    return Image.frombytes("1", (width, len(frame) * 8 // width), frame)
