#!/bin/sh
# Install erabox as a system service on Raspberry Pi OS (or any Debian with systemd).
# Run it as `sudo make install` from a checkout; run it again to upgrade (every step is
# idempotent, and the user's /etc/erabox/erabox.toml is never overwritten).
#
# Steps:
#   1. apt-get installs what is missing (python3-venv, i2c-tools, alsa-utils; build tools only
#      where no lgpio wheel exists)
#   2. copies this tree to /opt/erabox (without .venv, .git and caches), owned by root
#   3. builds /opt/erabox/.venv with tools/bootstrap.sh and precompiles the bytecode (the
#      service sees /opt read-only)
#   4. creates the system user `erabox` with systemd-sysusers (groups gpio, i2c, audio) and
#      loads the ALSA and I2C core modules at boot (systemd/erabox.modules)
#   5. installs /etc/erabox/erabox.toml from erabox.example.toml if there is none yet
#   6. installs erabox.service, enables it and (re)starts it
#
# Usage: sh tools/install.sh [--dry-run] [--no-venv] [--list-packages]
#   --dry-run        print what would be done, change nothing (no root needed)
#   --no-venv        skip step 3 (staging a tree whose venv is built elsewhere; tests)
#   --list-packages  print the Debian packages this machine needs, one a line, and stop
# Environment:
#   ERABOX_ROOT=DIR  lay every file out under DIR instead of / and leave the running system
#                    alone: no apt-get, the user goes into DIR/etc/passwd
#                    (systemd-sysusers --root), the unit is enabled offline (systemctl --root),
#                    nothing is started. For tests and SD-card images.
#   PYTHON=python3   interpreter for the venv (3.11 or newer)
#   ERABOX_WHEELHOUSE=DIR  install the Python packages from DIR only, with no network (made
#                    by `make wheelhouse` on any machine with internet). Default: the checkout's
#                    wheelhouse/<machine>/ when it exists (e.g. wheelhouse/aarch64).
#   ERABOX_MACHINE=M with --list-packages: the packages for machine M (aarch64, armv7l, ...)
set -eu

root=${ERABOX_ROOT:-}
python=${PYTHON:-python3}
dry_run=no
build_venv=yes
list_packages=no

for arg in "$@"; do
    case $arg in
        --dry-run) dry_run=yes ;;
        --no-venv) build_venv=no ;;
        --list-packages) list_packages=yes ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

src=$(cd "$(dirname "$0")/.." && pwd)
prefix=/opt/erabox                 # where the box lives on the target system
dest=$root$prefix                  # where this run writes it
unit_dir=$root/etc/systemd/system
config=$root/etc/erabox/erabox.toml
# Files are read by the unprivileged service user: world-readable, root-owned, whatever the
# caller's umask.
umask 022

say() { printf '==> %s\n' "$*"; }
warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# Every change to the system goes through `run`, so --dry-run shows it instead.
run() {
    if [ "$dry_run" = yes ]; then
        printf '    would run: %s\n' "$*"
    else
        printf '    + %s\n' "$*"
        "$@"
    fi
}

on_live_system() { [ -z "$root" ]; }

# ---- 0. Preconditions ----------------------------------------------------------------------
if [ ! -f "$src/pyproject.toml" ] || [ ! -f "$src/systemd/erabox.service" ]; then
    die "run me from an erabox checkout (missing pyproject.toml or systemd/erabox.service in $src)"
