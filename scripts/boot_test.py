#!/usr/bin/env python3
"""The boot test of a Debian arm64 image with systemd (stdlib only).

Usage: boot_test.py --suite NAME --dir DIR [--feedback-ms MS] [--timeout S]
       boot_test.py --write-captures DIR TEMPLATE.yaml   (the tablet gestures' captures)

DIR is what scripts/test-boot prepared for one Debian release: root.img (the image with
the .deb installed and docs/raspberry-pi.md followed: the pattern 1-2-3-6-9 set,
install.sh --harden run), vmlinuz and initrd.img, and references/ (the headless renders
of the gestures below by the image's own binary, `replay --state-dir --dump`).

Boots the image on QEMU's `virt` machine (TCG, virtio-gpu 800x480, virtio tablet and
keyboard, virtio-blk root, the serial console on ttyAMA0 and a root shell on the virtio
console hvc0, the test's way in) and checks:

  1. from power-on, screendumps every half second until the display equals the headless
     idle picture: the seconds from power-on to the lock; nothing before it showed text
     (no login prompt: tty1 had only its cursor), and systemd never started
     getty@tty1 or a serial getty, and no "login:" reached the serial console;
  2. patternlock.service is active (Type=notify: READY once the lock is on screen) and
     the kernel and userspace boot times (systemd-analyze); the guide's calibration rule
     reached the tablet (udev property LIBINPUT_CALIBRATION_MATRIX);
  3. Ctrl+Alt+F2 (QMP send-key) while locked: tty1 stays the active VT, the lock stays;
  4. a wrong pattern (7-8-9-6) dragged with the tablet: the journal's result line equals
     the headless replay's, the screen shows the wrong verdict, then the idle picture
     with one failure;
  5. the right pattern (1-2-3-6-9): the result line, the accepted picture; the unit as
     shipped (Restart=always) starts the lock again: idle picture, NRestarts=1;
  6. the guide's override (OnSuccess=getty@tty1.service, RestartPreventExitStatus=0)
     added with `systemctl edit`'s drop-in, the lock restarted and unlocked again: the
     unit stays inactive, getty@tty1 runs and tty1 shows its login prompt; and now
     Ctrl+Alt+F2 does switch to tty2 (so the keys reach the guest and step 3 means
     something).
Every wait is bounded by --timeout. Prints "ok"/"FAIL" per check, the timings, and ends
with "boot NAME: N passed, N failed".
"""
import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_test import (Board, Console as ShellConsole, Skip, TABLET_STEPS, WIDTH, HEIGHT,  # noqa: E402
                      expect, first_difference, lit_pixels, write_tablet_capture)
from qemu_test import QMP, Console as SerialConsole, Failure  # noqa: E402

PATTERN = "1-2-3-6-9"
# The right pattern 1-2-3-6-9 with the tablet, in panel pixels (x, y, button).
RIGHT_STEPS = [(416, 96, None), (416, 96, True), (560, 96, None), (704, 96, None), (704, 240, None),
               (704, 384, None), (704, 384, False)]
STEP_SECONDS = 0.15
# Between the two gestures of the combined capture: the verdict ends first.
GAP_SECONDS = 5.0
# tty1 with only its cursor lights a few dozen pixels; a login prompt over a thousand.
MAX_LIT_BEFORE_LOCK = 400
KERNEL_COMMAND_LINE = "console=ttyAMA0 root=/dev/vda rw panic=-1"


def write_capture(out, gestures, template):
    """A `libinput record` capture of QEMU's virtio tablet doing `gestures`, GAP_SECONDS
    between them (e2e_test's writer)."""
    write_tablet_capture(out, gestures, template, GAP_SECONDS)


class SocketPipe:
    """The control shell's socket with the stdin/stdout pair e2e_test's Console uses."""

    def __init__(self, sock):
        self.stdout = sock.makefile("rb")
        self.stdin = sock.makefile("wb")


class BootBoard(Board):
    """e2e_test's Board (checks, screendumps, the tablet) on the systemd image: the serial
    console is `console`, the root shell on hvc0 is `shell`."""

    def __init__(self, args):
        args.work = args.dir
        args.log = os.path.join(args.dir, "console.log")
        args.disk = os.path.join(args.dir, "root.img")
        args.references = os.path.join(args.dir, "references")
        super().__init__(args)
        self.shell = None
        self.restarts = 0
        self.control_log = open(os.path.join(args.dir, "control.log"), "w", encoding="utf-8")
        self.control_dir = tempfile.mkdtemp(prefix="patternlock-boot.")
        self.control_path = os.path.join(self.control_dir, "control.sock")

    def boot(self):
        """Powers the machine on; returns once QMP answers (the guest is still booting)."""
        self.boots.append(time.monotonic())
        d = self.args.dir
        command = [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024",
            "-no-reboot", "-nic", "none", "-display", "none", "-serial", "mon:stdio",
            "-device", "virtio-gpu-pci,xres=800,yres=480,id=video0",
            "-device", "virtio-tablet-pci,id=tablet0", "-device", "virtio-keyboard-pci,id=keyboard0",
            "-drive", f"file={self.disk},format=raw,if=none,id=root0,cache=unsafe", "-device", "virtio-blk-pci,drive=root0",
            "-device", "virtio-serial-pci,id=virtio-serial0",
            "-chardev", f"socket,id=control,path={self.control_path},server=on,wait=off",
            "-device", "virtconsole,chardev=control",
            "-kernel", os.path.join(d, "vmlinuz"), "-initrd", os.path.join(d, "initrd.img"),
            "-append", KERNEL_COMMAND_LINE,
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
        ]
        self.qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.console = SerialConsole(self.qemu.stdout, self.log)
        self.qmp = QMP(self.qmp_path, self.within(20))
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
        with self.shell.changed:
            lines = [l for l in self.shell.lines[since:] if not l.startswith("PL-E2E-RC ")]
        return status, lines

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


