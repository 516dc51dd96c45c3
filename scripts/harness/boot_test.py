#!/usr/bin/env python3
"""The boot test of a Debian arm64 image with systemd (stdlib only).

Usage: boot_test.py --suite NAME --dir DIR [--feedback-ms MS] [--timeout S]
       boot_test.py --write-captures DIR TEMPLATE.yaml LAYOUT   (the tablet gestures' captures)

DIR is what scripts/test-boot prepared for one Debian release: root.img (the image with
the .deb installed and docs/raspberry-pi.md followed: the pattern 2-5-9-4-3 set,
install.sh --harden run), vmlinuz and initrd.img, cmdline.txt (the kernel command line as
install.sh left it), and references/ (the headless renders
of the gestures below by the image's own binary, `replay --state-dir --dump`) and
layout.json (the image's `patternlock layout` of the panel: the tablet's touches are
placed from its dot centres).

Boots the image on QEMU's `virt` machine (TCG, virtio-gpu 800x480, virtio tablet and
keyboard, virtio-blk root, the serial console on ttyAMA0 and a root shell on the virtio
console hvc0, the test's way in) and checks:

  1. from power-on, screendumps every 250 ms until the display equals the headless
     idle picture: the seconds from power-on to the lock; before it the screen was black
     (not a lit pixel: the kernel command line install.sh wrote, DIR/cmdline.txt, hides the
     cursor and keeps text off tty1; no login prompt), and systemd never started
     getty@tty1 or a serial getty, and no "login:" reached the serial console;
  2. patternlock.service is active (Type=notify: READY once the lock is on screen),
     started once (no restart while the display driver loaded: it waited), with the
     process start to first flip; and
     the kernel and userspace boot times (systemd-analyze); where the time to the lock
     went on the kernel's clock (the display driver's binding, the lock's process start
     and first flip, and when getty's prompt could have come: printed, not judged) and the
     unit's critical chain; the guide's calibration rule
     reached the tablet (udev property LIBINPUT_CALIBRATION_MATRIX);
  3. Ctrl+Alt+F2 (QMP send-key) while locked: tty1 stays the active VT, the lock stays;
  4. a wrong pattern (7-8-9-6) dragged with the tablet: the screen shows the wrong verdict
     for feedback-ms from when it is first seen (the pattern is set at the .deb's standard
     Argon2id cost, about a second under TCG: a verdict timed from the lift would be cut
     short by it), the journal's result line equals the headless replay's, then the idle picture
     with one failure;
  5. the right pattern (2-5-9-4-3): the result line, the accepted picture; the unit as
     shipped (Restart=always) starts the lock again: idle picture, NRestarts=1;
  6. the guide's override (OnSuccess=getty@tty1.service, RestartPreventExitStatus=0)
     added with `systemctl edit`'s drop-in, the lock restarted and unlocked again: the
     unit stays inactive, getty@tty1 runs and tty1 shows its login prompt; and now
     Ctrl+Alt+F2 does switch to tty2 (so the keys reach the guest and step 3 means
     something).
With --kiosk (trixie) steps 4 to 6 are replaced by the guide's kiosk (cage and foot on
tty7): the hand-off with no console frame, the lock back over the running kiosk on
`patternlock lock`, on MQTT's LOCK (patternlock mqtt and the image's broker; UNLOCK at the
lock refused and logged) and after relock-idle-s, the same kiosk after the right pattern; then
the kiosk failing closed: the lock SIGKILLed while locked, and then stopped, each
followed at once by chvt 7 and Ctrl+Alt+F7: no screendump shows the kiosk (foot's
background, or cage's framebuffer on the primary plane) while its unit stays frozen;
root's `systemctl thaw` then does show it (so the check can see a live kiosk); the
restarted lock freezes it first and the right pattern brings back the same cage and
foot; and when the kiosk ends the lock is back.
With --splash (plymouth installed with a test theme of one colour, SPLASH_RGB) step 1
also requires the splash on screen before the lock and nothing but the splash from its
first frame to the lock's (no black, no text), the lock's journal to say that plymouth
showed a splash, let go of the display and then ended, plymouthd gone and
plymouth-quit.service never started. --kernel-arg adds to the command line for one boot;
with plymouth.enable=0 the same image boots as one without plymouth, and the check is
instead that no splash ran and the lock said nothing of one. --brief stops after the
lock's first picture, the unit's state and where the boot's time went: a second boot of
an image, for the other half of "with and without plymouth".
Every wait is bounded by --timeout. Prints "ok"/"FAIL" per check, the timings, and ends
with "boot NAME: N passed, N failed".
"""
import argparse
import json
import os
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import machine  # noqa: E402
from lib.board import Board  # noqa: E402
from lib.checks import Failure, expect  # noqa: E402
from lib.console import ShellConsole, SocketPipe  # noqa: E402
from lib.layout import Layout, write_tablet_capture  # noqa: E402
from lib.pictures import darkest, first_difference, lit_pixels  # noqa: E402

# The guide's example pattern, which scripts/test-boot sets (one an enrolment accepts:
# README.md, "Choosing a pattern").
PATTERN = "2-5-9-4-3"
# The gestures with the tablet: a wrong 7-8-9-6, and the right pattern.
WRONG_DOTS, RIGHT_DOTS = [7, 8, 9, 6], [int(d) for d in PATTERN.split("-")]
# Between the two gestures of the combined capture: the verdict ends first.
GAP_SECONDS = 5.0
# Before the lock the screen is black: install.sh's kernel command line (DIR/cmdline.txt)
# hides the cursor and keeps the kernel's and systemd's text off tty1.
MAX_LIT_BEFORE_LOCK = 0
# How often the screen is read from power-on to the lock.
SCREENDUMP_S = 0.25
# The one colour of the test's plymouth theme (scripts/test-boot: 0.2, 0.4, 0.6).
SPLASH_RGB = (51, 102, 153)


def write_captures(out, template, layout):
    """scripts/test-boot's references: `libinput record` captures of QEMU's virtio tablet
    drawing the wrong pattern, and the wrong then the right one, GAP_SECONDS apart."""
    os.makedirs(out, exist_ok=True)
    wrong, right = layout.gesture(WRONG_DOTS), layout.gesture(RIGHT_DOTS)
    write_tablet_capture(os.path.join(out, "wrong.yaml"), layout, [wrong], template, GAP_SECONDS)
    write_tablet_capture(os.path.join(out, "wrong-then-right.yaml"), layout, [wrong, right], template, GAP_SECONDS)


