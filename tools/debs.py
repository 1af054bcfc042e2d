"""The Debian packages tools/install.sh needs, downloaded for an offline `sudo make install`.

`make wheelhouse` calls `fetch(machine, dest)`: it reads the archive's package index for the
target (Debian 12 for arm64 and amd64, as 64-bit Raspberry Pi OS uses; Raspbian's archive for
32-bit Pi OS, armhf), takes the packages `install.sh --list-packages` names for that machine
plus everything they depend on (Pre-Depends and Depends, the first alternative of each, through
virtual packages), leaves out the Essential ones every Debian system has, and downloads the
.deb files into DEST, each checked against the index's SHA256. DEST/packages.txt lists them
("name version file"), DEST/Packages is their index: DEST is a flat apt repository.

install.sh then installs the ones the machine lacks from there, with no network; what it still
cannot install it names and stops before changing anything.

Standard library only (urllib, lzma): it runs on any machine with internet.
"""

from __future__ import annotations

import hashlib
import lzma
import re
import urllib.request
from dataclasses import dataclass
from pathlib import Path

# machine (uname -m) -> (Debian architecture, [(archive URL, suite)]); later suites win
ARCHIVES = {
    "aarch64": ("arm64", [("http://deb.debian.org/debian", "bookworm"),
                          ("http://deb.debian.org/debian", "bookworm-updates"),
                          ("http://deb.debian.org/debian-security", "bookworm-security")]),
    "x86_64": ("amd64", [("http://deb.debian.org/debian", "bookworm"),
                         ("http://deb.debian.org/debian", "bookworm-updates"),
                         ("http://deb.debian.org/debian-security", "bookworm-security")]),
    # 32-bit Raspberry Pi OS is built on Raspbian (ARMv6 code), not on Debian's armhf: its
    # own archive, as in its /etc/apt/sources.list
    "armv7l": ("armhf", [("http://raspbian.raspberrypi.com/raspbian", "bookworm")]),
}
ARCHIVES["armv6l"] = ARCHIVES["armv7l"]


@dataclass(frozen=True)
class Deb:
    name: str
    version: str
    url: str
    sha256: str
    size: int
    depends: tuple[tuple[str, ...], ...]  # groups of alternatives, names only
    provides: tuple[str, ...]
    essential: bool
    stanza: str = ""  # the index's own text for it


def _relations(text: str) -> tuple[tuple[str, ...], ...]:
    groups = []
    for group in text.split(","):
        names = [re.sub(r"[\s(\[].*$", "", alt.strip()).split(":")[0]
                 for alt in group.split("|")]
        groups.append(tuple(n for n in names if n))
    return tuple(g for g in groups if g)


def parse_index(text: str, base: str) -> dict[str, Deb]:
    """The packages of one `Packages` file: name -> Deb (the last stanza of a name wins)."""
    debs: dict[str, Deb] = {}
    for stanza in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = ""
        for line in stanza.splitlines():
            if line[:1] in (" ", "\t"):
                fields[key] += line
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Package" not in fields or "Filename" not in fields:
            continue
        depends = _relations(", ".join(fields[k] for k in ("Pre-Depends", "Depends")
                                       if k in fields))
        provides = tuple(g[0] for g in _relations(fields.get("Provides", "")))
        deb = Deb(fields["Package"], fields["Version"], f"{base}/{fields['Filename']}",
                  fields.get("SHA256", ""), int(fields.get("Size", "0")), depends, provides,
                  fields.get("Essential") == "yes", stanza.strip("\n"))
        debs[deb.name] = deb
    return debs


def closure(index: dict[str, Deb], provided: dict[str, str],
            wanted: list[str]) -> tuple[list[Deb], list[str]]:
    """The packages `wanted` need, with their dependencies, Essential ones left out (every
    Debian system has them); and the names that could not be found."""
    chosen: dict[str, Deb] = {}
    missing: list[str] = []
    todo: list[tuple[str, ...]] = [(name,) for name in wanted]
    while todo:
        group = todo.pop()
        name = next((n for n in group if n in index), None)
        if name is None:
            name = next((provided[n] for n in group if n in provided), None)
        if name is None:
            missing.append(" | ".join(group))
            continue
        deb = index[name]
        if deb.name in chosen or (deb.essential and deb.name not in wanted):
            continue
        chosen[deb.name] = deb
        todo.extend(deb.depends)
    return sorted(chosen.values(), key=lambda d: d.name), missing


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        data: bytes = response.read()
    return data


def load_index(machine: str) -> tuple[dict[str, Deb], dict[str, str]]:
    arch, archives = ARCHIVES[machine]
    index: dict[str, Deb] = {}
    provided: dict[str, str] = {}
    for base, suite in archives:
        text = lzma.decompress(_get(f"{base}/dists/{suite}/main/binary-{arch}/Packages.xz"))
        part = parse_index(text.decode("utf-8", "replace"), base)
        index.update(part)
    for deb in sorted(index.values(), key=lambda d: d.name):
        for virtual in deb.provides:
            provided.setdefault(virtual, deb.name)
    return index, provided


def fetch(machine: str, wanted: list[str], dest: Path) -> tuple[list[Deb], list[str]]:
    """Download what `wanted` needs into `dest` (kept when already there and intact)."""
    index, provided = load_index(machine)
    debs, missing = closure(index, provided, wanted)
    dest.mkdir(parents=True, exist_ok=True)
    for deb in debs:
        path = dest / deb.url.rsplit("/", 1)[-1]
        if not (path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == deb.sha256):
            data = _get(deb.url)
            if hashlib.sha256(data).hexdigest() != deb.sha256:
                raise OSError(f"{deb.url}: SHA256 does not match the archive's index")
            path.write_bytes(data)
    (dest / "packages.txt").write_text(
        "".join(f"{d.name} {d.version} {d.url.rsplit('/', 1)[-1]}\n" for d in debs))
    # The folder is a flat apt repository (install.sh: deb [trusted=yes] file:DEST ./)
    (dest / "Packages").write_text("".join(
        re.sub(r"(?m)^Filename: .*$", f"Filename: ./{d.url.rsplit('/', 1)[-1]}", d.stanza)
        + "\n\n" for d in debs))
    return debs, missing
