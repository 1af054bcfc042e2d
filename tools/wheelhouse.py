"""`make wheelhouse`: every Python package a Raspberry Pi needs, downloaded for the Pi's Python.

Run on any machine with internet (the architecture does not matter). For each target machine
(default aarch64 and armv7l, CPython 3.11 as on Pi OS Bookworm) it downloads binary wheels only
into wheelhouse/<machine>/, evaluating the project's markers for that machine (`pi` extra
included), plus the build backend (setuptools) so `sudo make install` builds erabox itself
offline, and the Debian packages tools/install.sh installs, with what they depend on, into
wheelhouse/<machine>/debs/ (tools/debs.py: Debian 12's archive for 64-bit Pi OS, Raspbian's for
32-bit). Copy the checkout with its wheelhouse/ to the Pi: install.sh then installs from it with
no network at all.

It also checks, per machine:
- every dependency resolves to a wheel (no source build on the Pi); what does not is listed;
- every system library the wheels link maps to a package that tools/install.sh installs.
Exit status 1 when aarch64 (the recommended 64-bit Pi OS) fails either check. On armv7l (32-bit
Pi OS, e.g. a Pi Zero 2 W with the 32-bit image) PyPI has no wheels for pygame, Pillow and lgpio:
they are reported, and install.sh builds or fetches them there (hardware.md).

Usage: make wheelhouse [ARGS="[--out DIR] [--with REQ ...] [--dry-run] [MACHINE ...]"]
  (or any Python 3.11+ with pip: python3 tools/wheelhouse.py ...; it needs nothing installed)
  machines: aarch64 armv7l x86_64. --with adds a requirement for every machine (the system test's
  x86_64 VM takes `--with lgpio`: the `pi` extra brings lgpio on ARM only). --dry-run prints
  what would be fetched (requirements, pip's command, Debian packages) and fetches nothing.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "device"))  # the erabox package, installed or not

from erabox.files.syslibs import SONAME_PACKAGES, needed_libraries  # noqa: E402

sys.path.insert(0, str(REPO / "tools"))
import debs  # noqa: E402

PYTHON_VERSION = "3.11"  # Pi OS Bookworm
GLIBC_MINORS = (17, 27, 28, 31, 34, 35, 36)  # manylinux tags Bookworm's glibc 2.36 accepts
BUILD = ["setuptools>=77", "wheel"]  # pyproject's build backend, for an offline `pip install .`

# pip evaluates environment markers for the machine it runs on; pretend to be the target.
PIP_AS = """
import platform, runpy, sys
machine = sys.argv.pop(1)
platform.machine = lambda: machine
sys.argv[0] = "pip"
runpy.run_module("pip", run_name="__main__")
"""


def requirements() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"]) + list(project["optional-dependencies"]["pi"])


def platforms(machine: str) -> list[str]:
    tags = [f"manylinux_2_{minor}_{machine}" for minor in GLIBC_MINORS]
    return [*tags, f"manylinux2014_{machine}", f"linux_{machine}"]


def download_command(machine: str, reqs: list[str], dest: Path) -> list[str]:
    cmd = [sys.executable, "-c", PIP_AS, machine, "download", "--quiet",
           "--disable-pip-version-check", "--only-binary=:all:",
           "--python-version", PYTHON_VERSION, "--implementation", "cp",
           "--abi", "cp311", "--abi", "abi3", "--abi", "none", "-d", str(dest)]
    for tag in platforms(machine):
        cmd += ["--platform", tag]
    return cmd + reqs


def download(machine: str, reqs: list[str], dest: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(download_command(machine, reqs, dest), capture_output=True, text=True)


def dry_run(machine: str, out: Path, extra: list[str], with_debs: bool) -> bool:
    """What `build` would fetch for `machine`, fetching nothing."""
    reqs = requirements() + BUILD + extra
    print(f"== {machine}: cp{PYTHON_VERSION.replace('.', '')} wheels into {out / machine} "
          "(dry run: nothing fetched)")
    print("  pip " + shlex.join(download_command(machine, reqs, out / machine)[4:]))
    if with_debs:
        print(f"  Debian packages: {' '.join(install_packages(machine))}")
    return True


def install_packages(machine: str) -> list[str]:
    out = subprocess.run(["sh", str(REPO / "tools" / "install.sh"), "--list-packages"],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "ERABOX_MACHINE": machine}).stdout
    return out.split()


def library_problems(dest: Path, machine: str) -> list[str]:
    """System libraries the wheels in `dest` link that install.sh would not install."""
    bundled: set[str] = set()
    needed: dict[str, str] = {}
    for wheel in sorted(dest.glob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                base = name.rsplit("/", 1)[-1]
                if ".so" not in base:
                    continue
                bundled.add(base)
                for lib in needed_libraries(zf.read(name)):
                    needed.setdefault(lib, wheel.name)
    packages = set(install_packages(machine))
    problems = []
    for lib, wheel in sorted(needed.items()):
        if lib in bundled:
            continue
        package = SONAME_PACKAGES.get(lib)
        if package is None:
            problems.append(f"{lib} (linked by {wheel}) has no package in "
                            "device/erabox/files/syslibs.py")
        elif package not in packages:
            problems.append(f"{lib} (linked by {wheel}): install.sh does not install {package}")
        else:
            print(f"  {lib:24} from {package}")
    return problems


def fetch_debs(machine: str, dest: Path) -> bool:
    """install.sh's Debian packages for `machine`, with their dependencies, into dest/debs."""
    wanted = install_packages(machine)
    try:
        got, missing = debs.fetch(machine, wanted, dest / "debs")
    except OSError as exc:
        print(f"  DEBIAN PACKAGES for {machine}: {exc}")
        return False
    size_kib = sum(d.size for d in got) // 1024
    print(f"  {len(got)} Debian packages, {size_kib} KiB, for: {' '.join(wanted)}")
    for name in missing:
        print(f"  NOT IN THE ARCHIVE for {machine}: {name}")
    return not missing


