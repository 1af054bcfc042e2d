#!/bin/sh
# Build the Debian 12 (Bookworm) disk image that `make system-test` boots: a fresh minimal
# system like Raspberry Pi OS Lite (systemd 252, Python 3.11, sudo, git, make), plus Debian's
# kernel and initramfs for QEMU. The packages tools/install.sh installs are NOT installed, and
# apt keeps neither a package cache nor package lists: the offline VM installs them from the
# wheelhouse alone, as a Pi with no network does (`make wheelhouse` fetches them).
#
# Usage: sh tools/systemtest/build-image.sh OUT_DIR [ARCH]
#   ARCH: the Debian architecture, amd64 (default) or arm64. An arm64 root is built on any host
#   with qemu-user-static registered in binfmt_misc (run.sh sees to it): mmdebstrap runs the
#   packages' maintainer scripts through it. The arm64 image boots QEMU's `virt` machine
#   (virtio over PCI and MMIO) and has no gpio-sim module: building it there means a kernel
#   build root under user-mode emulation (unpacking linux-source alone is long), so the arm64
#   run skips the GPIO part (the amd64 run covers lgpio on gpio-sim).
# The initramfs holds only what finds the root disk (virtio, ext4): Debian's default (most
# modules, 36 MB) took QEMU 9-12 s to load again at every hard reset, before the kernel ran.
# It is set before the kernel is installed (essential hooks), so the kernel's own postinst
# builds the small one, once: building the default under user-mode emulation (arm64) took
# longer than 17 minutes.
# The gpio-sim module (Debian's kernel lacks it) is built for the image's kernel and installed in
# it (build-gpio-sim.sh, about a minute more).
# Writes OUT_DIR/rootfs.img (ext4, raw), OUT_DIR/vmlinuz, OUT_DIR/initrd.img and
# OUT_DIR/gpio-sim.txt (the versions the module was built from). Needs root and
# mmdebstrap, e2fsprogs (mkfs.ext4 -d). Takes a minute or two with a package mirror nearby.
set -eu
out=${1:?usage: build-image.sh OUT_DIR [ARCH]}
arch=${2:-amd64}
case $arch in
    amd64) modules="virtio_pci\nvirtio_blk\next4\ncrc32c_generic\n" ;;
    arm64) modules="virtio_pci\nvirtio_mmio\nvirtio_blk\next4\ncrc32c_generic\n" ;;
    *) echo "build-image.sh: architecture $arch: amd64 or arm64" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d "$out/build.XXXXXX")
trap 'rm -rf "$work"' EXIT

include="systemd,systemd-sysv,udev,kmod,linux-image-$arch,initramfs-tools,sudo,git,make"
include="$include,python3,procps,ca-certificates"

nice mmdebstrap --variant=minbase --architectures="$arch" --include="$include" \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"' \
    --essential-hook='echo MODULES=list > "$1/etc/initramfs-tools/conf.d/erabox-systemtest"' \
    --essential-hook="printf '$modules' > \"\$1/usr/share/initramfs-tools/modules.d/erabox-systemtest\"" \
    --customize-hook='echo erabox-vm > "$1/etc/hostname"' \
    --customize-hook='chroot "$1" passwd -d root' \
    --customize-hook="cp '$here/vm-boot.sh' \"\$1/usr/local/sbin/erabox-systemtest-boot\"" \
    --customize-hook='chmod 755 "$1/usr/local/sbin/erabox-systemtest-boot"' \
    --customize-hook="cp '$here/erabox-systemtest.service' \"\$1/etc/systemd/system/\"" \
    --customize-hook='chroot "$1" systemctl enable erabox-systemtest.service' \
    --customize-hook='mkdir -p "$1/mnt/share"' \
    --customize-hook='printf "/dev/vda / ext4 defaults 0 1\n" > "$1/etc/fstab"' \
    bookworm "$work/rootfs"

# The GPIO simulator for the buttons' test (build-gpio-sim.sh), against this image's kernel;
# modprobe finds it under updates/.
kver=$(ls "$work/rootfs/lib/modules")
if [ "$arch" = amd64 ]; then
    kpkg=$(chroot "$work/rootfs" dpkg-query -W -f='${Version}' "linux-image-$kver")
    sh "$here/build-gpio-sim.sh" "$kver" "$work/gpio-sim" "$kpkg"
    mkdir -p "$work/rootfs/lib/modules/$kver/updates/erabox-systemtest"
    cp "$work"/gpio-sim/*.ko "$work/rootfs/lib/modules/$kver/updates/erabox-systemtest/"
    cp "$work/gpio-sim/build.txt" "$out/gpio-sim.txt"
    chroot "$work/rootfs" depmod -a "$kver"
else
    echo "no gpio-sim module for $arch ($kver)" > "$out/gpio-sim.txt"
fi

cp "$work"/rootfs/boot/vmlinuz-* "$out/vmlinuz"
cp "$work"/rootfs/boot/initrd.img-* "$out/initrd.img"
chmod 644 "$out/vmlinuz" "$out/initrd.img"
rm -f "$out/rootfs.img"
mkfs.ext4 -q -L erabox-root -d "$work/rootfs" "$out/rootfs.img" 3G
echo "image: $out/rootfs.img"