class BootBoard(Board):
    """The shared Board (checks, screendumps, the tablet) on the systemd image: the serial
    console is `console`, the root shell on hvc0 is `shell`."""

    def __init__(self, args):
        layout = Layout.load(os.path.join(args.dir, "layout.json"))
        super().__init__(args.dir, os.path.join(args.dir, "console.log"), args.timeout, layout,
                         os.path.join(args.dir, "references"))
        self.dir = args.dir
        self.feedback = args.feedback_ms
        self.kernel_args = args.kernel_arg or []
        self.wrong_steps, self.right_steps = layout.gesture(WRONG_DOTS), layout.gesture(RIGHT_DOTS)
        self.shell = None
        self.restarts = 0
        # (seconds after power-on, kind) each time the screen changed kind until the lock.
        self.frames = []
        self.control_log = open(os.path.join(args.dir, "control.log"), "w", encoding="utf-8")
        self.control_dir = tempfile.mkdtemp(prefix="patternlock-boot.")
        self.control_path = os.path.join(self.control_dir, "control.sock")

    def full_size(self, width, height):
        """Whether a screendump has the panel's size."""
        return (width, height) == (self.layout.width, self.layout.height)

    def boot(self):
        """Powers the machine on; returns once QMP answers (the guest is still booting)."""
        with open(os.path.join(self.dir, "cmdline.txt"), encoding="utf-8") as f:
            command_line = " ".join([f.read().strip()] + self.kernel_args)
        self.start(machine.debian_board(self.dir, self.qmp_path, self.control_path, command_line), shell=False)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(self.control_path)
        self.shell = ShellConsole(SocketPipe(sock), self.control_log)

    def shell_up(self, within):
        """Waits for the control shell (a systemd unit on hvc0) to answer."""
        until = self.within(within)
        while True:
            try:
                self.shell.shell("true", self.within(2))
                return
            except Failure:
                if time.monotonic() > until:
                    raise Failure(f"the control shell on hvc0 did not answer within {within} s")

    def run(self, command, within=30):
        """Runs a shell command in the guest; returns (exit status, its output lines)."""
        since = self.shell.mark()
        status = self.shell.shell(command, self.within(within))
        return status, self.shell.output_lines(since)

    def output(self, command, within=30):
        """A command's output (one string); Failure when it exits non-zero."""
        status, lines = self.run(command, within)
        if status != 0:
            raise Failure(f"'{command}' exited {status}: {' / '.join(lines[-3:])}")
        return "\n".join(lines).strip()

    def unit(self, name, *properties):
        """systemctl show's properties of a unit, as a dict."""
        text = self.output(f"systemctl show {name} " + " ".join(f"-p {p}" for p in properties))
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

    def journal_line(self, since, text, within):
        """The serial console line (journald forwards there) from `since` on containing `text`."""
        return self.console.wait(lambda l: text in l, since, self.within(within), f"'{text}' on the serial console")

    def send_keys(self, *keys):
        self.qmp.execute("send-key", keys=[{"type": "qcode", "data": k} for k in keys])

    def active_vt(self):
        return self.output("cat /sys/class/tty/tty0/active")

    def close(self):
        super().close()
        self.control_log.close()
        if os.path.exists(self.control_path):
            os.remove(self.control_path)
        os.rmdir(self.control_dir)


def choose_references(refs):
    """Names the frames of the headless dumps the checks compare with: the first picture,
    the verdicts (the last picture before the grid clears) and the pictures after."""
    def frames(name):
        directory = os.path.join(refs, name)
        return [os.path.join(directory, f) for f in sorted(os.listdir(directory)) if f.endswith(".png")]
    wrong, both = frames("wrong"), frames("wrong-then-right")
    chosen = {"idle": wrong[0], "wrong-verdict": wrong[-2], "idle-1-failure": wrong[-1], "right-verdict": both[-1]}
    for name, path in chosen.items():
        with open(path, "rb") as src, open(os.path.join(refs, name + ".png"), "wb") as dst:
            dst.write(src.read())


