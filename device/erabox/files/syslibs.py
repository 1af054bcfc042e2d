"""Which Debian/Raspberry Pi OS package provides a shared library the box's wheels link.

The binary wheels (pygame, Pillow, lgpio, sysv_ipc) bundle most of their libraries but link a
few from the system. On a minimal image one can be missing, and the failure shows only when the
module is imported: pygame's mixer then reports ``libgthread-2.0.so.0: cannot open shared object
file`` and the box runs silent. `install_hint` turns such a message into the package to install,
so the screen and the log say what to do. tools/install.sh installs every package named here;
tests/test_install.py checks that every library the installed wheels need is in this table.
"""

from __future__ import annotations

import re

# soname -> Debian package (the same names on Raspberry Pi OS Bookworm, 64- and 32-bit).
SONAME_PACKAGES: dict[str, str] = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libX11.so.6": "libx11-6",
    "libz.so.1": "zlib1g",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
    "libc.so.6": "libc6",
    "libm.so.6": "libc6",
    "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
    "librt.so.1": "libc6",
    "libresolv.so.2": "libc6",
    "ld-linux-x86-64.so.2": "libc6",
    "ld-linux-aarch64.so.1": "libc6",
    "ld-linux-armhf.so.3": "libc6",
}

_MISSING = re.compile(r"([\w.+-]+\.so(?:\.[\w.]+)?): cannot open shared object file")


def install_hint(message: str) -> str | None:
    """`"install libglib2.0-0"` if `message` says a known library is missing, else None."""
    match = _MISSING.search(message)
    if match is None:
        return None
    package = SONAME_PACKAGES.get(match.group(1))
    return None if package is None else f"install {package}"


def needed_libraries(data: bytes) -> list[str]:
    """The DT_NEEDED entries (linked library names) of an ELF shared object, from its bytes.

    A small reader for 32- and 64-bit little-endian ELF, so checks of the wheels' libraries need
    no readelf: `make wheelhouse` runs it on wheels for other architectures (aarch64) as well.
    Returns [] for anything that is not such an ELF file or has no dynamic section.
    """
    import struct

    if data[:4] != b"\x7fELF" or data[5] != 1:  # not ELF, or big-endian
        return []
    wide = data[4] == 2
    if wide:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)

    def section(index: int) -> tuple[int, int, int, int]:
        """(type, offset, size, link) of section `index`."""
        at = shoff + index * shentsize
        if wide:
            kind, = struct.unpack_from("<I", data, at + 4)
            offset, size = struct.unpack_from("<QQ", data, at + 0x18)
            link, = struct.unpack_from("<I", data, at + 0x28)
        else:
            kind, = struct.unpack_from("<I", data, at + 4)
            offset, size, link = struct.unpack_from("<III", data, at + 0x10)
        return kind, offset, size, link

    sht_dynamic, dt_needed = 6, 1
    names: list[str] = []
    for index in range(shnum):
        kind, offset, size, link = section(index)
        if kind != sht_dynamic:
            continue
        _, strtab, _, _ = section(link)
        entry = 16 if wide else 8
        for at in range(offset, offset + size, entry):
            tag, value = struct.unpack_from("<qQ" if wide else "<iI", data, at)
            if tag == 0:
                break
            if tag == dt_needed:
                end = data.index(b"\0", strtab + value)
                names.append(data[strtab + value:end].decode())
    return names
