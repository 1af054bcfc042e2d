#!/bin/sh
# Build the kernel's GPIO simulator (gpio-sim) as an out-of-tree module for the system-test VM.
#
# Debian 12's kernel has CONFIG_GPIO_SIM (and CONFIG_GPIO_MOCKUP) unset, but the character
# device API the Pi's buttons use (CONFIG_GPIO_CDEV) built in: with gpio-sim loaded, the VM gets
# a real gpiochip whose lines lgpio opens exactly as on a Pi, and whose inputs the test drives
# through configfs and sysfs. Built from Debian's own kernel source (linux-source-6.1) against the
# headers of the image's kernel (linux-headers-KVER), in a throw-away Bookworm build root, so the
# image itself stays a minimal system. irq_sim (the interrupt simulator gpio-sim uses for edge
# events) is built too when the kernel does not have it built in (CONFIG_IRQ_SIM).
#
# The source is the kernel package's own Debian version (VERSION, the image's linux-image-KVER
# version) where the mirror still has it. A mirror that has moved linux-source-6.1 on to a new
# Debian revision before the kernel's binary packages (seen: linux-source 6.1.192-3 beside
# linux-headers 6.1.192-2) gives the newest source instead, which must then be the same
# upstream release (6.1.192): gpio-sim.c comes from it, the module is built against the
# image's headers and its version magic checked.
#
# Usage: sh tools/systemtest/build-gpio-sim.sh KVER OUT_DIR [VERSION]
# Writes OUT_DIR/gpio-sim.ko (and OUT_DIR/irq-sim.ko when needed) and OUT_DIR/build.txt (the
# versions). Needs root and mmdebstrap; about a minute, most of it unpacking the source.
set -eu
kver=${1:?usage: build-gpio-sim.sh KVER OUT_DIR [VERSION]}
out=${2:?usage: build-gpio-sim.sh KVER OUT_DIR [VERSION]}
version=${3:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d "$out/build.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs inside the build root: unpack the three source files, build, check the module's
# version magic is the image kernel's.
cat > "$work/build-in-root.sh" <<'EOF'
set -eu
kver=$1
headers=/usr/src/linux-headers-$kver
src_version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
hdr_version=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")
if [ "$src_version" != "$hdr_version" ]; then
    # the same upstream release (the version before its Debian revision) or nothing
    [ "${src_version%-*}" = "${hdr_version%-*}" ] ||
        { echo "linux-source-6.1 $src_version does not match linux-headers-$kver $hdr_version" >&2; exit 1; }
    echo "linux-source-6.1 $src_version beside linux-headers-$kver $hdr_version: the same upstream release" >&2
fi
mkdir -p /build && cd /build
tar -xJf /usr/src/linux-source-6.1.tar.xz --strip-components=1 --wildcards \
    '*/drivers/gpio/gpio-sim.c' '*/drivers/gpio/gpiolib.h' '*/kernel/irq/irq_sim.c'
cp drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h .
echo 'obj-m := gpio-sim.o' > Kbuild
if grep -q '^CONFIG_IRQ_SIM=y' "$headers/.config"; then
    irq_sim=built-in
else
    # irq_sim.c is a built-in object in the kernel's tree: as a module it needs a licence tag,
    # and it cannot call irq_to_desc() (not exported to modules): generic_handle_irq(irq) is
    # the exported call that does the same (the descriptor's handler, handle_simple_irq here).
    { cat kernel/irq/irq_sim.c; echo 'MODULE_LICENSE("GPL");'; } > irq-sim.c
    sed -i -e '1i #include <linux/module.h>' \
        -e 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' irq-sim.c
    if grep -q irq_to_desc irq-sim.c; then
        echo "irq_sim.c: irq_to_desc() still called (the source changed?)" >&2; exit 1
    fi
    echo 'obj-m += irq-sim.o' >> Kbuild
    irq_sim=module
fi
make -s -C "$headers" M=/build modules
for ko in /build/*.ko; do
    magic=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
    [ "$magic" = "$kver" ] || { echo "$ko: vermagic $magic, not $kver" >&2; exit 1; }
done
printf 'kernel %s\nlinux-source-6.1 %s\nirq_sim %s\n' "$kver" "$src_version" "$irq_sim" > /build/build.txt
EOF

build() {  # $1: the linux-source-6.1 to install ("linux-source-6.1" or "...=VERSION")
    rm -rf "$work/root"
    nice mmdebstrap --variant=minbase \
        --include="linux-headers-$kver,$1,gcc,make,xz-utils,libc6-dev,kmod" \
        --customize-hook="cp '$work/build-in-root.sh' \"\$1/build-in-root.sh\"" \
        --customize-hook="chroot \"\$1\" sh /build-in-root.sh '$kver'" \
        --customize-hook="cp \"\$1\"/build/*.ko \"\$1\"/build/build.txt '$out'/" \
        bookworm "$work/root"
}
if [ -z "$version" ] || ! build "linux-source-6.1=$version"; then
    [ -z "$version" ] || echo "linux-source-6.1 $version not on the mirror: its newest instead" >&2
    build linux-source-6.1
fi
cat "$out/build.txt"
