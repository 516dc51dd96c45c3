# A Debian trixie amd64 tree on this host with the labwc compositor and grim, for
# scripts/test-wayland: bookworm has no labwc and its sway lacks ext-session-lock-v1.
# Native (no emulation): debootstrap of the release's minbase plus the packages below,
# cached in .build/wayland-chroot/<hash> by a hash of the release, the mirror, the
# package list and this part of the file. Source after scripts/lib/common.sh and
# scripts/lib/debian-chroot.sh; needs root.

# ---- the cached trixie tree -----------------------------------------------------------
# labwc: the compositor under test (Raspberry Pi OS's); grim: pictures through
# wlr-screencopy; wtype: keys through the virtual-keyboard protocol; swaybg: a desktop
# background that shows only while unlocked; wlr-randr: output scales.
wayland_chroot_packages=labwc,grim,wtype,swaybg,wlr-randr

# Prints the cached tree's directory, building it first when it is missing.
wayland_chroot() {
  local mirror key cache started=$SECONDS
  mirror=$(debian_mirror)
  key=$( (echo trixie "$mirror" "$wayland_chroot_packages"
    sed -n '/^# ---- the cached trixie tree/,/^# ---- end of the cached trixie tree/p' scripts/lib/wayland-chroot.sh) |
    sha256sum | cut -c1-16)
  cache=.build/wayland-chroot/$key
  if [ ! -f "$cache/.complete" ]; then
    ensure_packages debootstrap debian-archive-keyring
    rm -rf "$cache" "$cache.new"
    mkdir -p "$cache.new"
    note "debootstrap trixie with $wayland_chroot_packages from $mirror into $cache (a few minutes)"
    quietly "debootstrap trixie" timeout 1800 debootstrap --variant=minbase \
      --include="$wayland_chroot_packages" trixie "$cache.new" "$mirror"
    chroot "$cache.new" apt-get clean
    touch "$cache.new/.complete"
    mv "$cache.new" "$cache"
    note "trixie tree ready in $((SECONDS - started)) s"
  fi
  echo "$cache"
}
# ---- end of the cached trixie tree ----------------------------------------------------
