#!/bin/sh
# Create the project's virtual environment and install erabox into it (editable, with the test
# tools; on a Raspberry Pi also the `pi` extra). Pi OS forbids pip outside a venv (PEP 668).
set -eu
python=${1:-python3}
venv=${2:-.venv}

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "erabox needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1)." >&2
    echo "Install it (Pi OS Bookworm ships 3.11) or run: make PYTHON=python3.12 ..." >&2
    exit 1
fi
if ! "$python" -m venv --help >/dev/null 2>&1 || ! "$python" -c 'import ensurepip' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing python3-venv (needed to create .venv)"
        apt-get update -qq && apt-get install -y -qq python3-venv
    else
        echo "Python's venv module is missing: sudo apt-get install python3-venv" >&2
        exit 1
    fi
fi

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true

# The test tools by default; `sudo make install` sets ERABOX_EXTRAS=pi so a Pi Zero does not
# carry mypy and numpy. On a Raspberry Pi the `pi` extra (lgpio) is always added.
extras=${ERABOX_EXTRAS:-test}
if [ -e /proc/device-tree/model ] && grep -qa "Raspberry Pi" /proc/device-tree/model; then
    case ",$extras," in *,pi,*) ;; *) extras="$extras,pi" ;; esac
fi
echo "installing erabox[$extras] into $venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[$extras]"
