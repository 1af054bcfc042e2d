"""Reading a script file (the parsing itself is pure: `erabox.core.script`)."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from erabox.adapters.files import FileRefused, read_regular
from erabox.core.script import ScriptError, ScriptLine, parse_script

MAX_SCRIPT_BYTES = 16 * 1024 * 1024  # a game's script is a few kB; refuse to read a disk


def decode_script(data: bytes, source: str) -> str:
    """The script's text, or `ScriptError` naming the line that is not UTF-8."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ScriptError(f"{source}:{line}: not UTF-8 text (byte {exc.start + 1} is "
                          f"0x{data[exc.start]:02x}); save the script as UTF-8") from None


def read_script(name: str, stdin: BinaryIO | None = None) -> list[ScriptLine]:
    """Read and parse a whole script file ('-' = `stdin`), or raise `ScriptError`."""
    if name == "-" and stdin is not None:
        return parse_script(decode_script(stdin.read(MAX_SCRIPT_BYTES + 1), "<stdin>"),
                            "<stdin>")
    try:
        data = read_regular(Path(name), MAX_SCRIPT_BYTES)  # a FIFO, a device: refused at once
    except FileNotFoundError as exc:
        raise ScriptError(f"{name}: cannot read the script ({exc.strerror or exc})") from None
    except FileRefused as exc:
        raise ScriptError(f"{name}: cannot read the script ({exc})") from None
    if len(data) > MAX_SCRIPT_BYTES:
        raise ScriptError(f"{name}: more than {MAX_SCRIPT_BYTES} bytes, not a script")
    return parse_script(decode_script(data, name), name)
