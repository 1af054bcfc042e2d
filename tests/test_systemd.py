"""The Pi service, its installer and the hardware guide, checked with the real tools.

- `systemd-analyze verify` on the unit as `tools/install.sh` lays it out in a staged root, with
  nothing tolerated in its output, and `systemd-analyze security --offline` for the sandbox.
- `tools/install.sh` staged under ERABOX_ROOT: the files it writes, its idempotence, and that it
  never reaches for the running system (apt-get, systemctl, user tools are trapped by shims).
- The sound-card wait used as ExecStartPre, on a fake /dev/snd.
- MemoryDenyWriteExecute=: the box's libraries run under the kernel's equivalent guard.
- The wiring data behind hardware.md and docs/wiring.png against the config's default pins.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from types import ModuleType

import pytest

from erabox.core.config import ButtonsConfig, DisplayConfig

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "erabox.service"
INSTALL = REPO / "tools" / "install.sh"
WAIT_FOR_SOUND = REPO / "systemd" / "wait-for-sound.sh"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
HOST_UNIT_DIRS = [Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")]
MAX_EXPOSURE = 3.5

needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed (package systemd)"
)


def unit_settings(text: str) -> dict[str, list[str]]:
    """`Key=value` lines of a unit file; systemd allows a key several times, so lists."""
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def exec_start_binary() -> str:
    return unit_settings(UNIT.read_text())["ExecStart"][0].split()[0]


# ---- tools/install.sh, staged ------------------------------------------------------------------

# Commands that would change the running system. Under ERABOX_ROOT the installer may only use
# them offline (`--root=`); any other call is logged as forbidden and fails.
TRAPPED_COMMANDS = ("apt-get", "apt", "systemctl", "systemd-sysusers", "useradd", "usermod",
                    "groupadd", "raspi-config", "modprobe")


def make_shims(directory: Path, log: Path) -> dict[str, str]:
    """A PATH that traps TRAPPED_COMMANDS; returns the environment to run the installer with."""
    directory.mkdir()
    for name in TRAPPED_COMMANDS:
        real = shutil.which(name) or ""
        shim = directory / name
        shim.write_text(textwrap.dedent(f"""\
            #!/bin/sh
            for arg in "$@"; do
                case $arg in
                    --root=*) echo "offline {name} $*" >> "{log}"; exec "{real}" "$@" ;;
                esac
            done
            echo "FORBIDDEN {name} $*" >> "{log}"
            exit 97
            """))
        shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{directory}:{env['PATH']}"
    env.pop("ERABOX_ROOT", None)
    return env


def run_install(root: Path | None, env: dict[str, str], *args: str,
                timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(env)
    if root is not None:
        env["ERABOX_ROOT"] = str(root)
    return subprocess.run(["sh", str(INSTALL), *args], env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


needs_offline_tools = pytest.mark.skipif(
    not (shutil.which("systemctl") and shutil.which("systemd-sysusers")),
    reason="systemctl and systemd-sysusers are needed to stage the install (package systemd)",
)


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """One staged install (no venv): (root, shim log, environment)."""
    if not (shutil.which("systemctl") and shutil.which("systemd-sysusers")):
        pytest.skip("systemctl and systemd-sysusers are needed to stage the install")
    base = tmp_path_factory.mktemp("install")
    log = base / "calls.log"
    env = make_shims(base / "shims", log)
    root = base / "root"
    root.mkdir()
    result = run_install(root, env, "--no-venv")
    assert result.returncode == 0, result.stdout + result.stderr
    return root, log, env


@needs_offline_tools
def test_install_lays_out_the_box_without_touching_the_system(
    staged: tuple[Path, Path, dict[str, str]],
) -> None:
    root, log, _ = staged
    calls = log.read_text() if log.exists() else ""
    assert "FORBIDDEN" not in calls, calls
    assert "offline systemctl --root=" in calls and "offline systemd-sysusers --root=" in calls

    box = root / "opt" / "erabox"
    for wanted in ("pyproject.toml", "Makefile", "tools/bootstrap.sh", "device/erabox/cli.py",
                   "device/erabox/core/model.py", "systemd/erabox.service",
                   "systemd/wait-for-sound.sh"):
        assert (box / wanted).is_file(), wanted
    # Development leftovers stay behind; the venv is built on the target.
    for unwanted in (".venv", ".git", "erabox.egg-info"):
        assert not (box / unwanted).exists(), unwanted
    assert not list(box.rglob("__pycache__"))

    unit = root / "etc" / "systemd" / "system" / "erabox.service"
    assert unit.read_text() == UNIT.read_text()
    assert unit.stat().st_mode & 0o777 == 0o644
    wants = root / "etc/systemd/system/multi-user.target.wants/erabox.service"
    assert wants.is_symlink() and os.readlink(wants) == "/etc/systemd/system/erabox.service"

    # The device classes the sandbox allows exist at boot, whatever is plugged in later.
    modules = (root / "etc/modules-load.d/erabox.conf").read_text().split("\n")
    allowed = unit_settings(UNIT.read_text())["DeviceAllow"]
    core_module = {"char-alsa rw": "snd", "char-i2c rw": "i2c-dev"}
    for allow, module in core_module.items():
        assert allow in allowed and module in modules, (allow, module)

    config = root / "etc" / "erabox" / "erabox.toml"
    assert config.read_text() == (REPO / "erabox.example.toml").read_text()
    assert config.stat().st_mode & 0o777 == 0o644

    passwd = [line.split(":") for line in (root / "etc/passwd").read_text().splitlines()]
    erabox = [entry for entry in passwd if entry[0] == "erabox"]
    assert len(erabox) == 1
    assert erabox[0][5] == "/var/lib/erabox"
    assert erabox[0][6].endswith("nologin")
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (root / "etc/group").read_text().splitlines()}
    for group in ("gpio", "i2c", "audio"):
        assert "erabox" in groups[group], group


@needs_offline_tools
def test_install_again_keeps_the_users_config_and_venv(
    tmp_path: Path, staged: tuple[Path, Path, dict[str, str]],
) -> None:
    _, _, env = staged
    root = tmp_path / "root"
    root.mkdir()
    assert run_install(root, env, "--no-venv").returncode == 0
    config = root / "etc" / "erabox" / "erabox.toml"
    config.write_text('language = "ja"\n')
    box = root / "opt" / "erabox"
    (box / "stale.py").write_text("# removed upstream\n")
    (box / ".venv").mkdir()
    (box / ".venv" / "marker").write_text("built on the Pi\n")

    again = run_install(root, env, "--no-venv")

    assert again.returncode == 0, again.stdout + again.stderr
    assert "keeping" in again.stdout
    assert config.read_text() == 'language = "ja"\n'
    assert not (box / "stale.py").exists()
    assert (box / ".venv" / "marker").read_text() == "built on the Pi\n"
    assert not (root / "opt" / "erabox.new").exists()
    passwd = (root / "etc/passwd").read_text().splitlines()
    assert [line.split(":")[0] for line in passwd].count("erabox") == 1


def test_install_dry_run_changes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    env = make_shims(tmp_path / "shims", log)
    root = tmp_path / "root"
    root.mkdir()

    result = run_install(root, env, "--dry-run")

    assert result.returncode == 0, result.stderr
    assert list(root.iterdir()) == []
    assert not log.exists()
    planned = result.stdout
    for step in ("copy_tree", "bootstrap.sh", "compileall", "systemd-sysusers",
                 "erabox.service", "enable erabox.service"):
        assert step in planned, step
    assert "nothing was changed" in planned


def test_install_rejects_bad_invocations(tmp_path: Path) -> None:
    env = make_shims(tmp_path / "shims", tmp_path / "calls.log")
    unknown = run_install(tmp_path, env, "--frobnicate")
    assert unknown.returncode == 2 and "unknown option '--frobnicate'" in unknown.stderr
    relative = run_install(Path("relative/root"), env, "--dry-run")
    assert relative.returncode == 1 and "absolute path" in relative.stderr
    assert not (tmp_path / "calls.log").exists()


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"),
                    reason="running as root without setpriv to drop privileges")
def test_install_on_the_live_system_needs_root() -> None:
    # Outside pytest's private tmp tree: the unprivileged user must reach the shims and log.
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        base.chmod(0o755)
        log = base / "calls.log"
        env = make_shims(base / "shims", log)
        log.touch()
        log.chmod(0o666)
        # A copy the unprivileged user can read: the checkout itself may sit in a folder only
        # its owner can enter (a `mktemp -d` clone is mode 0700).
        tree = base / "checkout"
        for part in ("tools/install.sh", "pyproject.toml", "systemd/erabox.service"):
            (tree / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / part, tree / part)
        for folder in (tree, tree / "tools", tree / "systemd"):
            folder.chmod(0o755)
        script = tree / "tools" / "install.sh"
        command = ["sh", str(script)]
        if os.geteuid() == 0:
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60,
                                check=False, cwd=base)
        assert result.returncode == 1
        assert "sudo make install" in result.stderr
        assert log.read_text() == ""


def test_scripts_are_valid_posix_shell() -> None:
    for script in (INSTALL, WAIT_FOR_SOUND):
        result = subprocess.run(["sh", "-n", str(script)], capture_output=True, text=True,
                                check=False)
        assert result.returncode == 0, f"{script.name}: {result.stderr}"
        if shutil.which("shellcheck"):
            lint = subprocess.run(["shellcheck", "--shell=sh", str(script)],
                                  capture_output=True, text=True, check=False)
            assert lint.returncode == 0, lint.stdout


# ---- systemd-analyze ---------------------------------------------------------------------------

def verify(root: Path, unit: Path) -> subprocess.CompletedProcess[str]:
    assert SYSTEMD_ANALYZE is not None
    return subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", "--generators=no", f"--root={root}", str(unit)],
        capture_output=True, text=True, timeout=60, check=False,
    )


@pytest.fixture(scope="module")
def verify_root(staged: tuple[Path, Path, dict[str, str]]) -> Path:
    """The staged install plus what verify needs to resolve everything inside it: the host's
    stock units (sound.target, multi-user.target, ...) and an executable where the venv's
    `erabox` will be."""
    root = staged[0]
    host_units = next((d for d in HOST_UNIT_DIRS if (d / "sound.target").exists()), None)
    if host_units is None:
        pytest.skip("no systemd unit directory with sound.target on this machine")
    shutil.copytree(host_units, root / "usr/lib/systemd/system", symlinks=True,
                    dirs_exist_ok=True)
    binary = root / exec_start_binary().lstrip("/")
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    return root


@needs_systemd_analyze
@needs_offline_tools
def test_unit_verifies_cleanly_in_the_installed_layout(verify_root: Path) -> None:
    unit = verify_root / "etc/systemd/system/erabox.service"
    result = verify(verify_root, unit)
    # Nothing tolerated: no unknown directive, no bad value, no missing unit or executable.
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_systemd_analyze
@needs_offline_tools
def test_verify_would_catch_a_broken_unit(verify_root: Path, tmp_path: Path) -> None:
    # The negative control for the test above: the same root, one bad line, one missing binary.
    unit_dir = verify_root / "etc/systemd/system"
    broken = unit_dir / "erabox-broken.service"
    text = UNIT.read_text().replace("Restart=always", "Restart=sometimes")
    broken.write_text(text.replace(exec_start_binary(), "/opt/erabox/.venv/bin/missing"))
    try:
        result = verify(verify_root, broken)
    finally:
        broken.unlink()
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "sometimes" in output
    assert "/opt/erabox/.venv/bin/missing" in output


def security(unit: Path, *extra: str) -> tuple[int, float, str]:
    """(exit code, overall exposure, output) of an offline security review."""
    assert SYSTEMD_ANALYZE is not None
    result = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=true", *extra, str(unit)],
                            capture_output=True, text=True, timeout=60, check=False)
    output = result.stdout + result.stderr
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", output)
    assert match, output
    return result.returncode, float(match.group(1)), output


@needs_systemd_analyze
def test_sandbox_exposure_is_at_most_3_5(tmp_path: Path) -> None:
    unit = tmp_path / "erabox.service"
    shutil.copy(UNIT, unit)
    # --threshold is in tenths: systemd exits non-zero when the exposure is above it.
    code, exposure, output = security(unit, f"--threshold={int(MAX_EXPOSURE * 10)}")
    assert code == 0 and exposure <= MAX_EXPOSURE, output


@needs_systemd_analyze
def test_exposure_check_fails_an_unhardened_unit(tmp_path: Path) -> None:
    # Same service without its sandbox: the review must rate it worse than the limit.
    settings = unit_settings(UNIT.read_text())
    bare = tmp_path / "erabox.service"
    bare.write_text(f"[Service]\nUser=erabox\nExecStart={settings['ExecStart'][0]}\n")
    code, exposure, _ = security(bare, f"--threshold={int(MAX_EXPOSURE * 10)}")
    assert exposure > MAX_EXPOSURE and code != 0


def test_unit_runs_the_daemon_as_run_md_describes() -> None:
    settings = unit_settings(UNIT.read_text())
    command = settings["ExecStart"][0].split()
    assert command[1] == "run"
    # Every flag the unit passes must exist in the real command line parser.
    help_text = subprocess.run([sys.executable, "-m", "erabox", "run", "--help"],
                               capture_output=True, text=True, timeout=60, check=True).stdout
    for flag in (word for word in command if word.startswith("--")):
        assert flag in help_text, flag
    environment = dict(value.split("=", 1) for value in settings["Environment"])
    assert environment["ERABOX_STATE"].startswith("%S/" + settings["StateDirectory"][0] + "/")
    assert environment["LG_WD"] == "%t/" + settings["RuntimeDirectory"][0]
    assert settings["SupplementaryGroups"][0].split() == ["gpio", "i2c", "audio"]
    # SDL's audio thread may take nice -20 (its "time critical" level) below the box's own
    assert int(settings["LimitNICE"][0]) <= -20 < int(settings["Nice"][0])
    assert settings["SystemCallFilter"][-1] == "setpriority"  # after the ~@resources that bars it


# ---- the ExecStartPre sound-card wait ----------------------------------------------------------

def wait_for_sound(snd_dir: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, ERABOX_SND_DIR=str(snd_dir))
    return subprocess.Popen(["sh", str(WAIT_FOR_SOUND), *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_sound_wait_returns_at_once_when_a_playback_device_exists(tmp_path: Path) -> None:
    (tmp_path / "controlC0").touch()
    (tmp_path / "pcmC0D0p").touch()
    started = time.monotonic()
    out, _ = wait_for_sound(tmp_path, "30").communicate(timeout=20)
    assert time.monotonic() - started < 10
    assert out == ""


def test_sound_wait_picks_up_a_card_that_appears_later(tmp_path: Path) -> None:
    process = wait_for_sound(tmp_path, "60")
    assert process.poll() is None  # nothing there yet: it must be waiting
    (tmp_path / "pcmC1D0p").touch()  # the USB card arrives
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 0 and out == ""


def test_sound_wait_gives_up_after_its_bound(tmp_path: Path) -> None:
    (tmp_path / "pcmC0D0c").touch()  # a capture-only device is no use to the box
    started = time.monotonic()
    process = wait_for_sound(tmp_path, "1")
    out, _ = process.communicate(timeout=30)
    elapsed = time.monotonic() - started
    assert process.returncode == 0
    assert 0.9 <= elapsed < 15
    assert "no ALSA playback device after 1s" in out


def test_sound_wait_never_fails_the_start(tmp_path: Path) -> None:
    process = wait_for_sound(tmp_path, "soon")
    _, err = process.communicate(timeout=30)
    assert process.returncode == 0 and "whole number" in err


# ---- MemoryDenyWriteExecute= -------------------------------------------------------------------

MDWE_WORKLOAD = r"""
import ctypes, mmap, os, sys
PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
    print("UNSUPPORTED", os.strerror(ctypes.get_errno()))
    sys.exit(0)