def power_on_to_lock(b):
    """1. The lock is the first thing on screen."""
    b.boot()
    _, _, idle = b.reference("idle")
    start = b.boots[-1]
    shots = lit_max = 0
    text_at = None
    until = b.within(300)
    while True:
        width, height, shot = b.screendump("boot")
        now = time.monotonic() - start
        shots += 1
        if (width, height) == (WIDTH, HEIGHT):
            if shot == idle:
                break
            lit = lit_pixels(shot)
            if lit > lit_max:
                lit_max = lit
                if lit > MAX_LIT_BEFORE_LOCK and text_at is None:
                    text_at = now
                    os.replace(os.path.join(b.work, "boot.ppm"), os.path.join(b.work, "before-lock.ppm"))
        if time.monotonic() > until:
            raise Failure(f"the lock was not on screen {now:.0f} s after power-on; last screendump {b.work}/boot.ppm: "
                          f"{first_difference(idle, shot, WIDTH) if len(shot) == len(idle) else f'{width}x{height}'}")
        time.sleep(0.5)
    os.remove(os.path.join(b.work, "boot.ppm"))
    b.lock_seconds = now
    b.timings.append(f"power-on to lock {now:.1f} s")
    b.ok(f"power-on to lock: {now:.1f} s; the screen equals the headless idle picture ({shots} screendumps)")
    b.check("nothing with text was on screen before the lock (no login prompt)",
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


def service_state(b):
    """2. The unit, the boot times, the calibration rule."""
    def active():
        props = b.unit("patternlock.service", "ActiveState", "SubState", "Type", "NRestarts")
        expect(props.get("ActiveState") == "active", f"{props}")
        b.restarts = int(props.get("NRestarts", "0"))
        # Started before udev loaded virtio_gpu, the lock exits with "no DRM device" and
        # the unit tries again each second (as the unit's comment says).
        with b.console.changed:
            no_drm = sum(1 for l in b.console.lines if "no DRM device found" in l)
        return (f"{props['ActiveState']} ({props['SubState']}), Type={props['Type']}; restarted {b.restarts} times "
                f"before that, {no_drm} of them for 'no DRM device' (the display driver loaded later)")
    b.check("patternlock.service is active (READY sent)", active)

    def analyze():
        text = b.output("systemd-analyze time 2>&1 | head -n 1", 60)
        b.timings.append(text.replace("Startup finished in ", "systemd: "))
        return text
    b.check("systemd-analyze: boot finished", analyze)

    def calibrated():
        text = b.output("for d in /sys/class/input/event*; do [ \"$(cat $d/device/name)\" = 'QEMU Virtio Tablet' ] && "
                        "udevadm info -q property -p $d | grep '^LIBINPUT_CALIBRATION_MATRIX='; done; true")
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
    wrong_line, = expected_lines(b.args.dir, "wrong")
    mark = b.console.mark()
    for x, y, down in TABLET_STEPS:
        b.tablet(x, y, down)
        time.sleep(STEP_SECONDS)
    b.check(f"wrong pattern 7-8-9-6 with the tablet: the journal says {wrong_line}",
            lambda: b.journal_line(mark, "patternlock[", 20) and b.journal_line(mark, wrong_line, 20) and None)
    b.check("the wrong verdict on screen equals the headless render", lambda: b.picture("wrong-verdict", b.feedback / 1000 - 0.5))
    b.check("then the idle picture with one failure", lambda: b.picture("idle-1-failure", b.feedback / 1000 + 5))

    lines = expected_lines(b.args.dir, "wrong-then-right")
    right_line = lines[-1]
    mark = b.console.mark()
    for x, y, down in RIGHT_STEPS:
        b.tablet(x, y, down)
        time.sleep(STEP_SECONDS)
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
    for x, y, down in RIGHT_STEPS:
        b.tablet(x, y, down)
        time.sleep(STEP_SECONDS)
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


SCENARIOS = (power_on_to_lock, service_state, vt_switch_blocked, wrong_then_right, login_after_unlock)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--write-captures":
        out, template = sys.argv[2], sys.argv[3]
        os.makedirs(out, exist_ok=True)
        write_capture(os.path.join(out, "wrong.yaml"), [TABLET_STEPS], template)
        write_capture(os.path.join(out, "wrong-then-right.yaml"), [TABLET_STEPS, RIGHT_STEPS], template)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", required=True, help="the Debian release (for the messages)")
    parser.add_argument("--dir", required=True, help="what scripts/test-boot prepared")
    parser.add_argument("--feedback-ms", type=int, default=3000, help="the image's feedback-ms")
    parser.add_argument("--timeout", type=float, default=420.0)
    args = parser.parse_args()
    args.dir = os.path.abspath(args.dir)
    choose_references(os.path.join(args.dir, "references"))

    board = BootBoard(args)
    try:
        try:
            for scenario in SCENARIOS:
                scenario(board)
        except Skip:
            pass  # its check failed and was counted
        print(f"timings ({args.suite}, under TCG, not judged): " + "; ".join(board.timings), flush=True)
    except (Failure, OSError) as failure:
        board.fail(str(failure))
    finally:
        board.close()
    print(f"total {time.monotonic() - board.start:.1f} s")
    print(f"boot {args.suite}: {board.passed} passed, {board.failed} failed")
    return 0 if board.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
