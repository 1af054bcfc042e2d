"""The panel's frames: its size and the packed bytes every display backend compares and hands
between threads. Below `display.py` and `oled.py`, which both build on it."""

from __future__ import annotations

from PIL import Image

from device.core.config import DisplayConfig

WIDTH, HEIGHT = DisplayConfig.width, DisplayConfig.height  # the panel (one place: the config)


def frame_bytes(image: Image.Image) -> bytes:
    """The frame's pixels as packed bytes (rows of WIDTH/8 bytes, MSB = leftmost pixel).

    Used to compare frames and to hand a frame to another thread without sharing the caller's
    (mutable) image. Raises `ValueError` for anything but a panel-sized mode "1" image.
    """
    if not isinstance(image, Image.Image):
        raise ValueError(f"a display frame must be a PIL image, got {type(image).__name__}")
    if image.size != (WIDTH, HEIGHT) or image.mode != "1":
        raise ValueError(
            f"a display frame must be a {WIDTH}x{HEIGHT} mode '1' image, "
            f"got {image.size[0]}x{image.size[1]} mode {image.mode!r}"
        )
    return image.tobytes()


def frame_image(frame: bytes) -> Image.Image:
    """The image back from `frame_bytes`."""
    return Image.frombytes("1", (WIDTH, HEIGHT), frame)