try:  # the guard is on: writable+executable memory must now be refused
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    sys.exit("W+X mapping was allowed: the guard is not active")
except OSError:
    pass
os.environ["SDL_AUDIODRIVER"] = "disk"
os.environ["SDL_DISKAUDIOFILE"] = sys.argv[1]
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import numpy, pygame
pygame.mixer.init(44100, -16, 2, 512)
t = numpy.arange(4410) / 44100.0
wave = (numpy.sin(2 * numpy.pi * 440 * t) * 12000).astype(numpy.int16)
channel = pygame.sndarray.make_sound(numpy.column_stack([wave, wave])).play()
from PIL import Image, ImageDraw, ImageFont
image = Image.new("1", (128, 64))
ImageDraw.Draw(image).text((0, 0), "Era II 6:42", font=ImageFont.load_default(size=20), fill=1)
assert image.getbbox() is not None
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
button = Button(17, pin_factory=MockFactory())
button.pin.drive_low()
assert button.is_pressed
callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(lambda x: x + 1)
assert callback(41) == 42  # libffi closures without W+X memory
import adafruit_ssd1306, erabox.run.app, erabox.cli  # noqa: F401
while channel.get_busy():
    pygame.time.wait(10)
pygame.mixer.quit()
print("OK")
"""


def test_the_box_runs_without_writable_executable_memory(tmp_path: Path) -> None:
    """MemoryDenyWriteExecute=yes is only safe if nothing the box loads needs W+X memory.
    PR_SET_MDWE (Linux 6.3+) is the kernel's form of the same rule: run the box's libraries
    under it, doing real work (mixing a tone, rendering text, a gpiozero button, a ctypes
    callback, the app's own modules)."""
    recording = tmp_path / "mixed.raw"
    result = subprocess.run([sys.executable, "-c", MDWE_WORKLOAD, str(recording)],
                            cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    if result.stdout.startswith("UNSUPPORTED"):
        pytest.skip(f"kernel without PR_SET_MDWE (needs Linux 6.3+): {result.stdout.strip()}")
    assert result.returncode == 0 and result.stdout.strip().endswith("OK"), (
        result.stdout + result.stderr)
    assert recording.stat().st_size > 0  # the mixer really ran under the guard


# ---- wiring: tools/wiring.py, hardware.md, docs/wiring.png ------------------------------------

def load_wiring() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wiring", REPO / "tools" / "wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["wiring"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_header_map_is_the_raspberry_pi_40_pin_header() -> None:
    wiring = load_wiring()
    header: dict[int, str] = wiring.HEADER
    assert sorted(header) == list(range(1, 41))
    assert {p for p, n in header.items() if n == "GND"} == {6, 9, 14, 20, 25, 30, 34, 39}
    assert {p for p, n in header.items() if n == "5V"} == {2, 4}
    assert {p for p, n in header.items() if n == "3V3"} == {1, 17}
    gpios = sorted(wiring.bcm_of(p) for p in header if wiring.bcm_of(p) is not None)
    assert gpios == list(range(28))


def test_wiring_matches_the_default_config() -> None:
    wiring = load_wiring()
    by_role = {(c.part, c.terminal): wiring.bcm_of(c.pin) for c in wiring.CONNECTIONS}
    buttons = ButtonsConfig()
    assert by_role[("NEXT button", "leg 1")] == buttons.next_pin
    assert by_role[("ERA button", "leg 1")] == buttons.era_pin
    assert by_role[("VOL+ button", "leg 1")] == buttons.vol_up_pin
    assert by_role[("VOL- button", "leg 1")] == buttons.vol_down_pin
    assert by_role[("cue LED", "anode via 330 ohm")] == buttons.led_pin
    assert DisplayConfig().i2c_bus == 1  # the header's SDA/SCL below are bus 1
    assert (by_role[("OLED", "SDA")], by_role[("OLED", "SCL")]) == (2, 3)
    # The MAX98357A overlays fix the I2S pins: BCLK 18, LRCLK 19, DATA 21.
    assert [by_role[("MAX98357A", t)] for t in ("BCLK", "LRC", "DIN")] == [18, 19, 21]
    grounds = [c for c in wiring.CONNECTIONS if c.terminal in ("GND", "cathode", "leg 2")]
    assert grounds and all(wiring.HEADER[c.pin] == "GND" for c in grounds)


def test_hardware_guide_carries_the_generated_wiring_table() -> None:
    guide = (REPO / "hardware.md").read_text()
    match = re.search(r"<!-- wiring-table:[^>]*-->\n(.*?)\n<!-- end wiring-table -->", guide,
                      re.S)
    assert match, "hardware.md lost its wiring-table markers"
    assert match.group(1) == load_wiring().markdown_table(), (
        "hardware.md is out of date: paste `python tools/wiring.py --table`")
    assert "docs/wiring.png" in guide


def test_wiring_picture_is_up_to_date(tmp_path: Path) -> None:
    from PIL import Image, ImageChops

    wiring = load_wiring()
    committed = Image.open(REPO / "docs" / "wiring.png")
    fresh_path = tmp_path / "wiring.png"
    assert wiring.main(["--out", str(fresh_path)]) == 0
    fresh = Image.open(fresh_path)
    assert fresh.size == committed.size
    if committed.info.get("Renderer") != wiring.renderer_id():
        pytest.skip(f"docs/wiring.png was drawn by {committed.info.get('Renderer')}, this is "
                    f"{wiring.renderer_id()}: text rasterises differently")
    difference = ImageChops.difference(fresh.convert("RGB"), committed.convert("RGB"))
    assert difference.getbbox() is None, "docs/wiring.png is stale: run tools/wiring.py"


# ---- the guides' install steps -------------------------------------------------------------

def test_guides_install_git_and_make_first_and_call_the_selftest_where_it_is() -> None:
    """Pi OS Lite has neither git nor make; and `sudo make install` puts no `erabox` on PATH,
    so the self-test is called by its path in the installed venv."""
    prefix = re.search(r"^prefix=(\S+)", INSTALL.read_text(), re.M)
    assert prefix, "tools/install.sh lost its prefix"
    installed = f"{prefix.group(1)}/.venv/bin/erabox selftest"
    for guide in ("README.md", "hardware.md"):
        text = (REPO / guide).read_text()
        clone = text.index("git clone ")
        assert "apt-get install -y git make" in text[:clone], guide
        for match in re.finditer(r"\S*erabox selftest", text):
            word = match.group(0).lstrip("`(")
            line = text[text.rfind("\n", 0, match.start()) + 1:text.find("\n", match.end())]
            if line.startswith("erabox selftest ["):  # the command's synopsis
                continue
            assert word == installed, f"{guide}: {line.strip()!r}"