def expected_lines(dir_, capture):
    with open(os.path.join(dir_, capture + ".jsonl"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def frame_kind(rgb, idle):
    """What a screendump before the lock shows: 'lock' (its first picture), 'black',
    'splash' (the test theme's one colour), 'one colour' (another) or 'lit' (anything
    else: text, a cursor, a picture)."""
    if rgb == idle:
        return "lock"
    if rgb != rgb[:3] * (len(rgb) // 3):
        return "lit"
    if rgb[:3] == b"\0\0\0":
        return "black"
    if all(abs(a - b) <= 2 for a, b in zip(rgb[:3], SPLASH_RGB)):
        return "splash"
    return "one colour"


def power_on_to_lock(b):
    """1. The lock is the first thing on screen."""
    b.boot()
    _, _, idle = b.reference("idle")
    start = b.boots[-1]
    shots = lit_max = 0
    text_at = None
    widest_gap, last_shot = 0.0, None
    until = b.within(300)
    while True:
        taken = time.monotonic()
        if last_shot is not None:
            widest_gap = max(widest_gap, taken - last_shot)
        last_shot = taken
        width, height, shot = b.screendump("boot")
        now = time.monotonic() - start
        shots += 1
        if b.full_size(width, height):
            kind = frame_kind(shot, idle)
            if not b.frames or b.frames[-1][1] != kind:
                b.frames.append((now, kind))
            if kind == "lock":
                break
            # One colour all over (black, the splash) is quick to see; anything else is counted.
            lit = 0 if kind in ("black", "splash", "one colour") else lit_pixels(shot)
            if lit > lit_max:
                lit_max = lit
                if lit > MAX_LIT_BEFORE_LOCK and text_at is None:
                    text_at = now
                    os.replace(os.path.join(b.work, "boot.ppm"), os.path.join(b.work, "before-lock.ppm"))
        if time.monotonic() > until:
            raise Failure(f"the lock was not on screen {now:.0f} s after power-on; last screendump {b.work}/boot.ppm: "
                          f"{first_difference(idle, shot, b.layout.width) if len(shot) == len(idle) else f'{width}x{height}'}")
        # A screendump every SCREENDUMP_S from power-on, so no picture shown for longer is missed.
        time.sleep(max(0.0, SCREENDUMP_S - (time.monotonic() - taken)))
    os.remove(os.path.join(b.work, "boot.ppm"))
    b.lock_seconds = now
    b.timings.append(f"power-on to lock {now:.1f} s")
    b.ok(f"power-on to lock: {now:.1f} s; the screen equals the headless idle picture ({shots} screendumps, "
         f"at most {widest_gap * 1000:.0f} ms apart)")
    b.check("the screen was black before the lock (no text, no cursor, no login prompt)",
            lambda: expect(text_at is None, f"{lit_max} lit pixels {text_at} s after power-on; see {b.work}/before-lock.ppm")
            or f"at most {lit_max} lit pixels before it")
    b.require("the control shell on hvc0 answers", lambda: b.shell_up(60))

    def no_getty():
        started = {}
        for unit in ("getty@tty1.service", "serial-getty@ttyAMA0.service"):
            started[unit] = b.unit(unit, "InactiveExitTimestampMonotonic", "LoadState")
        never = all(v.get("InactiveExitTimestampMonotonic") == "0" for v in started.values())
        expect(never, f"{started}")
        with b.console.changed:
            prompts = [l for l in b.console.lines if "login:" in l]
        expect(not prompts, f"the serial console showed {prompts[0]!r}" if prompts else "")
        return f"getty@tty1 never started; serial-getty@ttyAMA0 {started['serial-getty@ttyAMA0.service'].get('LoadState')}"
    b.check("no getty was started on tty1 or the serial port this boot, no login prompt on the serial console", no_getty)


def splash_handed_over(b):
    """1b. With plymouth (--splash): its splash, then the lock, nothing between; the
    lock said plymouth let go and then ended; plymouth is gone and plymouth-quit.service,
    which would have cleared the splash, never ran."""
    sequence = " -> ".join(f"{kind} at {at:.1f} s" for at, kind in b.frames)

    def frames():
        kinds = [kind for _, kind in b.frames]
        expect("splash" in kinds, f"no screendump showed plymouth's splash: {sequence}")
        first = kinds.index("splash")
        after = kinds[first:]
        # Black there would be the kernel's console framebuffer, which takes the display
        # back as soon as plymouth drops DRM master (docs/architecture.md, "The hand-over
        # from the boot splash"): the lock makes its picture first and asks only then.
        expect(after[-1] == "lock" and all(k == "splash" for k in after[:-1]),
               f"something other than the splash came between the splash and the lock: {sequence}")
        return sequence
    b.check("plymouth's splash, then the lock's first picture, with no black or text frame between", frames)

    def journal():
        text = b.output("journalctl -b -u patternlock.service -o cat --no-pager", 60)
        for line in ("plymouth shows a boot splash: it keeps the display until the lock's first picture",
                     "plymouth's boot splash let go of the display for the lock", "plymouth ended, the lock's picture kept"):
            expect(line in text, f"the lock did not say '{line}'")
        status, _ = b.run("pidof plymouthd", 30)
        expect(status != 0, "plymouthd still runs")
        quit_unit = b.unit("plymouth-quit.service", "InactiveExitTimestampMonotonic", "LoadState")
        expect(quit_unit.get("LoadState") == "loaded" and quit_unit.get("InactiveExitTimestampMonotonic") == "0",
               f"plymouth-quit.service: {quit_unit}")
        return "the lock's journal says the three steps; plymouthd has ended; plymouth-quit.service never started"
    b.check("plymouth handed the display to the lock and ended keeping the picture", journal)


def splash_left_out(b):
    """1c. Booted with plymouth.enable=0 (--brief on an image with plymouth): the boot
    without a splash, as on an image without plymouth; the lock found none to hand over."""
    def nothing():
        started = b.unit("plymouth-start.service", "InactiveExitTimestampMonotonic")
        expect(started.get("InactiveExitTimestampMonotonic") == "0", f"plymouth-start.service ran: {started}")
        text = b.output("journalctl -b -u patternlock.service -o cat --no-pager", 60)
        expect("boot splash" not in text, "the lock spoke of a boot splash: " + text[-400:])
        return "plymouth-start.service never started; the lock went on without a splash"
    b.check("with plymouth left out, no splash ran and the lock took the display by itself", nothing)


def brief_stages(b):
    """2 (--brief). The unit started once; where the time to the lock went."""
    def active():
        props = b.unit("patternlock.service", "ActiveState", "NRestarts",
                       "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
        expect(props.get("ActiveState") == "active" and props.get("NRestarts") == "0", f"{props}")
        first_flip = (int(props["ActiveEnterTimestampMonotonic"]) - int(props["ExecMainStartTimestampMonotonic"])) / 1e6
        b.timings.append(f"process start to first flip (READY) {first_flip:.2f} s")
        return f"active, started once; process start to first flip {first_flip:.2f} s"
    b.check("patternlock.service is active (READY sent) and started once", active)
    b.check("where the time to the lock goes (the kernel's clock)", lambda: boot_stages(b))


def boot_stages(b):
    """When, on the kernel's clock, the display card's driver bound, the lock's process
    started and it flipped its first frame, and what the unit waited for (not judged)."""
    bound = b.output("journalctl -k -b -o short-monotonic --no-pager -g 'Initialized virtio_gpu' | head -n 1", 60)
    props = b.unit("patternlock.service", "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic",
                   "InactiveExitTimestampMonotonic")
    chain = b.output("systemd-analyze critical-chain patternlock.service --no-pager 2>&1 | tail -n +3 | head -n 8", 60)
    bound_at = bound.split("]")[0].lstrip("[").strip() if bound.startswith("[") else "?"
    # getty@tty1 is ordered after systemd-user-sessions.service: on this image without
    # the lock, tty1's login prompt could have come no earlier than that.
    sessions = b.unit("systemd-user-sessions.service", "ActiveEnterTimestampMonotonic")
    stages = (f"display driver bound {bound_at} s, lock unit started {int(props['InactiveExitTimestampMonotonic']) / 1e6:.1f} s, "
              f"its first flip {int(props['ActiveEnterTimestampMonotonic']) / 1e6:.1f} s after the kernel started; "
              f"getty's login prompt no earlier than {int(sessions['ActiveEnterTimestampMonotonic']) / 1e6:.1f} s "
              f"(systemd-user-sessions.service, which getty@tty1 follows)")
    b.timings.append(stages)
    print("  critical chain of patternlock.service:\n    " + "\n    ".join(chain.splitlines()), flush=True)
    return stages


def service_state(b):
    """2. The unit, the boot times, the calibration rule."""
    def active():
        props = b.unit("patternlock.service", "ActiveState", "SubState", "Type", "NRestarts",
                       "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
        expect(props.get("ActiveState") == "active", f"{props}")
        b.restarts = int(props.get("NRestarts", "0"))
        # The lock waits for its display driver (display-wait-s) instead of failing with
        # "no DRM device" and being restarted each second until the driver binds.
        with b.console.changed:
            no_drm = sum(1 for l in b.console.lines if "no DRM device found" in l and "waiting" not in l)
        expect(b.restarts == 0 and no_drm == 0,
               f"the lock was restarted {b.restarts} times before its first picture ({no_drm} 'no DRM device' exits)")
        started = int(props["ExecMainStartTimestampMonotonic"])
        ready = int(props["ActiveEnterTimestampMonotonic"])
        first_flip = (ready - started) / 1e6
        b.timings.append(f"process start to first flip (READY) {first_flip:.2f} s, {b.restarts} restarts")
        return (f"{props['ActiveState']} ({props['SubState']}), Type={props['Type']}; started once (0 restarts); "
                f"process start to first flip (READY=1) {first_flip:.2f} s, the process started {started / 1e6:.1f} s after the kernel")
    b.check("patternlock.service is active (READY sent) and started once: no restart before its first picture", active)

    def analyze():
        # The lock comes before the rest of the boot: systemd may still be starting units.
        until = b.within(120)
        while True:
            text = b.output("systemd-analyze time 2>&1 | head -n 1", 60)
            if text.startswith("Startup finished in "):
                break
            if time.monotonic() > until:
                raise Failure(f"systemd-analyze time still says: {text}")
            time.sleep(2)
        b.timings.append(text.replace("Startup finished in ", "systemd: "))
        return text
    b.check("systemd-analyze: boot finished", analyze)
    b.check("where the time to the lock goes (the kernel's clock)", lambda: boot_stages(b))

    def calibrated():
        # The boot's finish does not wait for udev's queue: under TCG the tablet's event
        # may still be in it, so the queue is let empty first and the answer waited for.
        until = b.within(60)
        while True:
            text = b.output("udevadm settle --timeout=30; for d in /sys/class/input/event*; do "
                            "[ \"$(cat $d/device/name)\" = 'QEMU Virtio Tablet' ] && "
                            "udevadm info -q property -p $d | grep '^LIBINPUT_CALIBRATION_MATRIX='; done; true", 60)
            if text.startswith("LIBINPUT_CALIBRATION_MATRIX=1 0 0 0 1 0") or time.monotonic() > until:
                break
            time.sleep(1.0)
        expect(text.startswith("LIBINPUT_CALIBRATION_MATRIX=1 0 0 0 1 0"), f"udev gave the tablet: {text!r}")
        return text
    b.check("the calibration rule in /etc/udev/rules.d reached the tablet", calibrated)


def vt_switch_blocked(b):
    """3. Ctrl+Alt+F2 while locked."""
    # tty2 allocated (opened once), so that only the lock can stop the switch.
    b.output("printf 'tty2\\n' >/dev/tty2")

    def blocked():
        b.send_keys("ctrl", "alt", "f2")
        time.sleep(2.0)
        vt = b.active_vt()
        expect(vt == "tty1", f"the active VT is {vt}")
        b.picture("idle", 3)
        return "tty1 stays active, the lock stays on screen"
    b.check("Ctrl+Alt+F2 while locked does not switch VTs", blocked)


def wrong_then_right(b):
    """4 and 5. A wrong pattern, then the right one; the unit restarts the lock."""
    wrong_line, = expected_lines(b.dir, "wrong")
    mark = b.console.mark()
    b.draw(b.wrong_steps)
    # The verdict is looked for from the lift on (the judgement at the .deb's Argon2id
    # cost takes about a second under TCG), then watched until it goes: it must last
    # feedback-ms from its first frame, however long the judgement took (a verdict timed
    # from the lift lasted feedback-ms minus the judgement, or not at all).
    b.check("the wrong verdict on screen equals the headless render", lambda: b.picture("wrong-verdict", 60))

    def verdict_held():
        width, height, want = b.reference("wrong-verdict")
        first = last = time.monotonic()
        while time.monotonic() - first < b.feedback / 1000 + 10:
            _, _, got = b.screendump("wrong-verdict.actual", machine.DISPLAY)
            if got != want:
                break
            last = time.monotonic()
        shown = last - first
        # The screendumps see the verdict's end late by one read at most, its start too.
        expect(shown >= b.feedback / 1000 - 0.4, f"the wrong verdict was seen for only {shown:.1f} s")
        return f"seen for {shown:.1f} s of screendumps"

    b.check(f"the wrong verdict lasts its feedback time ({b.feedback} ms) from its first frame, whatever the judgement cost",
            verdict_held)
    b.check(f"wrong pattern 7-8-9-6 with the tablet: the journal says {wrong_line}",
            lambda: b.journal_line(mark, "patternlock[", 20) and b.journal_line(mark, wrong_line, 20) and None)
    b.check("the journal gives the attempt's finger-to-screen figures (input to flip, median and p99)",
            lambda: b.journal_line(mark, "input to flip: median", 20) and None)
    b.check("then the idle picture with one failure", lambda: b.picture("idle-1-failure", b.feedback / 1000 + 5))

    lines = expected_lines(b.dir, "wrong-then-right")
    right_line = lines[-1]
    mark = b.console.mark()
    b.draw(b.right_steps)
    b.check(f"right pattern {PATTERN} with the tablet: the journal says {right_line}",
            lambda: b.journal_line(mark, right_line, 20) and None)
    b.check("the accepted verdict on screen equals the headless render", lambda: b.picture("right-verdict", b.feedback / 1000 - 0.5))
    unlocked = time.monotonic()

    def restarted():
        b.picture("idle", b.feedback / 1000 + 30)
        seconds = time.monotonic() - unlocked
        props = b.unit("patternlock.service", "ActiveState", "NRestarts")
        want = b.restarts + 1
        expect(props.get("ActiveState") == "active" and props.get("NRestarts") == str(want), f"NRestarts {want} expected: {props}")
        b.timings.append(f"unlock to lock again {seconds:.1f} s")
        return f"the idle picture again {seconds:.1f} s after the unlock; restarted once more (NRestarts={want})"
    b.check("as shipped (Restart=always) the unit brings the lock back after the unlock", restarted)


def login_after_unlock(b):
    """6. The guide's override: an unlock ends the unit and starts the getty."""
    # What `systemctl edit patternlock.service` writes, with the guide's lines.
    b.output("mkdir -p /etc/systemd/system/patternlock.service.d && "
             "printf '[Unit]\\nOnSuccess=getty@tty1.service\\n[Service]\\nRestartPreventExitStatus=0\\n' "
             ">/etc/systemd/system/patternlock.service.d/override.conf && systemctl daemon-reload && "
             "systemctl restart patternlock.service", 60)
    b.require("with the override the restarted lock is on screen", lambda: b.picture("idle", 30))
    mark = b.console.mark()
    b.draw(b.right_steps)
    b.check("the right pattern unlocks", lambda: b.journal_line(mark, '"unlocked"', 20) and None)
    unlocked = time.monotonic()

    def login_prompt():
        until = b.within(b.feedback / 1000 + 30)
        while True:
            status, lines = b.run("grep -c 'login:' /dev/vcs1 2>/dev/null; cat /sys/class/tty/tty0/active")
            if lines and lines[0] != "0" and time.monotonic() > unlocked:
                break
            if time.monotonic() > until:
                raise Failure(f"no login prompt on tty1 ({lines})")
            time.sleep(1.0)
        seconds = time.monotonic() - unlocked
        props = b.unit("patternlock.service", "ActiveState", "Result", "NRestarts")
        expect(props.get("ActiveState") in ("inactive", "deactivating") and props.get("Result") == "success", f"patternlock.service: {props}")
        getty = b.unit("getty@tty1.service", "ActiveState")
        expect(getty.get("ActiveState") == "active", f"getty@tty1.service: {getty}")
        _, _, screen = b.screendump("login")
        lit = lit_pixels(screen)
        expect(lit > 1000, f"the screen shows {lit} lit pixels: no text; see {b.work}/login.ppm")
        os.remove(os.path.join(b.work, "login.ppm"))
        b.timings.append(f"unlock to login prompt {seconds:.1f} s")
        return f"{seconds:.1f} s after the unlock; the unit inactive (Result=success), getty@tty1 active, {lit} lit pixels of text"
    b.check("with the guide's override an unlock ends the unit and tty1 shows a login prompt", login_prompt)

    def switches():
        b.send_keys("ctrl", "alt", "f2")
        time.sleep(2.0)
        vt = b.active_vt()
        expect(vt == "tty2", f"the active VT is {vt}")
        b.send_keys("ctrl", "alt", "f1")
        return "tty2 became active (the keys reach the guest; only the lock blocked them)"
    b.check("unlocked, Ctrl+Alt+F2 does switch VTs", switches)


# ---- The kiosk (trixie): docs/raspberry-pi.md's "Kiosk" recipe with cage and foot ----
KIOSK_UNIT = "patternlock-kiosk.service"
# foot's background in the test's kiosk (a drop-in's -o colors.background=1e5aa0).
KIOSK_BACKGROUND = bytes((0x1E, 0x5A, 0xA0))
# relock-idle-s in the kiosk image: long enough for the checks before it, short for the test.
RELOCK_IDLE_S = 60


def kiosk_share(rgb):
    """The share of pixels in foot's background colour: the kiosk's own frame."""
    step = 3 * 7
    return sum(1 for i in range(0, len(rgb), step) if rgb[i:i + 3] == KIOSK_BACKGROUND) / (len(rgb) // step)


def classify(rgb, lock_frames):
    """What a screendump shows: 'lock' (one of the lock's frames), 'kiosk' (foot's
    background on most of it), 'console' (a text console: black with lit pixels),
    'black' (nothing at all) or 'other'."""
    if rgb in lock_frames:
        return "lock"
    if kiosk_share(rgb) > 0.5:
        return "kiosk"
    lit = lit_pixels(rgb)
    background = darkest(rgb)
    if background == b"\0\0\0" and lit == 0:
        return "black"
    if background == b"\0\0\0" and lit < len(rgb) // 3 // 4:
        return "console"
    return "other"


def scanout_owner(b):
    """The program that made the framebuffer on the primary plane ('allocated by' in the
    DRM state in debugfs): patternlock, cage, or the kernel's fbdev emulation (a console)."""
    text = b.output("awk '/plane\\[/ { p = 1 } p && /allocated by/ { print $NF; exit }' /sys/kernel/debug/dri/0/state")
    return text.strip() or "nothing"


def watch_switch(b, name, lock_frames, until_kind, within):
    """Screendumps as fast as QMP gives them until one shows `until_kind`. Every frame
    before it must be the lock's or the kiosk's: a frame that is neither (cage's black
    background before foot maps, say) is looked up in the DRM state, and its framebuffer
    must be patternlock's or cage's, never the console's. Returns (seconds, frame counts
    by kind, the owners of the frames that were neither)."""
    start = time.monotonic()
    until = b.within(within)
    counts, owners = {}, {}
    while True:
        _, _, shot = b.screendump(name)
        kind = classify(shot, lock_frames)
        counts[kind] = counts.get(kind, 0) + 1
        if kind not in ("lock", "kiosk"):
            owner = scanout_owner(b)
            owners[owner] = owners.get(owner, 0) + 1
            if owner not in ("patternlock", "cage"):
                os.replace(os.path.join(b.work, name + ".ppm"), os.path.join(b.work, f"{name}-{kind}.ppm"))
                raise Failure(f"a frame showed {kind} after {time.monotonic() - start:.1f} s, its framebuffer {owner}'s "
                              f"(see {b.work}/{name}-{kind}.ppm); frames so far {counts}")
        if kind == until_kind:
            os.remove(os.path.join(b.work, name + ".ppm"))
            return time.monotonic() - start, counts, owners
        if time.monotonic() > until:
            raise Failure(f"no {until_kind} frame within {within} s; frames {counts}, owners of the others {owners}")


def kiosk_pids(b):
    """cage's and foot's PIDs."""
    cage = b.output(f"systemctl show -p MainPID --value {KIOSK_UNIT}")
    foot = b.output("pidof foot || true")
    return cage, foot


def kiosk_after_unlock(b):
    """7. The kiosk: an unlock starts it on tty7 as user kiosk, in a logind session of its
    own; the lock's last frame stays until the kiosk draws (no console in between)."""
    _, _, verdict = b.reference("right-verdict")
    _, _, idle = b.reference("idle")
    b.lock_frames = [verdict, idle]
    b.output("mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug")
    mark = b.console.mark()
    b.draw(b.right_steps)
    b.check("right pattern: the journal says unlocked", lambda: b.journal_line(mark, '"unlocked"', 20) and None)
    unlocked = time.monotonic()

    def handed_off():
        seconds, counts, owners = watch_switch(b, "hand-off", b.lock_frames, "kiosk", 150)
        b.timings.append(f"unlock to kiosk {time.monotonic() - unlocked:.1f} s")
        return (f"foot drew {seconds:.1f} s after the unlock; the frames before: {counts.get('lock', 0)} the lock's last "
                f"picture, then {sum(owners.values())} of cage's own (framebuffers by {owners}), none of the console")
    b.require("after the unlock the kiosk (cage and foot) draws, with no console frame before it", handed_off)

    def session():
        vt = b.active_vt()
        expect(vt == "tty7", f"the active VT is {vt}")
        text = b.output("loginctl list-sessions --no-legend")
        expect(any("kiosk" in line and "tty7" in line for line in text.splitlines()), f"sessions: {text!r}")
        lock = b.unit("patternlock.service", "ActiveState", "NRestarts")
        expect(lock.get("ActiveState") == "active", f"patternlock.service: {lock}")
        user = b.output("ps -o user= -p $(pidof cage)")
        expect(user == "kiosk", f"cage runs as {user!r}")
        b.kiosk_pids = kiosk_pids(b)
        return f"tty7 active; cage runs as kiosk in its logind session on tty7 (PIDs cage/foot {'/'.join(b.kiosk_pids)}); the lock still runs behind it"
    b.check("the kiosk runs as user kiosk in its own logind session on tty7, the lock unit stays active", session)


def relock_asked(b):
    """8. `patternlock lock` brings the lock back over the running kiosk; a wrong pattern
    is refused there, the right one switches back to the kiosk as it was."""
    asked = time.monotonic()
    b.output("patternlock lock")

    def locked():
        seconds, counts, _ = watch_switch(b, "relock", b.lock_frames, "lock", 30)
        b.picture("idle", 10)
        vt = b.active_vt()
        expect(vt == "tty1", f"the active VT is {vt}")
        b.timings.append(f"'patternlock lock' to the lock {time.monotonic() - asked:.1f} s")
        return f"the lock's idle picture {seconds:.1f} s after 'patternlock lock' ({counts}); tty1 active"
    b.require("'patternlock lock': the lock is back on top of the kiosk, only kiosk frames before it", locked)

    mark = b.console.mark()
    b.draw(b.wrong_steps)
    b.check("a wrong pattern at the relocked screen: the wrong verdict, not the kiosk",
            lambda: b.journal_line(mark, '"wrong"', 20) and b.picture("wrong-verdict", b.feedback / 1000 - 0.5))
    b.check("then the idle picture with one failure", lambda: b.picture("idle-1-failure", b.feedback / 1000 + 5))
    mark = b.console.mark()
    b.draw(b.right_steps)

    def back():
        b.journal_line(mark, '"unlocked"', 20)
        _, _, one_failure = b.reference("idle-1-failure")
        seconds, counts, _ = watch_switch(b, "back", b.lock_frames + [one_failure], "kiosk", 60)
        b.kiosk_shown = time.monotonic()
        pids = kiosk_pids(b)
        expect(pids == b.kiosk_pids, f"cage/foot PIDs were {b.kiosk_pids}, now {pids}")
        vt = b.active_vt()
        expect(vt == "tty7", f"the active VT is {vt}")
        return f"the kiosk again {seconds:.1f} s after the right pattern ({counts}); same cage and foot (PIDs {'/'.join(pids)}), tty7"
    b.require("the right pattern switches back to the same kiosk (never restarted)", back)


MQTT_BASE = "patternlock/patternlock"


def retained(b, topic):
    """The retained payload on `topic` at the image's own Mosquitto broker."""
    return b.output(f"mosquitto_sub -h localhost -t {topic} -C 1 -W 5 2>/dev/null || true", within=20)


def audit_events(b, count):
    """The events of the audit log's last `count` entries."""
    text = b.output(f"patternlock log --json | tail -n {count}")
    return [json.loads(line)["event"] for line in text.splitlines() if line.startswith("{")]


def relock_over_mqtt(b):
    """8b. Home Assistant's LOCK over MQTT (the image's broker, patternlock-mqtt.service
    behind patternlock-events.socket): the lock comes back over the kiosk; UNLOCK at the
    lock is refused (remote-unlock is no) and logged; the right pattern opens as before."""
    def reporting():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if retained(b, MQTT_BASE + "/availability") == "online" and retained(b, MQTT_BASE + "/state") == "UNLOCKED":
                return "patternlock mqtt is online and the lock's link says UNLOCKED (the kiosk is open)"
            time.sleep(2)
        raise Failure(f"availability {retained(b, MQTT_BASE + '/availability')!r}, state {retained(b, MQTT_BASE + '/state')!r}; "
                      f"{b.output('systemctl status patternlock-mqtt.service --no-pager | tail -n 5; true')}")
    b.require("patternlock mqtt reports the running lock: online, UNLOCKED while the kiosk shows", reporting)

    asked = time.monotonic()
    b.output(f"mosquitto_pub -h localhost -t {MQTT_BASE}/command -m LOCK")

    def locked():
        seconds, counts, _ = watch_switch(b, "mqtt-relock", b.lock_frames, "lock", 30)
        b.picture("idle", 10)
        expect(b.active_vt() == "tty1", "the lock's VT is not active")
        expect("remote-lock" in audit_events(b, 3), f"the audit log ends {audit_events(b, 3)}")
        state = retained(b, MQTT_BASE + "/state")
        expect(state == "LOCKED", f"the retained state is {state!r}")
        b.timings.append(f"MQTT LOCK to the lock {time.monotonic() - asked:.1f} s")
        return f"the lock's idle picture {seconds:.1f} s after LOCK ({counts}); remote-lock logged, LOCKED retained"
    b.require("MQTT LOCK: the lock is back over the kiosk, logged, and Home Assistant told LOCKED", locked)

    def unlock_refused():
        b.output(f"mosquitto_pub -h localhost -t {MQTT_BASE}/command -m UNLOCK")
        deadline = time.monotonic() + 20
        while "remote-unlock-refused" not in audit_events(b, 3):
            expect(time.monotonic() < deadline, f"no remote-unlock-refused; the audit log ends {audit_events(b, 3)}")
            time.sleep(1)
        b.picture("idle", 5)
        expect(b.active_vt() == "tty1", "the kiosk's VT became active")
        return "refused and logged (remote-unlock-refused); the lock stays on tty1"
    b.check("MQTT UNLOCK without remote-unlock: the lock stays, the refusal is logged", unlock_refused)

    mark = b.console.mark()
    b.draw(b.right_steps)

    def back():
        b.journal_line(mark, '"unlocked"', 20)
        seconds, counts, _ = watch_switch(b, "mqtt-back", b.lock_frames, "kiosk", 60)
        b.kiosk_shown = time.monotonic()
        expect(kiosk_pids(b) == b.kiosk_pids, "the kiosk was restarted")
        return f"the same kiosk {seconds:.1f} s after the right pattern ({counts})"
    b.require("the right pattern after the MQTT relock: the same kiosk again", back)


def relock_idle(b):
    """9. relock-idle-s without input in the kiosk: the lock comes back by itself."""
    def idle_lock():
        shown = b.kiosk_shown
        b.picture("idle", RELOCK_IDLE_S + 30)
        seconds = time.monotonic() - shown
        expect(seconds > RELOCK_IDLE_S - 3, f"the lock came back after {seconds:.1f} s, before relock-idle-s = {RELOCK_IDLE_S}")
        pids = kiosk_pids(b)
        expect(pids == b.kiosk_pids, f"cage/foot PIDs were {b.kiosk_pids}, now {pids}")
        return f"the lock {seconds:.0f} s after the kiosk was shown (relock-idle-s = {RELOCK_IDLE_S}); the kiosk still runs behind it"
    b.check(f"relock-idle-s = {RELOCK_IDLE_S}: with no input the lock comes back over the kiosk", idle_lock)


def kiosk_closed(b, name, within, is_back=None):
    """Screendumps as fast as QMP gives them for `within` s, or with `is_back` until the
    lock's idle picture shows and is_back() says it is the lock expected (not the
    killed one's last frame): none may show the kiosk (foot's background, or a
    framebuffer of cage's on the primary plane), whatever VT is active. Returns
    (seconds, frame counts by kind, the framebuffers' owners, the VTs seen active)."""
    _, _, idle = b.reference("idle")
    start = time.monotonic()
    until = start + within
    counts, owners, vts = {}, {}, []
    while True:
        width, height, shot = b.screendump(name)
        kind = classify(shot, b.lock_frames) if b.full_size(width, height) else f"{width}x{height}"
        counts[kind] = counts.get(kind, 0) + 1
        # The active VT and the scanout's owner in one round trip.
        vt, _, owner = b.output("cat /sys/class/tty/tty0/active; awk '/plane\\[/ { p = 1 } "
                                "p && /allocated by/ { print $NF; exit }' /sys/kernel/debug/dri/0/state").partition("\n")
        owner = owner.strip() or "nothing"
        owners[owner] = owners.get(owner, 0) + 1
        if vt not in vts:
            vts.append(vt)
        if kind == "kiosk" or owner == "cage":
            os.replace(os.path.join(b.work, name + ".ppm"), os.path.join(b.work, f"{name}-kiosk.ppm"))
            with open(os.path.join(b.work, f"{name}-kiosk.drm"), "w", encoding="utf-8") as f:
                f.write(b.output("cat /sys/kernel/debug/dri/0/state /sys/kernel/debug/dri/0/framebuffer; pidof cage foot; true"))
            raise Failure(f"the kiosk was on screen {time.monotonic() - start:.1f} s in ({vt} active, a {kind} frame, "
                          f"framebuffer {owner}'s; see {b.work}/{name}-kiosk.ppm and .drm); frames so far {counts}")
        if is_back is not None and shot == idle and vt == "tty1" and is_back():
            os.remove(os.path.join(b.work, name + ".ppm"))
            return time.monotonic() - start, counts, owners, vts
        if time.monotonic() > until:
            os.remove(os.path.join(b.work, name + ".ppm"))
            if is_back is not None:
                raise Failure(f"the lock's idle picture did not come back within {within} s; frames {counts}, owners {owners}, VTs {vts}")
            return time.monotonic() - start, counts, owners, vts


def kiosk_drawn(b, name, within):
    """Screendumps until foot's background fills the screen (any frames before)."""
    start = time.monotonic()
    until = b.within(within)
    while True:
        width, height, shot = b.screendump(name)
        if b.full_size(width, height) and classify(shot, b.lock_frames) == "kiosk":
            os.remove(os.path.join(b.work, name + ".ppm"))
            return time.monotonic() - start
        if time.monotonic() > until:
            raise Failure(f"foot did not draw within {within} s; last screendump {b.work}/{name}.ppm")
        time.sleep(0.2)


def cgroups_frozen(b, pids):
    """Each process's cgroup v2 and its `frozen` flag (cgroup.events): the processes
    themselves, as pam_systemd moves cage out of its unit's cgroup into the session's
    scope (freezing the unit alone left cage running)."""
    found = {}
    for pid in pids:
        path = b.output(f"cut -d: -f3 /proc/{pid}/cgroup")
        found[pid] = (path, b.output(f"sed -n 's/^frozen //p' /sys/fs/cgroup{path}/cgroup.events"))
    return found


def frozen_kiosk(b):
    """The kiosk's unit: active, frozen, the same cage and foot, and they are frozen."""
    props = b.unit(KIOSK_UNIT, "ActiveState", "FreezerState")
    expect(props.get("ActiveState") == "active" and props.get("FreezerState") == "frozen", f"{KIOSK_UNIT}: {props}")
    pids = kiosk_pids(b)
    expect(pids == b.kiosk_pids, f"cage/foot PIDs were {b.kiosk_pids}, now {pids}")
    groups = cgroups_frozen(b, pids)
    expect(all(frozen == "1" for _, frozen in groups.values()), f"not every kiosk process is frozen: {groups}")
    return (f"{KIOSK_UNIT} active and frozen, cage/foot {'/'.join(pids)} as before, frozen in "
            f"{', '.join(sorted({path for path, _ in groups.values()}))}")


def unlock_to_same_kiosk(b, name):
    """The right pattern at the lock: the kiosk is back, thawed, with the same PIDs."""
    mark = b.console.mark()
    b.draw(b.right_steps)
    b.journal_line(mark, '"unlocked"', 20)
    seconds, counts, _ = watch_switch(b, name, b.lock_frames, "kiosk", 60)
    pids = kiosk_pids(b)
    expect(pids == b.kiosk_pids, f"cage/foot PIDs were {b.kiosk_pids}, now {pids}")
    props = b.unit(KIOSK_UNIT, "FreezerState")
    expect(props.get("FreezerState") == "running", f"{KIOSK_UNIT}: {props}")
    groups = cgroups_frozen(b, pids)
    expect(all(frozen == "0" for _, frozen in groups.values()), f"a kiosk process is still frozen: {groups}")
    return f"the kiosk {seconds:.1f} s after the right pattern ({counts}); thawed, same cage and foot ({'/'.join(pids)})"


def lock_killed(b):
    """10. The lock's process SIGKILLed while locked over the kiosk, then a VT switch to
    the kiosk's VT at once (chvt 7 and Ctrl+Alt+F7): the kiosk never shows; the lock
    restarted by its unit comes back and the right pattern shows the same kiosk."""
    main = b.output("systemctl show -p MainPID --value patternlock.service")
    restarts = int(b.unit("patternlock.service", "NRestarts")["NRestarts"])
    killed = time.monotonic()
    # The switch as soon as the process is gone (reaped): before that the kernel would
    # still ask it to release tty1, and the request would wait for an answer never given.
    b.output(f"systemctl kill -s KILL patternlock.service; while [ -e /proc/{main} ]; do sleep 0.02; done; timeout 5 busybox chvt 7 || true")
    b.send_keys("ctrl", "alt", "f7")

    def closed():
        seconds, counts, owners, vts = kiosk_closed(
            b, "killed", 90, is_back=lambda: b.output("systemctl show -p MainPID --value patternlock.service") not in (main, "0"))
        expect("tty7" in vts, f"tty7 never became active after the kill (VTs seen {vts}, frames {counts}, framebuffers {owners}): "
                              "the switch was not tried")
        props = b.unit("patternlock.service", "NRestarts", "MainPID")
        expect(int(props["NRestarts"]) == restarts + 1 and props["MainPID"] != main, f"patternlock.service: {props}")
        b.timings.append(f"SIGKILL to the lock again {time.monotonic() - killed:.1f} s")
        return (f"the lock (PID {main}) killed, then tty7 made active: no kiosk frame in {seconds:.1f} s until the restarted "
                f"lock's idle picture (frames {counts}, framebuffers {owners}, VTs {vts})")
    b.check("SIGKILL of the lock, then chvt 7: the kiosk is never on screen, the restarted lock comes back", closed)
    b.check("after the kill the kiosk stays frozen behind the lock", lambda: frozen_kiosk(b))
    b.require("the right pattern at the restarted lock shows the same kiosk", lambda: unlock_to_same_kiosk(b, "after-kill"))


def lock_stopped(b):
    """11. `systemctl stop patternlock` while locked over the kiosk, then chvt 7: no kiosk
    on screen, it stays frozen; root's thaw shows it (the check sees a live kiosk);
    the lock started again freezes it first, and the right pattern shows it."""
    b.output("patternlock lock")
    b.require("'patternlock lock' brings the lock back over the kiosk", lambda: b.picture("idle", 30))
    b.output("systemctl stop patternlock.service; timeout 5 busybox chvt 7 || true", 120)
    b.send_keys("ctrl", "alt", "f7")

    def closed():
        seconds, counts, owners, vts = kiosk_closed(b, "stopped", 15)
        expect("tty7" in vts, f"tty7 never became active after the stop (VTs seen {vts})")
        lock = b.unit("patternlock.service", "ActiveState")
        expect(lock.get("ActiveState") in ("inactive", "failed"), f"patternlock.service: {lock}")
        return f"patternlock.service {lock['ActiveState']}, tty7 active: no kiosk frame in {seconds:.0f} s (frames {counts}, framebuffers {owners})"
    b.check("'systemctl stop patternlock', then chvt 7: the kiosk is not on screen", closed)
    b.check("after the stop the kiosk stays frozen", lambda: frozen_kiosk(b))

    def thawed():
        # What the lock thaws: the slice of tty7's owner (cage is in its session's scope there) and the unit.
        units = f"user-{b.output('stat -c %u /dev/tty7')}.slice {KIOSK_UNIT}"
        b.output(f"systemctl thaw {units}")
        seconds = kiosk_drawn(b, "thawed", 60)
        return f"foot drew {seconds:.1f} s after 'systemctl thaw {units}' with tty7 active: only the freezer kept it off the screen"
    b.check("root's 'systemctl thaw' with the lock stopped shows the kiosk (what the checks above look for)", thawed)

    b.output("systemctl start --no-block patternlock.service")
    b.require("the lock started again comes back over the running kiosk", lambda: b.picture("idle", 60))
    b.check("the lock started over a running kiosk froze it first", lambda: frozen_kiosk(b))


def kiosk_ends(b):
    """12. The kiosk ends (its program exits): the lock is back and stays."""
    b.require("the right pattern shows the same kiosk again", lambda: unlock_to_same_kiosk(b, "again"))
    ended = time.monotonic()
    b.output("kill $(pidof foot)")

    def lock_back():
        b.picture("idle", 30)
        seconds = time.monotonic() - ended
        vt = b.active_vt()
        expect(vt == "tty1", f"the active VT is {vt}")
        kiosk = b.unit(KIOSK_UNIT, "ActiveState")
        expect(kiosk.get("ActiveState") in ("inactive", "failed"), f"{KIOSK_UNIT}: {kiosk}")
        b.timings.append(f"kiosk end to lock {seconds:.1f} s")
        return f"the lock's idle picture {seconds:.1f} s after foot was killed; tty1 active, {KIOSK_UNIT} {kiosk['ActiveState']}"
    b.check("when the kiosk ends the lock is back on screen", lock_back)


KIOSK_SCENARIOS = (power_on_to_lock, splash_handed_over, service_state, vt_switch_blocked, kiosk_after_unlock, relock_asked, relock_over_mqtt, relock_idle,
                   lock_killed, lock_stopped, kiosk_ends)
SCENARIOS = (power_on_to_lock, splash_handed_over, service_state, vt_switch_blocked, wrong_then_right, login_after_unlock)
# A second boot of the same image, to the lock only (another kernel command line).
BRIEF_SCENARIOS = (power_on_to_lock, splash_handed_over, splash_left_out, brief_stages)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--write-captures":
        write_captures(sys.argv[2], sys.argv[3], Layout.load(sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", required=True, help="the Debian release (for the messages)")
    parser.add_argument("--dir", required=True, help="what scripts/test-boot prepared")
    parser.add_argument("--feedback-ms", type=int, default=3000, help="the image's feedback-ms")
    parser.add_argument("--timeout", type=float, default=420.0)
    parser.add_argument("--kiosk", action="store_true", help="the image follows the guide's Kiosk section: check it instead of the restart and the login prompt")
    parser.add_argument("--splash", action="store_true", help="the image has plymouth with the test's splash theme")
    parser.add_argument("--kernel-arg", action="append", help="added to DIR/cmdline.txt for this boot (repeatable)")
    parser.add_argument("--brief", action="store_true", help="check the boot to the lock only")
    args = parser.parse_args()
    args.dir = os.path.abspath(args.dir)
    choose_references(os.path.join(args.dir, "references"))

    board = BootBoard(args)

    def report():
        print(f"timings ({args.suite}, under TCG, not judged): " + "; ".join(board.timings), flush=True)

    scenarios = BRIEF_SCENARIOS if args.brief else KIOSK_SCENARIOS if args.kiosk else SCENARIOS
    left_out = "plymouth.enable=0" in (args.kernel_arg or [])
    if not args.splash or left_out:
        scenarios = tuple(s for s in scenarios if s is not splash_handed_over)
    if not args.splash or not left_out:
        scenarios = tuple(s for s in scenarios if s is not splash_left_out)
    return board.run_scenarios(scenarios, f"boot {args.suite}", report)

if __name__ == "__main__":
    sys.exit(main())
