#!/bin/sh
# Installs patternlock as the boot-time lock of a Raspberry Pi running Raspberry Pi OS
# (trixie or bookworm) or Debian 13 or 12, arm64. Run as root on the Pi, from this directory:
#
#   sudo ./install.sh [patternlock_VERSION_arm64.deb] [--harden] [--no-reboot-hint]
#
# With a .deb (scripts/package-deb) it is installed with apt, which brings the
# libraries; without one, patternlock must already be installed. Then, idempotently:
#   - the config.txt fragment (KMS driver, 7-inch display) is appended once, and
#     disable_splash=1 set (no firmware rainbow before the lock);
#   - cmdline.txt keeps text off the screen (./quiet-console: quiet, loglevel=3, no
#     cursor or penguin, no console on tty1, plymouth's graphical splash where plymouth
#     is installed; the old line kept as cmdline.txt.bak);
#   - patternlock.service is enabled (tty1 at boot, before any login);
#   - with --harden: SysRq off (kernel.sysrq=0), no gettys on other VTs (logind
#     NAutoVTs=0, ReserveVT=0), no login on the serial console (serial-getty masked,
#     console=serial0 removed from cmdline.txt, the old line kept as cmdline.txt.bak).
# It refuses to enable the lock while no pattern is set: set one first with
#   echo 2-5-9-4-3 | sudo patternlock set-pattern
# (with your own dots, not this example: raspberry-pi.md, "4. Set the pattern").
set -eu
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "install.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run me as root (sudo ./install.sh)"

deb=""
harden=0
for arg in "$@"; do
  case $arg in
    *.deb) deb=$arg ;;
    --harden) harden=1 ;;
    --no-reboot-hint) ;;
    *) die "unknown argument '$arg' (usage: sudo ./install.sh [FILE.deb] [--harden])" ;;
  esac
done

if [ -n "$deb" ]; then
  [ -f "$deb" ] || die "$deb does not exist"
  case $deb in /*) ;; *) deb=./$deb ;; esac
  apt-get install -y "$deb" || die "apt-get install $deb failed (is the network up for its dependencies?)"
fi
command -v patternlock >/dev/null || die "patternlock is not installed: give the .deb (sudo ./install.sh patternlock_*_arm64.deb)"

# The unit: the package ships it; a manual install copies ours.
if [ ! -f /lib/systemd/system/patternlock.service ] && [ ! -f /etc/systemd/system/patternlock.service ]; then
  install -m 0644 "$here/patternlock.service" /etc/systemd/system/patternlock.service
fi

# Boot configuration: trixie and bookworm keep it in /boot/firmware, older releases in /boot.
boot=/boot/firmware
[ -f $boot/config.txt ] || boot=/boot
if [ -f $boot/config.txt ]; then
  if ! grep -q '^# patternlock:' $boot/config.txt; then
    { echo; cat "$here/config.txt.fragment"; } >>$boot/config.txt
    echo "install.sh: added the KMS and 7-inch display overlays to $boot/config.txt"
  fi
  if ! grep -q '^disable_splash=' $boot/config.txt; then
    echo 'disable_splash=1' >>$boot/config.txt
    echo "install.sh: no firmware splash before the lock (disable_splash=1 in $boot/config.txt)"
  fi
else
  echo "install.sh: no config.txt in /boot/firmware or /boot (not a Raspberry Pi?); add config.txt.fragment by hand" >&2
fi

if [ "$harden" = 1 ]; then
  echo 'kernel.sysrq = 0' >/etc/sysctl.d/90-patternlock-sysrq.conf
  sysctl -q -w kernel.sysrq=0 2>/dev/null || true
  mkdir -p /etc/systemd/logind.conf.d
  printf '[Login]\nNAutoVTs=0\nReserveVT=0\n' >/etc/systemd/logind.conf.d/90-patternlock.conf
  for unit in serial-getty@ttyS0.service serial-getty@ttyAMA0.service serial-getty@serial0.service; do
    systemctl mask "$unit" >/dev/null 2>&1 || true
  done
  if [ -f $boot/cmdline.txt ] && grep -q 'console=serial0' $boot/cmdline.txt; then
    [ -f $boot/cmdline.txt.bak ] || cp $boot/cmdline.txt $boot/cmdline.txt.bak
    sed -i 's/ *console=serial0,[0-9]*//' $boot/cmdline.txt
  fi
  echo "install.sh: SysRq off, no gettys on other VTs or the serial console"
fi

# No text on the screen from power-on to the lock (after --harden's edit, which may
# remove the last console=). The first line as it was is kept once.
if [ -f $boot/cmdline.txt ]; then
  [ -f $boot/cmdline.txt.bak ] || cp $boot/cmdline.txt $boot/cmdline.txt.bak
  # Where plymouth is installed, its graphical splash (not its text mode) until the lock.
  if [ -x /usr/sbin/plymouthd ]; then
    "$here/quiet-console" --plymouth $boot/cmdline.txt
  else
    "$here/quiet-console" $boot/cmdline.txt
  fi
fi

# In a chroot (an SD card image being prepared) no systemd runs: enabling works offline.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
fi
# Without a pattern the lock cannot be opened (the default state directory; with
# another state-dir in the configuration, check there).
if [ ! -s /var/lib/patternlock/pattern ] && ! grep -qs '^state-dir' /etc/patternlock.conf /etc/patternlock.conf.d/*.conf; then
  die "no pattern is set; set your own first (sudo patternlock enroll, or: echo 2-5-9-4-3 | sudo patternlock set-pattern with your dots), then run me again"
fi
systemctl enable patternlock.service
echo "install.sh: patternlock.service enabled on tty1; reboot to lock (sudo reboot)"
