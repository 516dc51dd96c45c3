# Kernel modules that Debian's arm64 kernel does not build but the QEMU image needs,
# built out of tree from that same kernel's source (scripts/qemu-image). Source after
# scripts/lib/common.sh and scripts/lib/sysroot.sh.
#
# Debian's arm64 configuration leaves CONFIG_TCG_TIS unset: tpm_tis, the driver of the
# `virt` machine's tpm-tis-device (device tree "tcg,tpm-tis-mmio"), is missing, while
# the TPM core (built in) and tpm_tis_core (a module) are there. tpm_tis.c is built
# against the kernel's own headers package (its .config and Module.symvers, so the
# vermagic and symbol versions match) with Debian's cross gcc-12, the compiler the
# kernel was built with. The module is unsigned: the kernel loads it (it does not
# enforce signatures without Secure Boot) and marks itself tainted.
#
# What is downloaded (into the shared .deb cache, $sysroot_debs): linux-source-X.Y,
# linux-headers-KVER (arm64), linux-headers-KVER's -common part and linux-kbuild-X.Y
# (this machine's architecture: its tools run here), all of the kernel package's version.
# The built module is kept under .build/qemu/modules-built keyed by that version and
# this file, so a later image costs one copy.

# Builds (or reuses) tpm_tis.ko for kernel KVER of the unpacked package root ROOT and
# installs it there as lib/modules/KVER/updates/tpm_tis.ko, then runs depmod.
# Usage: ensure_tpm_tis_module ROOT KVER
ensure_tpm_tis_module() {
  local root=$1 kver=$2 series version deb key cache work headers
  series=$(echo "$kver" | cut -d. -f1,2)
  deb=$(compgen -G "$sysroot_debs/linux-image-${kver}_*_arm64.deb" | sort -V | tail -n 1 || true)
  [ -n "$deb" ] || die "no linux-image-$kver .deb in $sysroot_debs to take the kernel's version from"
  version=$(dpkg-deb -f "$deb" Version)
  key=$(printf '%s %s\n' "$kver" "$version" | cat - scripts/lib/kernel-module.sh | sha256sum | cut -c1-16)
  cache=.build/qemu/modules-built/$key
  if [ ! -f "$cache/tpm_tis.ko" ]; then
    ensure_packages gcc-12-aarch64-linux-gnu make xz-utils
    note "building tpm_tis.ko for kernel $kver ($version): Debian's arm64 kernel lacks it (CONFIG_TCG_TIS)"
    local packages=("linux-source-$series=$version" "linux-headers-$kver:arm64=$version"
      "linux-headers-${kver%-arm64}-common=$version" "linux-kbuild-$series=$version") missing=() p name
    for p in "${packages[@]}"; do
      name=${p%%=*}
      name=${name%:arm64}
      compgen -G "$sysroot_debs/${name}_${version}_*.deb" >/dev/null || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
      (cd "$sysroot_debs" && quietly "apt-get download" apt-get "${apt_options[@]}" download "${missing[@]}")
    fi
    work=$(mktemp -d "${TMPDIR:-/tmp}/patternlock-kmod.XXXXXX")
    for p in "linux-headers-${kver}_${version}_arm64" "linux-headers-${kver%-arm64}-common_${version}_all" \
      "linux-kbuild-${series}_${version}_$(dpkg --print-architecture)"; do
      [ -f "$sysroot_debs/$p.deb" ] || die "no $p.deb in $sysroot_debs (apt-get download failed?)"
      dpkg-deb -x "$sysroot_debs/$p.deb" "$work/root"
    done
    headers=$work/root/usr/src/linux-headers-$kver
    # Its Makefile includes the -common part by its installed path: point it at ours. The
    # scripts and tools links are relative already (into usr/lib/linux-kbuild-X.Y).
    sed -i "s#^include /usr/src/#include $work/root/usr/src/#" "$headers/Makefile"
    mkdir -p "$work/module"
    dpkg-deb --fsys-tarfile "$sysroot_debs/linux-source-${series}_${version}_all.deb" |
      tar -xO "./usr/src/linux-source-$series.tar.xz" | xz -dc |
      tar -x -C "$work/module" --strip-components=4 \
        "linux-source-$series/drivers/char/tpm/tpm_tis.c" "linux-source-$series/drivers/char/tpm/tpm.h" \
        "linux-source-$series/drivers/char/tpm/tpm_tis_core.h" ||
      die "could not take drivers/char/tpm/tpm_tis.c from linux-source-$series $version"
    echo 'obj-m := tpm_tis.o' >"$work/module/Kbuild"
    quietly "building tpm_tis.ko" make -C "$headers" M="$work/module" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules
    mkdir -p "$cache"
    aarch64-linux-gnu-strip --strip-debug -o "$cache/tpm_tis.ko" "$work/module/tpm_tis.ko"
    rm -rf "$work"
  fi
  if ! cmp -s "$cache/tpm_tis.ko" "$root/lib/modules/$kver/updates/tpm_tis.ko"; then
    mkdir -p "$root/lib/modules/$kver/updates"
    cp "$cache/tpm_tis.ko" "$root/lib/modules/$kver/updates/tpm_tis.ko"
    quietly "depmod" depmod -b "$root" "$kver"
  fi
}
