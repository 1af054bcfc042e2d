"""Every system library the box's binary wheels link is installed by tools/install.sh.

A fresh Debian or Pi OS Lite lacks some of them (GLib: pygame's mixer then does not load and the
service runs silent). The wheels installed here are read for their linked libraries (DT_NEEDED of
every bundled .so, minus what the wheels bundle themselves); each must map to a Debian package
(erabox.files.syslibs) that `install.sh --list-packages` names. Removing a package from install.sh,
or a dependency bringing a new system library, fails this test. The same check runs on the
aarch64 wheels in `make wheelhouse`.
"""

from __future__ import annotations

import logging
import re
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from erabox.core.config import AudioConfig
from erabox.files.syslibs import SONAME_PACKAGES, install_hint, needed_libraries

REPO = Path(__file__).resolve().parent.parent
INSTALL = REPO / "tools" / "install.sh"


def runtime_distributions() -> list[metadata.Distribution]:
    """erabox's installed dependencies without the `test` extra (what `pip install .[pi]` has)."""
    seen: dict[str, metadata.Distribution] = {}
    todo = ["erabox"]
    while todo:
        name = re.split(r"[^A-Za-z0-9._-]", todo.pop(), maxsplit=1)[0].lower().replace("_", "-")
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # a marker excluded it on this machine (lgpio off the Pi)
        seen[name] = dist
        for requirement in dist.requires or []:
            if "extra ==" in requirement and "extra == \"pi\"" not in requirement:
                continue
            todo.append(requirement)
    return list(seen.values())


def shared_objects(dists: list[metadata.Distribution]) -> list[Path]:
    files = []
    for dist in dists:
        for file in dist.files or []:
            if re.search(r"\.so(\.|$)", file.name):
                files.append(Path(str(dist.locate_file(file))))
    return files


