# Trees of Debian arm64 packages unpacked with `dpkg-deb -x`, never installed: the
# aarch64 sysroot (scripts/build-aarch64) and the QEMU image's package root
# (scripts/qemu-image). Source after scripts/lib/common.sh; call `ensure_sysroot`,
# then use $sysroot; or `ensure_debroot DEST LIST...` for another tree.
#
# The sysroot's package list is scripts/aarch64-packages. Dependencies are resolved here
# rather than with `apt-cache depends --recurse`, which drags in python3, perl and
# dpkg: only library packages are followed (see skip_package). The sysroot is
# cached under .build/ keyed by a hash of the list and this file, so a re-run
# costs one hash; the downloaded .debs are kept across keys.

sysroot_packages_file=scripts/aarch64-packages
sysroot_root=.build/aarch64-sdk
sysroot=$sysroot_root/sysroot
sysroot_debs=$sysroot_root/debs
# This machine's apt may be configured without a package cache (as in containers),
# which makes every apt-cache call rebuild it: keep one of our own.
apt_cache_options=(-o "Dir::Cache::pkgcache=$PWD/$sysroot_root/apt-pkgcache.bin"
  -o "Dir::Cache::srcpkgcache=$PWD/$sysroot_root/apt-srcpkgcache.bin")

# Whether a dependency is left out of the sysroot: tools, data, documentation,
# language runtimes and introspection data are never needed to link or run a C
# library, and some runtime libraries are large and unused. A library left out
# here that something does need is named by elf_closure (scripts/lib/elf.sh).
skip_package() {
  case $1 in
    *-bin | *-common | *-data | *-doc) return 0 ;;
    gir1.2-* | python3* | libpython* | perl* | libperl* | pkg-config | pkgconf* | dpkg | tar | install-info) return 0 ;;
    # The kernel's and udev's maintainer-script tools; the image boots without them.
    kmod | linux-base | initramfs-tools* | dracut* | adduser) return 0 ;;
    rpcsvc-proto | media-types | mime-support | debconf*) return 0 ;;
    gcc-*-base) return 0 ;;
    # libgcc-12-dev's sanitizer and OpenMP runtimes; nothing here is C++.
    libasan* | libtsan* | liblsan* | libubsan* | libhwasan* | libgomp* | libitm* | libstdc++*) return 0 ;;
    # libc6-dev's Sun RPC, which pulls in Kerberos and OpenSSL.
    libnsl-dev | libnsl2 | libtirpc-dev | libtirpc3) return 0 ;;
  esac
  return 1
}

# The requested packages from list files, one per line.
debroot_requested() {
  sed -e 's/#.*//' -e 's/[[:space:]]//g' "$@" | grep -v '^$'
}

# Prints the closure of the packages requested in the list files under
# Depends/Pre-Depends, first alternatives only, skipping what skip_package names.
debroot_resolve() {
  local -A seen=()
  local frontier=() next p line dep alternative
  while read -r p; do frontier+=("$p"); seen[$p]=1; done < <(debroot_requested "$@")
  while [ "${#frontier[@]}" -gt 0 ]; do
    next=()
    alternative=0
    while IFS= read -r line; do
      # "  Depends: pkg:arm64" or " |Depends: pkg:arm64" (an alternative follows).
      [[ $line =~ ^\ ([\ |])(Pre)?Depends:\ (.*)$ ]] || continue
      dep=${BASH_REMATCH[3]}
      if [ "$alternative" = 1 ]; then
        alternative=0
        [ "${BASH_REMATCH[1]}" = "|" ] && alternative=1
        continue
      fi
      [ "${BASH_REMATCH[1]}" = "|" ] && alternative=1
      dep=${dep%:arm64}
      dep=${dep%:any}
      [[ $dep == \<* ]] && continue
      skip_package "$dep" && continue
      [ -n "${seen[$dep]:-}" ] && continue
      seen[$dep]=1
      next+=("$dep")
    done < <(apt-cache "${apt_cache_options[@]}" depends --important "${frontier[@]/%/:arm64}" 2>/dev/null)
    frontier=("${next[@]}")
  done
  printf '%s\n' "${!seen[@]}" | sort
}

