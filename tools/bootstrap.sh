#!/bin/sh
# Create the project's virtual environment and install erabox into it (editable). ERABOX_EXTRAS
# names the extras: `test` (the default: the test tools, for `make test`), empty for the box
# alone (`make run`); on a Raspberry Pi the `pi` extra is always added. Pi OS forbids pip
# outside a venv (PEP 668). pip's own progress is shown: a first install downloads a while.
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

if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv"
    "$python" -m venv "$venv"
fi

# The test tools when unset; `make run` sets it empty (the box alone) and `sudo make install`
# to `pi`, so a Pi Zero does not carry mypy and numpy. On a Raspberry Pi `pi` (lgpio) is
# always added.
extras=${ERABOX_EXTRAS-test}
if [ -e /proc/device-tree/model ] && grep -qa "Raspberry Pi" /proc/device-tree/model; then
    case ",$extras," in *,pi,*) ;; ,,) extras=pi ;; *) extras="$extras,pi" ;; esac
fi
target=.
[ -z "$extras" ] || target=".[$extras]"
echo "installing erabox${extras:+[$extras]} into $venv (pip's progress follows)"
"$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar on -e "$target"