def install_packages() -> set[str]:
    out = subprocess.run(["sh", str(INSTALL), "--list-packages"], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_every_library_the_wheels_link_is_installed_by_install_sh() -> None:
    objects = shared_objects(runtime_distributions())
    names = {path.name.split(".cpython")[0] for path in objects}
    assert any(name.startswith("mixer") for name in names), "pygame's mixer is not installed here"
    bundled = {path.name for path in objects}
    needed: dict[str, str] = {}
    for path in objects:
        for library in needed_libraries(path.read_bytes()):
            needed.setdefault(library, path.name)
    from_system = {lib: by for lib, by in needed.items() if lib not in bundled}
    assert "libgthread-2.0.so.0" in from_system  # the one that made the service silent
    unknown = {lib: by for lib, by in from_system.items() if lib not in SONAME_PACKAGES}
    assert not unknown, f"libraries with no package in device/erabox/files/syslibs.py: {unknown}"
    packages = install_packages()
    missing = {lib: SONAME_PACKAGES[lib] for lib in from_system
               if SONAME_PACKAGES[lib] not in packages}
    assert not missing, f"install.sh does not install these libraries' packages: {missing}"


def test_needed_libraries_ignores_what_is_not_elf(tmp_path: Path) -> None:
    assert needed_libraries(b"#!/bin/sh\n") == []
    assert needed_libraries(b"") == []


MISSING_GLIB = ("mixer module not available (ImportError: libgthread-2.0.so.0: cannot open "
                "shared object file: No such file or directory)")


@pytest.mark.parametrize(("message", "hint"), [
    (MISSING_GLIB, "install libglib2.0-0"),
    ("libX11.so.6: cannot open shared object file", "install libx11-6"),
    ("libunknown.so.3: cannot open shared object file", None),
    ("ALSA: Couldn't open audio device", None),
])
def test_install_hint(message: str, hint: str | None) -> None:
    assert install_hint(message) == hint


def test_a_mixer_missing_a_library_names_the_package_in_problem_and_log(tmp_path: Path) -> None:
    from erabox.adapters.audio import Audio

    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    log = logging.getLogger("erabox.test.install_hint")
    log.propagate = False
    log.addHandler(Keep())

    def opener(config: AudioConfig) -> None:
        raise NotImplementedError(MISSING_GLIB)  # what pygame.mixer.init raises then

    audio = Audio(AudioConfig(), tmp_path, log=log, opener=opener, retry_s=3600)
    try:
        assert audio.problem is not None
        assert "install libglib2.0-0" in audio.problem
        assert any("install libglib2.0-0" in text for text in records)
    finally:
        audio.close()


# ---- the Debian packages of an offline install (tools/debs.py, `make wheelhouse`) -------------

INDEX = """\
Package: python3-venv
Version: 3.11.2-1+b1
Depends: python3.11-venv (>= 3.11.2-1~), python3 (= 3.11.2-1+b1)
Filename: pool/main/p/python3-defaults/python3-venv_3.11.2-1+b1_arm64.deb
Size: 1200
SHA256: aa

Package: python3.11-venv
Version: 3.11.2-6
Pre-Depends: libc6 (>= 2.36)
Depends: python3-pip-whl | python3-wheel-whl, mime-support:any
Filename: pool/main/p/python3.11/python3.11-venv_3.11.2-6_arm64.deb
Size: 5000
SHA256: bb

Package: python3
Version: 3.11.2-1+b1
Depends: libc6
Filename: pool/main/p/python3-defaults/python3_3.11.2-1+b1_arm64.deb
SHA256: cc

Package: python3-pip-whl
Version: 23.0.1
Filename: pool/main/p/python-pip/python3-pip-whl_23.0.1_all.deb
SHA256: dd

Package: media-types
Version: 10.0.0
Provides: mime-support
Depends: dpkg
Filename: pool/main/m/media-types/media-types_10.0.0_all.deb
SHA256: ee

Package: dpkg
Essential: yes
Version: 1.21.22
Filename: pool/main/d/dpkg/dpkg_1.21.22_arm64.deb
SHA256: ff

Package: libc6
Version: 2.36-9
Filename: pool/main/g/glibc/libc6_2.36-9_arm64.deb
SHA256: 11
"""


def load_debs() -> object:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("erabox_tools_debs", REPO / "tools" / "debs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_offline_packages_are_the_closure_of_what_install_sh_needs() -> None:
    debs: Any = load_debs()
    index = debs.parse_index(INDEX, "http://deb.debian.org/debian")
    provided = {"mime-support": "media-types"}
    chosen, missing = debs.closure(index, provided, ["python3-venv", "i2c-tools"])
    names = [deb.name for deb in chosen]
    # Depends and Pre-Depends, the first alternative, a virtual package through Provides;
    # dpkg is Essential (every Debian has it) and left out; i2c-tools is not in the index
    assert names == ["libc6", "media-types", "python3", "python3-pip-whl", "python3-venv",
                     "python3.11-venv"]
    assert missing == ["i2c-tools"]
    venv = index["python3-venv"]
    assert venv.url == ("http://deb.debian.org/debian/pool/main/p/python3-defaults/"
                        "python3-venv_3.11.2-1+b1_arm64.deb")
    assert (venv.version, venv.size, venv.sha256) == ("3.11.2-1+b1", 1200, "aa")
    assert index["python3.11-venv"].depends == (("libc6",), ("python3-pip-whl",
                                                 "python3-wheel-whl"), ("mime-support",))


def test_offline_packages_take_a_later_alternative_when_the_first_is_not_there() -> None:
    debs: Any = load_debs()
    index = debs.parse_index(INDEX.replace("Package: python3-pip-whl", "Package: other"), "u")
    chosen, missing = debs.closure(index, {}, ["python3.11-venv"])
    assert sorted(missing) == ["mime-support", "python3-pip-whl | python3-wheel-whl"]
    assert [deb.name for deb in chosen] == ["libc6", "python3.11-venv"]