# Downloads (into the shared .deb cache) and unpacks the closure of the list files
# into a fresh directory DEST. Usage: debroot_assemble DEST LIST...
debroot_assemble() {
  local dest=$1
  shift
  local packages=() missing=() p deb i
  mapfile -t packages < <(debroot_resolve "$@")
  [ "${#packages[@]}" -gt 0 ] || die "no packages resolved from $*"
  mkdir -p "$sysroot_debs"
  for p in "${packages[@]}"; do
    compgen -G "$sysroot_debs/${p}_*_arm64.deb" >/dev/null ||
      compgen -G "$sysroot_debs/${p}_*_all.deb" >/dev/null || missing+=("$p:arm64")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    # Architecture: all packages (fonts) have no :arm64 candidate; ask for them bare.
    local -A arm64=()
    while read -r p; do arm64[$p]=1; done < <(apt-cache "${apt_cache_options[@]}" show --no-all-versions \
      "${missing[@]}" 2>/dev/null | sed -n 's/^Package: //p' || true)
    for i in "${!missing[@]}"; do
      p=${missing[$i]%:arm64}
      [ -n "${arm64[$p]:-}" ] || missing[i]=$p
    done
    note "downloading ${#missing[@]} arm64 packages"
    (cd "$sysroot_debs" && quietly "apt-get download" apt-get "${apt_options[@]}" download "${missing[@]}")
  fi
  rm -rf "$dest.new"
  mkdir -p "$dest.new/.files"
  for p in "${packages[@]}"; do
    # The newest cached version of each package.
    deb=$(compgen -G "$sysroot_debs/${p}_*_[a][lr][lm]*.deb" | sort -V | tail -n 1 || true)
    [ -n "$deb" ] || die "no .deb for $p in $sysroot_debs (apt-get download failed?)"
    # -X lists what it unpacks: .files/<package> answers "which package ships this?".
    dpkg-deb -X "$deb" "$dest.new" >"$dest.new/.files/$p"
  done
  debroot_relativize_links "$dest.new"
  debroot_relocate_pc_files "$dest.new"
  printf '%s\n' "${packages[@]}" >"$dest.new/.packages"
  rm -rf "$dest"
  mv "$dest.new" "$dest"
}

# Absolute symlinks (libfoo.so -> /lib/aarch64-linux-gnu/libfoo.so.1) would point
# into the host; make them relative so they resolve inside the unpacked tree.
debroot_relativize_links() {
  local root=$1 link target dir
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    [[ $target == /* ]] || continue
    dir=$(dirname "${link#"$root"}")
    ln -sfn "$(realpath -sm --relative-to="$dir" "$target")" "$link"
  done < <(find "$root" -type l -print0)
}

# Some .pc files spell /usr/... literally (freetype2.pc: `Libs: -L/usr/lib/...`), and
# SwiftPM's own pkg-config reader puts PKG_CONFIG_SYSROOT_DIR only in front of paths
# built from ${prefix}: so a -L would point at the host. Derive them from ${prefix}.
debroot_relocate_pc_files() {
  local pc
  while IFS= read -r -d '' pc; do
    # shellcheck disable=SC2016 # ${prefix} is for pkg-config, not the shell
    sed -i -e '/^prefix=/!s#\([=[:space:]]\|-[IL]\)/usr/#\1${prefix}/#g' "$pc"
  done < <(find "$1/usr/lib/aarch64-linux-gnu/pkgconfig" "$1/usr/share/pkgconfig" -name '*.pc' -print0 2>/dev/null)
}

# The package in the unpacked tree ROOT that ships a file (ROOT-relative path).
# Usage: debroot_package_of ROOT PATH
debroot_package_of() {
  local hit
  hit=$(grep -lx -- "\./$2" "$1"/.files/* 2>/dev/null | head -n 1 || true)
  [ -n "$hit" ] && basename "$hit"
}

# Makes DEST the unpacked closure of the list files: reuses it when the key (a hash
# of the lists and this file) matches, rebuilds it otherwise.
# Usage: ensure_debroot DEST LIST...
ensure_debroot() {
  local dest=$1 key
  shift
  key=$(cat "$@" scripts/lib/sysroot.sh | sha256sum | cut -c1-16)
  if [ -f "$dest/.key" ] && [ "$(cat "$dest/.key")" = "$key" ]; then
    return 0
  fi
  ensure_arm64_lists
  mkdir -p "$sysroot_root"
  note "unpacking arm64 packages from $* into $dest"
  debroot_assemble "$dest" "$@"
  echo "$key" >"$dest/.key"
}

# Makes $sysroot current.
ensure_sysroot() {
  ensure_debroot "$sysroot" "$sysroot_packages_file"
}
