# Debian arm64 trees made with debootstrap or mmdebstrap on this x86-64 host
# (scripts/test-deb, scripts/test-boot): arm64 programs run under qemu-aarch64 through
# binfmt_misc, and the packages come from the mirror this machine's apt uses.
# Source after scripts/lib/common.sh; needs root.

# Makes binfmt_misc run arm64 programs through qemu-aarch64: mounts binfmt_misc and
# registers qemu-user-static's rule when that has not been done (the F flag opens the
# interpreter at registration, so a chroot needs no copy of qemu). Returns 1 when the
# rule has no F flag (the caller must then copy the interpreter into its chroot).
ensure_binfmt_aarch64() {
  local binfmt=/proc/sys/fs/binfmt_misc rule=/usr/lib/binfmt.d/qemu-aarch64.conf
  if [ ! -e $binfmt/register ]; then
    mount -t binfmt_misc binfmt_misc $binfmt 2>/dev/null ||
      die "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc binfmt_misc $binfmt failed: a container without the privilege?)"
  fi
  if [ ! -e $binfmt/qemu-aarch64 ]; then
    [ -f $rule ] || die "$rule is missing (reinstall qemu-user-static)"
    # Registered from the package's own rule (flags OCF/OPF: F opens the interpreter now).
    cat $rule >$binfmt/register 2>/dev/null || die "cannot register qemu-aarch64 in $binfmt/register"
  fi
  grep -q '^enabled' $binfmt/qemu-aarch64 || echo 1 >$binfmt/qemu-aarch64
  grep -q '^flags:.*F' $binfmt/qemu-aarch64
}

# Prints the URI of the Debian mirror this machine's apt uses for bookworm (deb822
# .sources first, then one-line .list files). The same mirror serves the other
# releases (trixie) under their own suite names.
debian_mirror() {
  local f mirror=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822: the first stanza whose Suites name bookworm (not -security).
    mirror=$(awk 'BEGIN{RS=""} /Suites:[^\n]*bookworm( |$|\n)/ && !/security/ { if (match($0, /URIs: *[^ \n]+/)) { u=substr($0, RSTART, RLENGTH); sub(/URIs: */, "", u); print u; exit } }' "$f")
    [ -n "$mirror" ] && break
  done
  if [ -z "$mirror" ]; then
    mirror=$(grep -hE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+ +bookworm +' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      sed -E 's/^deb +(\[[^]]*\] +)?//' | awk '{print $1; exit}' || true)
  fi
  [ -n "$mirror" ] || die "no bookworm mirror in /etc/apt/sources.list or /etc/apt/sources.list.d (this test needs a Debian 12 host's apt sources)"
  echo "$mirror"
}
