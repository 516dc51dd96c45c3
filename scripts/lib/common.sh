# Shared by the scripts in scripts/: quiet command runs, self-installing Debian
# packages, the host build to compare with, and the Swift toolchain's location. Source it after `set -euo pipefail`
# and `cd` to the repository root; set `script` to the calling script's name first.

script=${script:-$(basename "$0")}

# Prints a message to stderr and exits non-zero.
die() {
  echo "$script: $*" >&2
  exit 1
}

# Prints one progress line (stderr, so that stdout stays for results).
note() {
  echo "$script: $*" >&2
}

# Runs a command with its output kept in a log; prints the log's tail and exits
# if the command fails. Usage: quietly "what it does" cmd args...
quietly() {
  local what=$1
  shift
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/patternlock-log.XXXXXX")
  "$@" >"$log" 2>&1 &
  if ! wait_saying $! "$what"; then
    echo "$script: $what failed: $*" >&2
    tail -n 40 "$log" | sed 's/^/  | /' >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
}

# Waits for the background job PID and returns its status, saying every 20 s that WHAT
# is still going, so that a long step (a cross-build, an image) is never minutes of
# silence. Usage: cmd & wait_saying $! "what it does"
wait_saying() {
  local pid=$1 what=$2 waited=0 status=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    waited=$((waited + 1))
    if [ $((waited % 20)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
      echo "$script: still $what ($waited s)" >&2
    fi
  done
  wait "$pid" || status=$?
  return "$status"
}

# apt waits for a lock held by another apt run (other scripts share the machine)
# instead of failing at once.
apt_options=(-o DPkg::Lock::Timeout=600 -o APT::Get::Assume-Yes=true -q)

_apt_updated=0
# Runs `apt-get update` at most once per script run.
apt_update_once() {
  if [ "$_apt_updated" = 0 ]; then
    quietly "apt-get update" apt-get "${apt_options[@]}" update
    _apt_updated=1
  fi
}

# Whether a Debian package (name or name:arch) is installed.
is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# Installs the named Debian packages that are missing, updating the lists once if
# the first attempt cannot find them. Needs root (apt) only when something is missing.
ensure_packages() {
  local missing=() p
  for p in "$@"; do
    is_installed "$p" || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || die "missing Debian packages: ${missing[*]} (install them with: sudo apt-get install ${missing[*]})"
  note "installing ${missing[*]}"
  if ! DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" install --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    apt_update_once
    quietly "apt-get install ${missing[*]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get "${apt_options[@]}" install --no-install-recommends "${missing[@]}"
  fi
}

# Makes Debian's arm64 packages downloadable: adds the architecture and fetches its
# package lists if they are not there yet.
ensure_arm64_lists() {
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    [ "$(id -u)" = 0 ] || die "dpkg has no arm64 architecture (run: sudo dpkg --add-architecture arm64 && sudo apt-get update)"
    dpkg --add-architecture arm64
  fi
  if ! apt-cache show libc6:arm64 >/dev/null 2>&1; then
    apt_update_once
  fi
  apt-cache show libc6:arm64 >/dev/null 2>&1 || die "apt has no arm64 package lists even after apt-get update (check /etc/apt/sources.list)"
}

# Sets host_binary to the host build the device checks compare with:
# $PATTERNLOCK_HOST_BINARY (scripts/test passes its own debug build) or, without it,
# one built in .build-cross.
resolve_host_binary() {
  if [ -n "${PATTERNLOCK_HOST_BINARY:-}" ]; then
    host_binary=$(readlink -f "$PATTERNLOCK_HOST_BINARY")
    [ -x "$host_binary" ] || die "PATTERNLOCK_HOST_BINARY=$PATTERNLOCK_HOST_BINARY is not an executable"
  else
    # Every product: `patternlock replay` runs patternlock-recording beside it.
    quietly "host swift build" swift build --scratch-path .build-cross
    host_binary=$PWD/.build-cross/debug/patternlock
  fi
}

# The program of a patternlock build that runs COMMAND: patternlock-recording for
# replay and inject, patternlock for the others. `patternlock replay` runs it itself,
# but an aarch64 build under qemu-user would need binfmt_misc for that exec, so the
# checks that run it there call the program directly (with the same arguments).
# Usage: program_for PATTERNLOCK COMMAND
program_for() {
  case $2 in
    replay | inject) echo "$(dirname "$1")/patternlock-recording" ;;
    *) echo "$1" ;;
  esac
}

# The directory of the Swift toolchain's binaries (swiftc, clang, ld.lld).
swift_bin_dir() {
  local swiftc
  swiftc=$(command -v swiftc) || die "swiftc not found on PATH: put a Swift 6.1 or newer toolchain there (README, \"Quick start\": swiftly) and run this again"
  dirname "$(readlink -f "$swiftc")"
}
