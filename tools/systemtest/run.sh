#!/bin/sh
# `make system-test`: erabox on a real OS, as its users run it.
#
# Boots a fresh Debian 12 (Bookworm: systemd 252 and Python 3.11, the base of Raspberry Pi OS)
# under QEMU with no network and no apt cache, and inside it, from a clean clone of this
# repository's HEAD, runs the README's "On a Raspberry Pi" install steps word for word, with the
# wheelhouse copied into the checkout as the README says for a box with no network (a wheelhouse
# missing a package must stop install.sh before it changes anything); then presses the buttons
# through lgpio on a gpio-sim kernel chip under the installed, sandboxed unit (with an I2C stub
# that cannot take the OLED's writes), plays eras through the unit into the kernel's ALSA
# loopback card, kills it, resets the machine hard at random moments, feeds it a bad config and
# a late sound card (tools/systemtest/in_vm.sh has the steps). The recording is analysed here on
# the ALSA clock (tools/systemtest/analyse.py). Prints the figures; exits 1 if any check failed.
#
# The disk image (with the gpio-sim module built for its kernel) is built once (two mmdebstrap
# runs, 3-5 minutes) and cached, keyed by its inputs, in $ERABOX_SYSTEST_CACHE (default
# $XDG_CACHE_HOME/erabox/system-test, or ~/.cache/erabox/system-test), as is the x86_64 wheelhouse
# (wheels and Debian packages) the offline VM installs from; the folder is created when missing.
# Needs root (mmdebstrap, image files) and installs what it needs with apt-get (mmdebstrap,
# qemu-system-x86, e2fsprogs) when missing. QEMU emulates the CPU (TCG): on the machines this
# ran on, /dev/kvm existed but QEMU could not run a guest with it.
#
# Usage: sh tools/systemtest/run.sh [--arch amd64|aarch64] [--resets N] [--keep] [--cache-dir]
#   --arch A    the VM's machine: amd64 (default: 2 vCPUs, 2 GB) or aarch64 (on demand, not in
#               CI: a Pi Zero 2 W's shape, `-M virt -cpu cortex-a53 -smp 4 -m 512`, arm64
#               Bookworm, aarch64 wheels, no GPIO part; see below)
#   --resets N  hard resets (default 10; 3 on aarch64)
#   --keep      keep the shared folder (recording, logs)
#   --cache-dir  create the cache folder, print its path and stop (no root needed)
# During the eras the buttons are gpiozero mock pins driven by `erabox run --script` in a
# drop-in (scripted to the millisecond); the real button path (lgpio, gpio-sim) is tested before.
#
# aarch64: the same steps on an emulated Cortex-A53 with 4 cores and 512 MB, installing the
# aarch64 wheels and arm64 Debian packages. The image is built with qemu-user-static through
# binfmt_misc (mounted and registered here when missing), Debian's arm64 kernel booted directly
# (-kernel/-initrd, no firmware). No gpio-sim module is built for it (a kernel build root under
# user-mode emulation), so the buttons-on-lgpio and I2C-writes part runs on amd64 only. The
# figures of each finished run are kept in the cache (figures-MACHINE.txt); an aarch64 run
# prints its own as a ratio to the last amd64 run's (analyse.py --compare).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/tools/systemtest
# The cache: $ERABOX_SYSTEST_CACHE, else $XDG_CACHE_HOME/erabox/system-test, else
# ~/.cache/erabox/system-test. Created here, whatever exists of it (a machine that never ran the
# test has no ~/.cache at all).
cache_home=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}
cache=${ERABOX_SYSTEST_CACHE:-$cache_home/erabox/system-test}
python=${PYTHON_ANALYSE:-$repo/.venv/bin/python}
resets=""
arch=amd64
keep=no
cache_dir_only=no
timeout_s=${ERABOX_SYSTEST_TIMEOUT:-2400}
while [ $# -gt 0 ]; do
    case $1 in
        --resets) resets=$2; shift ;;
        --arch) arch=$2; shift ;;
        --keep) keep=yes ;;
        --cache-dir) cache_dir_only=yes ;;
        *) echo "system-test: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
case $arch in
    amd64|x86_64)
        arch=amd64 machine=x86_64 qemu=qemu-system-x86_64 qemu_pkg=qemu-system-x86
        qemu_machine="-cpu max -smp 2 -m 2048" console=ttyS0 slow=1 era_wait=115 image_prefix=image
        resets=${resets:-10} ;;
    aarch64|arm64)
        arch=arm64 machine=aarch64 qemu=qemu-system-aarch64 qemu_pkg=qemu-system-arm
        qemu_machine="-M virt -cpu cortex-a53 -smp 4 -m 512" console=ttyAMA0 slow=4 era_wait=180
        image_prefix=image-arm64 timeout_s=${ERABOX_SYSTEST_TIMEOUT:-6000}
        resets=${resets:-3} ;;
    *) echo "system-test: --arch $arch: amd64 or aarch64" >&2; exit 2 ;;
