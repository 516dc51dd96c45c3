#!/usr/bin/env python3
"""The end-to-end test of `patternlock run` on the emulated aarch64 board (stdlib only).

Usage: e2e_test.py --references DIR --work DIR --disk FILE --layout FILE [--feedback-ms MS] [--timeout S] [--log FILE]
       e2e_test.py --write-tablet-captures DIR TEMPLATE.yaml LAYOUT   (the tablet drag's captures)

LAYOUT is `patternlock layout --dpi 96` of the 800x480 panel: every tablet touch is placed
from its dot centres and rectangles.

Boots the QEMU image (scripts/qemu-run --headless --mode shell --disk FILE) and drives the guest's
busybox shell over the serial console, the display and the tablet over QMP:

  1. the first boot (no touchscreen yet); `patternlock run --pattern 2-5-9-4-3 --timing
     --feedback-ms F`; its idle picture (2-5-9-4-3 is the example pattern of README.md,
     "Choosing a pattern": one an enrolment accepts, as steps 8, 12, 14 and 15 enrol it);
  2. `patternlock inject z-1235789.yaml` (a uinput touchscreen created after run
     started: real kernel, udev, libinput): the JSON line and the red verdict;
  3. a wrong pattern 4-3-5-9-2 dragged with the virtio tablet (QMP input-send-event),
     paused mid-gesture, then released: both pictures, the JSON line;
  4. `patternlock inject strong-25943.yaml`: match, the accepted picture, `unlocked`,
     exit status 0;
  5. `run --rotate 90 --pattern 2-5-9-4-3`: idle picture and rotated-90-25943 unlocking;
  6. `run` stopped by SIGTERM: its message, its end, and the VT drawing text again
     (fbcon draws only in KD_TEXT, so text written after the exit must appear).
  7. idle blanking switches the display off, on the atomic path and then again with
     PATTERNLOCK_KMS_LEGACY=1: `run --pattern 2-5-9-4-3 --idle-blank-s 2`; the run's
     connector's /sys/class/drm/card0-*/dpms reads Off, with no fallback message;
     strong-25943 injected onto the dark screen: dpms reads On, the idle picture is
     back, and the (right) pattern is neither judged nor unlocks (the waking touch does
     nothing else); Off again after 2 s, then SIGTERM with the display off: dpms On and
     the VT drawing text again.
  8. the Vault (no --pattern), in /var/lib/patternlock on the state disk (--disk: ext4 on
     virtio-blk, mounted by init): `set-pattern` stores 2-5-9-4-3 (a cheap Argon2id);
     `run` with `exec = /bin/echo PL-EXEC-RAN` and `gpio-unlock = gpiochip0:4:300` in
     /etc/patternlock.conf (root-owned 0644: as root these keys are refused on the
     command line), and strong-25943: `{"result":"unlocked"}`, the exec'd command's
     line, exit 0; then the file is removed again; with the door strike, QEMU's
     trace of the board's PL061 shows line 4 driven high, then low (a door strike);
  9. four distinct wrong patterns: failures 1..4, the 2nd from `patternlock check` on the
     console while run is up (one state directory, two processes: run's next failure
     must be 3, not 2); the moment run shows the 4th, QEMU is
     killed (a power cut: no sync, no unmount) and the board boots again from the same
     disk; the 5th wrong capture is failure 5 with retry_in_s 60 (the counter was on the
     disk before the result was shown); the countdown on screen, picture for picture the
     headless `replay --state-dir --dump` of a lockout (REFERENCES/lockout), from 1:00
     and ticking; the right pattern injected during the lockout is not judged at all;
 10. run restarted (SIGTERM, then run again) with the same state: the countdown is on
     screen at once and starts at 1:00 again (restarted in full, not the old remainder);
 11. a power cut during the lockout and a third boot: run is locked out at once, and the
     countdown again starts at 1:00;
 12. `reset-attempts` (then `check` unlocks); the state disk remounted read-only under a
     running `run`: the right pattern is not judged (no result line, no unlock: the
     failure could not be counted first) and run says so; remounted read-write, run
     retries the write by itself and then unlocks with the right pattern;
     the state directory removed, a power cut,
     and a fourth boot in `run` mode: init starts `patternlock run --enroll-first` itself
     (as the Raspberry Pi's unit starts run); the tablet draws 2-5-9-4-3 twice (stored, no
     unlock), then once more: `{"result":"unlocked"}`, exit 0.
 13. small panels, on a fifth boot with a cirrus-vga display besides virtio-gpu (its driver
     prefers 16 bits: /dev/dri/card1 and /dev/fb1 in RGB565): bytes per flip of a finger
     move on virtio-gpu from QEMU's trace (the first frame, each move within twice its
     damage: one buffer updated in place); run on card1 in RGB565 by itself, and on
     /dev/fb0 and /dev/fb1 (fbdev), each picture equal to the headless render (QEMU shows
     no picture for cirrus on arm64, so its video memory is compared: what it scans out);
     idle blanking on /dev/fb0 powers the output down (FBIOBLANK) and a touch up again.
 14. a TPM 2.0 on the board (QEMU's tpm-tis-device, swtpm behind it on a state directory
     of its own; the guest's tpm_tis driver and /dev/tpmrm0), on three more boots with the
     state disk: `tpm = required` in /etc/patternlock.conf; `set-pattern` binds 2-5-9-4-3 to
     the TPM (`recovery key:`, status "tpm":"yes"); check exits 0 right, 3 wrong (status:
     tpm_failures 1); powered off and booted with the same disk and TPM state: the TPM's
     count is still 1, a wrong pattern makes it 2, `reset-attempts` with the printed
     recovery key 0, and the right pattern unlocks; then the same disk with a fresh TPM
     (a new state directory): check of the right pattern exits 8, not the enrolled TPM.
 15. GPIO as installers wire it, on one more boot whose device tree (QEMU's own, dumped
     and given `gpio-line-names`) names PL061 lines 3 and 4 EXIT_BUTTON and DOOR_STRIKE:
     a line name no line has is a one-line refusal listing the names there are;
     `gpio-unlock = DOOR_STRIKE 300 active-low` rests line 4 high, and the exit button
     (line 3, pulsed by QMP system_powerdown through QEMU's gpio-key) pulses it low and
     is in the audit log; `door-sensor = 9030000.pl061:3 active-low` (chip label and
     offset) with door-held-open-s 1 logs door-held-open, then the pulse's closing and
     reopening as door-closed and door-forced. A duress credential (`credential add
     panic --role duress`, 4-3-5-9-2) with `duress-opens = no`: the tablet's 4-3-5-9-2 shows
     the headless render of that drawing judged right, run prints the owner's unlock
     line and exits 0, on-duress writes its event and credential, the audit log says
     duress, and line 4 stays at rest; with the default, check of it pulses line 4.
 16. a board with a Raspberry Pi's shape (e2e_scenarios/pi_board.py): vgem loaded first
     (card0 renders only, as v3d), virtio-gpu (card1) and cirrus-vga (card2) connected,
     a gpio-backlight on PL061 line 5 in the device tree, no tablet at power-on: run's
     one-line choice of card1, the backlight off on blank with the panel powered and on
     at the first touch of a tablet plugged in with QMP device_add; that tablet, sampled
     at 25 Hz, unplugged and plugged again, draws a wrong pattern and the right one;
     --output VGA-1 takes cirrus.

Every boot traces what virtio-gpu transfers to the host (QEMU's
virtio_gpu_cmd_res_create_2d and virtio_gpu_cmd_res_flush events, WORK/virtio-gpu-bootN.trace);
run's `--timing` says what each flip changed, and the two are paired flip by flip. The
bytes per flip (the lockout countdown in step 10, the finger move in 13) are printed,
against the whole XRGB8888 frame every flip sent before damage reached the kernel.

Each numbered step is one scenario function in e2e_scenarios/, a module per area
(SCENARIOS below, in this order); they share one E2EBoard (e2e_scenarios/board.py):
QEMU, QMP, the console, the deadline, the references and the check counters.
Steps 8-12 build on one another: when a check the rest needs fails (a boot, set-pattern,
a counted failure), the rest is skipped; any other failed check is counted and the test
goes on.

Each picture is a QMP screendump compared pixel for pixel with the headless render of
the same input (REFERENCES/*.png, written by scripts/test-e2e with the guest's own
binary). A verdict stays F ms, so the screendump is retried until it matches or the
verdict ends; a mismatch names the first differing pixel and keeps both files in WORK.
The `timing:` figures are printed, not judged, and so is run's peak RSS (VmHWM from the
guest's /proc/PID/status, read in step 4 before the right pattern). Every wait is bounded by --timeout.
Prints "ok"/"FAIL" per check and ends with "e2e: N passed, N failed".
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.layout import Layout  # noqa: E402
from e2e_scenarios.blanking import idle_blanking  # noqa: E402
from e2e_scenarios.board import E2EBoard  # noqa: E402
from e2e_scenarios.common import write_tablet_captures  # noqa: E402
from e2e_scenarios.door import door_panel  # noqa: E402
from e2e_scenarios.first_runs import first_run, injected_touchscreen, right_pattern, rotated, sigterm, tablet_drag  # noqa: E402
from e2e_scenarios.lockout import failures_and_lockout, power_cut_in_lockout, restart_in_lockout  # noqa: E402
from e2e_scenarios.pi_board import pi_shaped_board  # noqa: E402
from e2e_scenarios.recovery import reset_read_only_and_enrol  # noqa: E402
from e2e_scenarios.small_panels import small_panels  # noqa: E402
from e2e_scenarios.tpm import tpm_bound  # noqa: E402
from e2e_scenarios.vault import strike_rests_low, vault_unlocks  # noqa: E402

SCENARIOS = (first_run, injected_touchscreen, tablet_drag, right_pattern, rotated, sigterm, idle_blanking,
             vault_unlocks, strike_rests_low, failures_and_lockout, restart_in_lockout, power_cut_in_lockout, reset_read_only_and_enrol,
             small_panels, tpm_bound, door_panel, pi_shaped_board)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--references", required=True, help="headless renders (PNG) from scripts/test-e2e")
    parser.add_argument("--work", required=True, help="where screendumps go")
    parser.add_argument("--layout", required=True, help="the panel's `patternlock layout --dpi 96` JSON")
    parser.add_argument("--feedback-ms", type=int, default=3000)
    parser.add_argument("--timeout", type=float, default=240.0)
    parser.add_argument("--log", default=".build/e2e/console.log")
    parser.add_argument("--disk", required=True, help="the state disk image (made on the first boot if missing)")
    return parser.parse_args()


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--write-tablet-captures":
        write_tablet_captures(sys.argv[2], sys.argv[3], Layout.load(sys.argv[4]))
        return 0
    args = parse_arguments()
    board = E2EBoard(args, Layout.load(args.layout))

    def report():
        print("timings (measured under TCG, not judged): " + "; ".join(board.timings), flush=True)
        for figure in board.transfers:
            print("bytes per flip (virtio-gpu transfers to the host): " + figure, flush=True)
        for figure in board.peak_rss:
            print("peak RSS of run (VmHWM in the guest, not judged): " + figure, flush=True)

    return board.run_scenarios(SCENARIOS, "e2e", report, board.power_off)


if __name__ == "__main__":
    sys.exit(main())