def build(machine: str, out: Path, extra: list[str], with_debs: bool = True) -> bool:
    dest = out / machine
    dest.mkdir(parents=True, exist_ok=True)
    reqs = requirements() + BUILD + extra
    print(f"== {machine}: cp{PYTHON_VERSION.replace('.', '')} wheels into {dest}")
    no_wheel = []
    if download(machine, reqs, dest).returncode != 0:
        # find which requirements have no wheel, and still fetch all the others
        for req in reqs:
            if download(machine, [req], dest).returncode != 0:
                no_wheel.append(req.split(";")[0])
    wheels = sorted(p.name for p in dest.glob("*.whl"))
    size_kib = sum(p.stat().st_size for p in dest.glob("*.whl")) // 1024
    print(f"  {len(wheels)} wheels, {size_kib} KiB")
    for name in wheels:
        if not name.endswith("-none-any.whl"):
            print(f"  binary: {name}")
    problems = library_problems(dest, machine)
    for req in no_wheel:
        print(f"  NO WHEEL for {machine}: {req} (pip would build it from source)")
    for problem in problems:
        print(f"  LIBRARY: {problem}")
    ok = not no_wheel and not problems
    if with_debs:
        ok = fetch_debs(machine, dest) and ok
    print(f"  {machine}: {'every dependency is in the wheelhouse' if ok else 'INCOMPLETE'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "wheelhouse")
    parser.add_argument("--with", dest="extra", action="append", default=[], metavar="REQ",
                        help="one more requirement for every machine (repeatable)")
    parser.add_argument("--no-debs", action="store_true",
                        help="Python wheels only, not the Debian packages")
    parser.add_argument("--dry-run", action="store_true",
                        help="say what would be fetched, fetch nothing")
    parser.add_argument("machines", nargs="*", default=["aarch64", "armv7l"])
    args = parser.parse_args()
    step = dry_run if args.dry_run else build
    results = {machine: step(machine, args.out, args.extra, not args.no_debs)
               for machine in args.machines}
    strict = [m for m in results if m != "armv7l"]
    if not all(results[m] for m in strict):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