esac
say() { printf '== %s\n' "$*"; }
die() { printf 'system-test: %s\n' "$*" >&2; exit 1; }
now() { date +%s; }
t_start=$(now)
mkdir -p "$cache" 2>/dev/null ||
    die "cannot create the cache folder $cache (set ERABOX_SYSTEST_CACHE to a writable folder)"
if [ "$cache_dir_only" = yes ]; then echo "$cache"; exit 0; fi

[ "$(id -u)" = 0 ] || die "needs root (it builds a disk image with mmdebstrap): sudo make system-test"
need=""
command -v mmdebstrap >/dev/null || need="$need mmdebstrap"
command -v "$qemu" >/dev/null || need="$need $qemu_pkg"
command -v mkfs.ext4 >/dev/null || need="$need e2fsprogs"
if [ -n "$need" ]; then
    say "installing$need"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
# A foreign root (arm64 on an amd64 host): mmdebstrap runs its maintainer scripts through
# qemu-user-static, which the kernel finds through binfmt_misc
foreign_root() {
    command -v arch-test >/dev/null && arch-test "$arch" >/dev/null 2>&1 && return 0
    command -v qemu-aarch64-static >/dev/null && command -v arch-test >/dev/null || {
        say "installing qemu-user-static arch-test"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            qemu-user-static arch-test >/dev/null
    }
    [ -f /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        die "cannot mount binfmt_misc: $arch binaries cannot run here to build the image"
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
        cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
    arch-test "$arch" >/dev/null 2>&1 || die "arch-test $arch fails: cannot build an $arch root here"
}
[ -x "$python" ] || die "no analysis Python at $python (run it through make: make system-test)"

# ---- the image, cached by its inputs ---------------------------------------------------------
key=$( (cat "$here/build-image.sh" "$here/build-gpio-sim.sh" "$here/vm-boot.sh" \
        "$here/erabox-systemtest.service";
        ERABOX_MACHINE=$machine sh "$repo/tools/install.sh" --list-packages;
        [ "$arch" = amd64 ] || echo "$arch") | sha256sum | cut -c1-16)
image=$cache/$image_prefix-$key
if [ ! -f "$image/rootfs.img" ]; then
    say "building the $arch Bookworm image (cached in $image)"
    [ "$arch" = amd64 ] || foreign_root
    t=$(now)
    rm -rf "$image.tmp"
    log=$cache/build-$arch.log
    sh "$here/build-image.sh" "$image.tmp" "$arch" > "$log" 2>&1 ||
        { tail -20 "$log"; die "image build failed (log: $log)"; }
    mv "$image.tmp" "$image"
    echo "FIGURE image_build_s: $(( $(now) - t ))"
else
    say "image: $image (cached)"
fi

# ---- the wheelhouse the VM installs from (its stand-in for the package index) --------------
# (plus lgpio, which the `pi` extra brings on ARM only, for the buttons on the VM's GPIO chip)
# and the Debian packages install.sh needs, with their dependencies (tools/debs.py)
wkey=$( (cat "$repo/pyproject.toml" "$repo/tools/wheelhouse.py" "$repo/tools/debs.py"; echo lgpio
         ERABOX_MACHINE=$machine sh "$repo/tools/install.sh" --list-packages) |
       sha256sum | cut -c1-16)
wheels=$cache/wheels-$wkey
if [ ! -d "$wheels/$machine" ]; then
    say "wheelhouse for the VM ($machine, cp311)"
    rm -rf "$wheels/tmp-$machine"
    # README's own entry point (make wheelhouse), so what the README says is what is tested
    make -C "$repo" wheelhouse ARGS="--out $wheels/tmp-$machine --with lgpio $machine" ||
        die "wheelhouse failed"
    mv "$wheels/tmp-$machine/$machine" "$wheels/$machine"
    rmdir "$wheels/tmp-$machine"
fi

# ---- the shared folder: a clean clone, the steps, the driver --------------------------------
share=$(mktemp -d /tmp/erabox-systemtest.XXXXXX)
chmod 755 "$share"
cleanup() { [ "$keep" = yes ] || rm -rf "$share"; }
trap cleanup EXIT
commit=$(git -C "$repo" rev-parse HEAD)
git clone -q --bare "$repo" "$share/erabox.git"
git -C "$share/erabox.git" update-ref HEAD "$commit" 2>/dev/null || true
cp -r "$wheels/$machine" "$share/wheelhouse"
cp "$here/in_vm.sh" "$here/gpio_drive.py" "$share/"
printf 'resets_wanted=%s\nslow=%s\nera_wait=%s\n' "$resets" "$slow" "$era_wait" > "$share/settings"
echo install > "$share/phase"
# The README's own commands: the first ```sh block after "## On a Raspberry Pi", with the
# clone's address filled in.
awk '/^## On a Raspberry Pi/{on=1} on && /```sh/{inb=1; next} inb && /```/{exit} inb' \
    "$repo/README.md" | sed 's/^ *//' > "$share/readme-steps.raw"
[ -s "$share/readme-steps.raw" ] || die "no sh block under '## On a Raspberry Pi' in README.md"
# No network in the VM: as the README says for that case, the wheelhouse (Python wheels and the
# Debian packages) is copied into the checkout before `sudo make install`.
sed -e "s#<this repository>#/mnt/share/erabox.git#" \
    -e '/git clone/a mkdir -p wheelhouse \&\& cp -r /mnt/share/wheelhouse wheelhouse/'"$machine" \
    "$share/readme-steps.raw" > "$share/readme-steps.sh"
grep -q '^mkdir -p wheelhouse' "$share/readme-steps.sh" || die "no 'git clone' in the README steps"
say "commit $commit; README steps:"
sed 's/^/    /' "$share/readme-steps.sh"

# ---- boot it --------------------------------------------------------------------------------
say "booting the $arch VM (QEMU TCG, $qemu_machine, no network); console: $share/console.log"
t=$(now)
steal() { awk '/^cpu /{print $9}' /proc/stat; }  # this machine's CPU time taken by its host
steal0=$(steal)
set +e
# shellcheck disable=SC2086
timeout "$timeout_s" "$qemu" -accel tcg,thread=multi $qemu_machine \
    -kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
    -append "root=/dev/vda rw console=$console quiet panic=-1" \
    -drive "file=$image/rootfs.img,format=raw,if=virtio,snapshot=on" \
    -virtfs "local,path=$share,mount_tag=share,security_model=none,id=share" \
    -nic none -nographic -no-user-config -serial "file:$share/console.log" -monitor none \
    -display none
qemu_rc=$?
set -e
vm_s=$(( $(now) - t ))
[ "$qemu_rc" = 124 ] && echo "CHECK vm_finished: FAIL the VM did not finish within $timeout_s s" >> "$share/results.txt"

# ---- results --------------------------------------------------------------------------------
if [ -f "$share/era.raw" ]; then
    "$python" "$here/analyse.py" "$share/era.raw" "$share/era-events.txt" "$repo/sounds" \
        >> "$share/results.txt" || true
fi
if [ -f "$share/era-load.txt" ]; then
    "$python" "$here/analyse.py" --load "$share/era-load.txt" >> "$share/results.txt" || true
fi
echo "FIGURE vm_run_s: $vm_s (three boots + $resets hard resets, on this machine's TCG)" >> "$share/results.txt"
echo "FIGURE host_steal_s: $(( ($(steal) - steal0) / $(getconf CLK_TCK) )) (CPU time this machine's own host took from it during the run: the emulated CPUs stall meanwhile)" >> "$share/results.txt"
echo "FIGURE system_test_s: $(( $(now) - t_start ))" >> "$share/results.txt"
# Each finished run's figures are kept; an aarch64 run's are compared with the last amd64 run's
phase=$(cat "$share/phase")
if [ "$phase" = done ]; then
    { echo "# $arch, commit $commit, $(date -u +%Y-%m-%dT%H:%MZ)"; grep '^FIGURE' "$share/results.txt"; } \
        > "$cache/figures-$machine.txt"
fi
if [ "$arch" != amd64 ]; then
    if [ -f "$cache/figures-x86_64.txt" ]; then
        "$python" "$here/analyse.py" --compare "$share/results.txt" "$cache/figures-x86_64.txt" \
            >> "$share/results.txt" || true
    else
        echo "FIGURE vs_amd64: no amd64 figures in $cache (run make system-test first)" >> "$share/results.txt"
    fi
fi
say "results ($arch, commit $commit)"
grep -E '^(FIGURE|CHECK)' "$share/results.txt" || true
checks=$(grep -c '^CHECK' "$share/results.txt" || true)
failed=$(grep -c '^CHECK .*: FAIL' "$share/results.txt" || true)
if [ "$phase" != done ]; then
    echo "CHECK vm_completed: FAIL stopped in phase '$phase' (console: $share/console.log)"
    failed=$((failed + 1)); keep=yes
fi
if [ "$failed" != 0 ]; then
    keep=yes
    say "system test FAILED: $failed of $checks checks (logs kept in $share)"
    exit 1
fi
say "system test passed: $checks checks"