fi
case $root in
    ''|/*) ;;
    *) die "ERABOX_ROOT must be an absolute path, got '$root'" ;;
esac

if on_live_system && [ "$list_packages" = no ]; then
    if [ "$dry_run" = no ] && [ "$(id -u)" != 0 ]; then
        die "needs root to install a system service: sudo make install"
    fi
    # shellcheck source=/dev/null  # the OS's own file, read for ID and ID_LIKE
    os_id=$(if . /etc/os-release 2>/dev/null; then echo "${ID:-} ${ID_LIKE:-}"; fi)
    case " $os_id " in
        *" debian "*|*" raspbian "*) ;;
        *) die "needs Raspberry Pi OS or another Debian (apt and systemd); this is '${os_id:-unknown}'" ;;
    esac
    [ -d /run/systemd/system ] || die "systemd is not running here, so the service cannot be installed"
    if ! grep -qa "Raspberry Pi" /proc/device-tree/model 2>/dev/null; then
        warn "this is not a Raspberry Pi: the box will run with whatever parts it finds"
    fi
fi

# ---- 1. Packages ---------------------------------------------------------------------------
# python3-venv: the venv (Pi OS forbids pip outside one, PEP 668). i2c-tools: i2cdetect, to find
# the OLED. alsa-utils: aplay -l / speaker-test, to choose and test the sound card.
# Never RPi.GPIO: its edge detection fails on Bookworm kernels and the Pi 5.
packages="python3 python3-venv i2c-tools alsa-utils"
# Runtime libraries that the binary wheels (pygame, Pillow, lgpio, sysv_ipc) link but do not
# bundle, found by reading their .so files (tools/wheelhouse.py lists them per machine). Minimal
# images (Pi OS Lite, Debian minbase) lack some, and a missing one fails only at import: without
# libglib2.0-0 pygame's mixer (its MIDI library links GLib) does not load and the service runs
# silent. tests/test_install.py checks that every library the installed wheels need is covered
# here (device/erabox/files/syslibs.py maps library names to packages); if one is missing all the same, the
# box names its package in the log and in `systemctl status erabox`.
packages="$packages libglib2.0-0 libx11-6 zlib1g libstdc++6 libgcc-s1 libc6"

# lgpio ships wheels for 64-bit ARM (manylinux_2_34) and 32-bit ARMv7 (linux_armv7l) for
# CPython 3.11/3.12; elsewhere (armv6l: Pi Zero W / Pi 1, Python 3.13 on Trixie) pip builds it
# from source, which needs SWIG and a compiler. Built with PYPI=1 its setup.py compiles the
# bundled C library in, so liblgpio-dev is not needed.
lgpio_from_source=no
machine=${ERABOX_MACHINE:-$(uname -m)}
python_version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null ||
                 true)
case $machine in
    aarch64)
        case $python_version in
            3.11|3.12) ;;
            *) lgpio_from_source=yes ;;
        esac ;;
    armv7l|armv6l)
        case $machine:$python_version in
            armv7l:3.11|armv7l:3.12) ;;
            *) lgpio_from_source=yes ;;
        esac
        # No PyPI wheels of pygame and Pillow for 32-bit ARM (tools/wheelhouse.py shows it): pip
        # takes them from piwheels, set up in Pi OS's /etc/pip.conf, and those wheels link the
        # system's SDL2 and image libraries. So 32-bit needs network at install time (or a
        # wheelhouse built on a 32-bit Pi with `pip wheel`); see hardware.md.
        packages="$packages libsdl2-2.0-0 libsdl2-mixer-2.0-0 libsdl2-image-2.0-0"
        packages="$packages libsdl2-ttf-2.0-0 libopenjp2-7 libtiff6" ;;
esac
if [ "$lgpio_from_source" = yes ]; then
    packages="$packages swig python3-dev gcc"
fi

if [ "$list_packages" = yes ]; then
    for package in $packages; do echo "$package"; done
    exit 0
fi

# The wheelhouse (`make wheelhouse`): Python wheels, and in its debs/ the Debian packages above
# with what they depend on, for an install with no network at all.
wheelhouse=${ERABOX_WHEELHOUSE:-}
if [ -z "$wheelhouse" ] && [ -d "$src/wheelhouse/$machine" ]; then
    wheelhouse=$src/wheelhouse/$machine
fi
if [ -n "$wheelhouse" ]; then
    [ -d "$wheelhouse" ] || die "ERABOX_WHEELHOUSE=$wheelhouse is not a directory"
fi
debs=${wheelhouse:+$wheelhouse/debs}

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]; }

# install_offline PACKAGE...: from the wheelhouse's debs/ with no network. The folder is a flat
# apt repository (debs/Packages, written by `make wheelhouse`); apt sees only it, through its
# own lists in a temporary folder, so it picks what the packages need as it would online. A
# dry run comes first: a package still missing stops the install before anything changed.
install_offline() {
    absent=""
    for package in "$@"; do
        grep -q "^$package " "$debs/packages.txt" || absent="$absent $package"
    done
    [ -z "$absent" ] || die "cannot install$absent with no network: not in $debs." \
        "Nothing was changed. Run \`make wheelhouse\` again on a machine with internet (it" \
        "fetches the packages this version of install.sh needs) and copy it over."
    if [ "$dry_run" = yes ]; then
        run apt-get install "$@" "(offline, from $debs)"
        return
    fi
    apt_dir=$(mktemp -d)
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/parts"
    echo "deb [trusted=yes] file:$(cd "$debs" && pwd) ./" > "$apt_dir/sources.list"
    # (mktemp's folder names have no spaces: the options are split on them)
    apt_opts="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=$apt_dir/parts"
    apt_opts="$apt_opts -o Dir::State::Lists=$apt_dir/lists -o Acquire::AllowInsecureRepositories=1"
    # shellcheck disable=SC2086  # word splitting of the options and package list is intended
    if ! apt-get $apt_opts -qq update > "$apt_dir/update.log" 2>&1 ||
            ! apt-get $apt_opts install -s --no-install-recommends "$@" > "$apt_dir/plan" 2>&1; then
        sed 's/^/    /' "$apt_dir/update.log" "$apt_dir/plan" |
            grep -E 'Depends|Unable|not installable|E: ' >&2 || true
        rm -rf "$apt_dir"
        die "cannot install $* from $debs with no network: apt names what is missing" \
            "above. Nothing was changed. Run \`make wheelhouse\` again on a machine with" \
            "internet (it fetches them with their dependencies) and copy it over."
    fi
    # shellcheck disable=SC2086
    run env DEBIAN_FRONTEND=noninteractive apt-get $apt_opts install -y -qq \
        --no-install-recommends "$@"
    rm -rf "$apt_dir"
}

missing=""
for package in $packages; do
    installed "$package" || missing="$missing $package"
done
if ! on_live_system; then
    say "packages: not touched under ERABOX_ROOT (the target needs:$packages)"
elif [ -z "$missing" ]; then
    say "packages: all present"
elif [ -n "$debs" ] && [ -f "$debs/packages.txt" ]; then
    say "packages: installing$missing offline from $debs"
    # shellcheck disable=SC2086  # word splitting of the package list is intended
    install_offline $missing
else
    say "packages: installing$missing"
    # A box with no network (game tables often have no Wi-Fi) may still have every package in
    # apt's cache: try to install even when the lists cannot be refreshed.
    if [ "$dry_run" = yes ]; then
        run apt-get update -qq
    elif ! run apt-get update -qq; then
        warn "apt-get update failed (no network?); installing from the package lists present"
    fi
    # shellcheck disable=SC2086  # word splitting of the package list is intended
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        $missing || die "cannot install$missing (no network, and not in apt's cache?)." \
        "Nothing else was changed. With no network: \`make wheelhouse\` on a machine with" \
        "internet fetches these packages too; copy the checkout with its wheelhouse/ over."
fi

# ---- 2. The code ---------------------------------------------------------------------------
copy_tree() {  # copy_tree FROM TO
    # Build the new tree beside the old one, carry the venv over (it is tied to $prefix, not to
    # the files), then swap: files deleted upstream disappear, nothing half-copied is left.
    from=$1 to=$2
    staging=$to.new
    rm -rf "$staging"
    mkdir -p "$staging"
    tar -C "$from" -cf - \
        --exclude=./.venv --exclude=./.git --exclude=./erabox.egg-info \
        --exclude=__pycache__ --exclude='*.pyc' --exclude=./.pytest_cache \
        --exclude=./.mypy_cache --exclude=./.ruff_cache --exclude=./.hypothesis \
        --exclude=./wheelhouse --exclude=./bench-results . |
        tar -C "$staging" --no-same-owner --no-same-permissions -xf -
    if [ -d "$to/.venv" ]; then
        mv "$to/.venv" "$staging/.venv"
    fi
    rm -rf "$to"
    mv "$staging" "$to"
}

if [ "$src" = "$dest" ]; then
    say "code: already running from $dest"
else
    say "code: $src -> $dest"
    run mkdir -p "$(dirname "$dest")"
    run copy_tree "$src" "$dest"
fi

# ---- 3. The venv ---------------------------------------------------------------------------
if [ "$build_venv" = no ]; then
    say "venv: skipped (--no-venv)"
else
    say "venv: $dest/.venv"
    if [ "$lgpio_from_source" = yes ]; then
        # Read by lgpio's setup.py: link its bundled C sources statically.
        export PYPI=1
    fi
    if [ -n "$wheelhouse" ]; then
        say "venv: offline, every Python package from $wheelhouse"
        # pip reads these, also for erabox's build backend (setuptools is in the wheelhouse).
        export PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheelhouse"
    fi
    # bootstrap.sh installs the project from the current directory.
    run sh -c 'cd "$1" && ERABOX_EXTRAS=pi sh tools/bootstrap.sh "$2" "$1/.venv"' bootstrap \
        "$dest" "$python"
    # The service sees /opt read-only, so Python could never cache its bytecode there: compile
    # it now instead of at every start (seconds on a Pi Zero 2 W).
    run "$dest/.venv/bin/python" -m compileall -q "$dest/device/erabox"
fi

# ---- 4. The user ---------------------------------------------------------------------------
say "user: erabox (groups gpio, i2c, audio)"
run install -D -m 0644 "$src/systemd/erabox.sysusers" "$root/etc/sysusers.d/erabox.conf"
if on_live_system; then
    run systemd-sysusers erabox.conf
else
    run systemd-sysusers --root="$root" erabox.conf
fi

# ---- 4b. Kernel modules --------------------------------------------------------------------
# The sandbox allows device classes (ALSA, I2C) that exist when the service starts: load their
# core modules at boot, and now, so a sound card or OLED that appears later is still allowed.
say "kernel modules: snd, i2c-dev at boot ($root/etc/modules-load.d/erabox.conf)"
run install -D -m 0644 "$src/systemd/erabox.modules" "$root/etc/modules-load.d/erabox.conf"
if on_live_system; then
    for module in snd i2c-dev; do
        run modprobe "$module" || warn "cannot load kernel module $module now (it loads at boot)"
    done
fi

# ---- 5. The config -------------------------------------------------------------------------
if [ -e "$config" ]; then
    say "config: keeping $config"
elif [ -f "$src/erabox.example.toml" ]; then
    say "config: $config (from erabox.example.toml)"
    run install -D -m 0644 "$src/erabox.example.toml" "$config"
else
    warn "no erabox.example.toml in $src: the box runs on its built-in defaults until" \
         "$config exists"
fi

# ---- 6. The service ------------------------------------------------------------------------
say "service: $unit_dir/erabox.service"
run install -D -m 0644 "$src/systemd/erabox.service" "$unit_dir/erabox.service"
if on_live_system; then
    run systemctl daemon-reload
    run systemctl enable erabox.service
    # restart, not start: after an upgrade the running box must pick up the new code. It saves
    # the game on SIGTERM and comes back paused where it was.
    run systemctl restart erabox.service
else
    run systemctl --root="$root" enable erabox.service
fi

# ---- Done ----------------------------------------------------------------------------------
if on_live_system && command -v raspi-config >/dev/null 2>&1; then
    # raspi-config's get_i2c prints 0 when the I2C bus is enabled.
    if [ "$(raspi-config nonint get_i2c 2>/dev/null || echo 1)" != 0 ]; then
        warn "I2C is off, so the OLED stays dark: sudo raspi-config nonint do_i2c 0, then reboot"
    fi
fi
if [ "$dry_run" = yes ]; then
    say "dry run: nothing was changed"
else
    say "done. The box runs as the service erabox:"
    echo "    logs:    journalctl -u erabox -f"
    echo "    status:  systemctl status erabox"
    echo "    config:  /etc/erabox/erabox.toml"
    echo "             (then: sudo systemctl restart erabox)"
fi
