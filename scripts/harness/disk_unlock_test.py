#!/usr/bin/env python3
"""The disk-unlock boots of scripts/test-disk-unlock: a Debian trixie arm64 image whose
root file system is LUKS2, bound to a software TPM with the pattern as the TPM's PIN by
`patternlock disk enroll`, booted through dracut's initramfs with patternlock's module on
QEMU's `virt` machine (virtio-gpu 800x480, virtio tablet and keyboard, swtpm behind the
tpm-tis-device).

  boot 1 (the enrolled TPM):
    1. the lock is the first picture: from power-on until it, every screendump is black
       (never text), and the agent says which disk it asks for (the volume's name);
    2. a wrong pattern: the verdict's red on screen;
    3. the right pattern: the PIN is taken, the root file system is /dev/mapper/root and
       the system reaches multi-user.target; the agent's service did not fail; then a
       clean power-off.
  the TPM's lockout counter, read with tpm2-tools on the host before and after: higher,
    and not in lockout.
  boot 2: wrong patterns (each asked again drawn again) until the TPM refuses: then
    systemd-cryptsetup asks for the passphrase, the lock gives way to the console's agent
    on tty1 (its prompt on screen), the recovery passphrase typed on the keyboard opens
    the disk and the system reaches multi-user.
  the lockout counter at its limit, and the TPM in lockout.
  boot 3: the same disk with another TPM (a fresh swtpm state), and the lock on fbdev
    (initrd-fbdev.img: the initramfs with `device = /dev/fb0`): the lock first, through
    fbdev; the right pattern (drawn again if systemd-cryptsetup asks twice) never opens
    the disk; the passphrase is asked for instead.

Prints "ok"/"FAIL" per check and ends with "disk-unlock: N passed, N failed".
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boot_test import BootBoard  # noqa: E402  (the harness directory, added above)
from lib import machine  # noqa: E402
from lib.checks import Failure, expect  # noqa: E402
from lib.console import ShellConsole, SocketPipe  # noqa: E402
from lib.swtpm import SoftwareTPM  # noqa: E402

WRONG_DOTS = [1, 2, 3, 6]
RIGHT_DOTS = [2, 5, 9, 4, 3]
# What the agent writes to the journal (forwarded to the serial console).
ASKING = "password-agent: asking for the pattern: "
TAKEN = "password-agent: the PIN was taken"
REFUSED = "password-agent: the TPM refused; a passphrase is asked from the keyboard"
ASKED_AGAIN = "password-agent: the PIN was refused; asked again"


class DiskBoard(BootBoard):
    """BootBoard with the software TPM of `tpm_dir` behind the machine's TPM device."""

    def __init__(self, args):
        super().__init__(args)
        self.tpm = None
        self.passphrase = args.passphrase

    def boot_with(self, tpm_dir, initrd="initrd.img"):
        self.tpm = SoftwareTPM(tpm_dir, self.control_dir, os.path.join(self.dir, os.path.basename(tpm_dir) + ".log"))
        socket_path = self.tpm.start()
        with open(os.path.join(self.dir, "cmdline.txt"), encoding="utf-8") as f:
            command_line = f.read().strip()
        command = machine.debian_board(self.dir, self.qmp_path, self.control_path, command_line).tpm(socket_path)
        command.base[command.base.index("-initrd") + 1] = os.path.join(self.dir, initrd)
        self.start(command, shell=False)
        import socket
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(self.control_path)
        self.shell = ShellConsole(SocketPipe(sock), self.control_log)

    def power_off(self):
        """A clean power-off (the TPM's state saved by swtpm as QEMU goes)."""
        self.shell.send("systemctl poweroff")
        try:
            self.qemu.wait(timeout=max(5, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise Failure("the guest did not power off")
        self.qmp.close()
        self.qmp = None
        self.tpm.stop()

    def quit(self):
        machine.stop(self.qemu, self.qmp)
        self.qmp = None
        self.tpm.stop()

    def check_value(self, name, body):
        """`check`, returning what `body` returned (None when it failed)."""
        kept = {}

        def keep():
            kept["value"] = body()
        self.check(name, keep)
        return kept.get("value")

    def lit_dot(self, dot, rgb):
        """The colour at dot `dot`'s centre."""
        x, y = self.layout.centre(dot)
        i = (y * self.layout.width + x) * 3
        return rgb[i], rgb[i + 1], rgb[i + 2]

    def is_lock(self, rgb):
        """A lock screen: every dot's centre light (the idle grid) or red (a verdict)."""
        return all(max(self.lit_dot(d, rgb)) > 150 for d in range(1, 10))

    def wait_for_lock(self, within):
        """Screendumps until the lock shows; fails on any picture before it that is not
        black (text, a cursor). Returns the seconds from power-on."""
        until = self.within(within)
        start = self.boots[-1]
        n = 0
        while True:
            n += 1
            width, height, rgb = self.screendump("before-lock")
            if (width, height) == (self.layout.width, self.layout.height) and self.is_lock(rgb):
                return time.monotonic() - start
            # QEMU's own notice until the guest sets a mode is another size.
            if (width, height) == (self.layout.width, self.layout.height) and rgb != rgb[:3] * (len(rgb) // 3):
                os.replace(os.path.join(self.work, "before-lock.ppm"), os.path.join(self.work, "text-before-lock.ppm"))
                raise Failure(f"screendump {n}, {time.monotonic() - start:.1f} s after power-on, shows something "
                              f"before the lock (text-before-lock.ppm)")
            if time.monotonic() > until:
                raise Failure(f"no lock on screen within {within} s of power-on")
            time.sleep(0.2)

    def wait_for_text(self, within):
        """Waits until the screen shows neither the lock nor black: the console's text."""
        until = self.within(within)
        while True:
            width, height, rgb = self.screendump("passphrase-prompt")
            if (width, height) == (self.layout.width, self.layout.height) and not self.is_lock(rgb) \
                    and rgb != rgb[:3] * (len(rgb) // 3):
                return
            if time.monotonic() > until:
                raise Failure(f"no text on screen within {within} s of the lock giving way")
            time.sleep(0.3)

    def console_line(self, since, text, within):
        return self.console.wait(lambda l: text in l, since, self.within(within), f"'{text}' on the serial console")

    def multi_user(self, within):
        """Waits for the control shell and for multi-user.target; the root's source."""
        self.shell_up(within)
        until = self.within(within)
        while self.output("systemctl is-active multi-user.target || true") != "active":
            if time.monotonic() > until:
                raise Failure(f"multi-user.target not active within {within} s")
            time.sleep(1)
        return self.output("findmnt -n -o SOURCE /")

    def type_line(self, text):
        keys = {" ": "spc", "-": "minus", ".": "dot"}
        for ch in text:
            self.send_keys(keys.get(ch, ch))
            time.sleep(0.05)
        self.send_keys("ret")


def lockout_state(tpm_dir):
    """(lockout counter, max tries, in lockout) of the TPM in `tpm_dir`, read with
    tpm2-tools' tpm2_getcap over a swtpm started on the state for the purpose."""
    port = 27000 + os.getpid() % 2000 * 2
    process = subprocess.Popen(
        ["swtpm", "socket", "--tpm2", "--tpmstate", f"dir={tpm_dir}", "--server", f"type=tcp,bindaddr=127.0.0.1,port={port}",
         "--ctrl", f"type=tcp,bindaddr=127.0.0.1,port={port + 1}", "--flags", "not-need-init,startup-clear"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        tcti = f"swtpm:host=127.0.0.1,port={port}"
        text = ""
        for _ in range(50):
            result = subprocess.run(["tpm2_getcap", "-T", tcti, "properties-variable"], capture_output=True, text=True)
            if result.returncode == 0:
                text = result.stdout
                break
            time.sleep(0.1)
        fixed = subprocess.run(["tpm2_getcap", "-T", tcti, "properties-variable"], capture_output=True, text=True).stdout
    finally:
        process.terminate()
        process.wait()

    def value(name):
        match = re.search(name + r":\s*(?:raw:\s*)?(0x[0-9a-fA-F]+|\d+)", text + fixed)
        if not match:
            raise Failure(f"tpm2_getcap printed no {name}")
        return int(match.group(1), 0)
    in_lockout = re.search(r"inLockout:\s*(\d)", text)
    return value("TPM2_PT_LOCKOUT_COUNTER"), value("TPM2_PT_MAX_AUTH_FAIL"), bool(in_lockout and in_lockout.group(1) == "1")


def reached_multi_user(b, name):
    """The check `name`: multi-user.target reached with / on the opened volume."""
    def body():
        source = b.multi_user(240)
        expect(source == "/dev/mapper/root", f"/ is {source}, not /dev/mapper/root")
    b.check(name, body)


def run(b, args):
    enrolled = os.path.join(b.dir, "tpm")
    wrong, right = b.layout.gesture(WRONG_DOTS), b.layout.gesture(RIGHT_DOTS)

    before, max_tries, _ = lockout_state(enrolled)
    print(f"  the TPM after enrolment: lockout counter {before} of {max_tries}")

    # Boot 1.
    b.boot_with(enrolled)
    seconds = b.check_value("the lock is the first picture (only black before it)", lambda: b.wait_for_lock(300))
    if seconds is not None:
        print(f"  power-on to the lock: {seconds:.1f} s")
    line = b.check_value("the agent asks for the root volume's PIN, naming the volume",
                         lambda: b.console_line(0, ASKING, 60))
    if line is not None and " root (" not in line:
        b.fail(f"the agent's prompt names no volume: {line}")
    since = len(b.console.lines)
    b.draw(wrong)

    def red_verdict():
        until = b.within(20)
        while True:
            _, _, rgb = b.screendump("wrong")
            r, g, bl = b.lit_dot(1, rgb)
            if r > 180 and g < 120:
                return f"dot 1 is red {r, g, bl}"
            if time.monotonic() > until:
                raise Failure(f"no red verdict on screen after the wrong pattern (dot 1 is {r, g, bl})")
            time.sleep(0.1)
    b.check_value("a wrong pattern: the wrong verdict on screen", red_verdict)
    time.sleep(args.feedback_ms / 1000 + 1)
    since = len(b.console.lines)
    b.draw(right)
    b.check_value("the right pattern: the TPM takes the PIN", lambda: b.console_line(since, TAKEN, 120))
    reached_multi_user(b, "the root file system is the opened volume and multi-user.target is reached")
    b.check("the agent's service ended cleanly once the PIN was taken (stopped at the switch to the root or not)",
            lambda: expect(not any("patternlock-password-agent.service: Failed" in line for line in b.console.lines),
                           "systemd says the service failed"))
    b.check_value("a clean power-off", b.power_off)
    counter, max_tries, locked = lockout_state(enrolled)
    print(f"  the TPM after boot 1: lockout counter {counter} of {max_tries}")
    b.check("the TPM counted the wrong pattern and is not in lockout", lambda: expect(
        counter > before and not locked, f"lockout counter {before} before the boot, {counter} of {max_tries} after it, "
        f"in lockout: {locked}"))

    # Boot 2.
    b.boot_with(enrolled)
    b.check_value("boot 2: the lock is the first picture", lambda: b.wait_for_lock(300))
    b.console_line(0, ASKING, 60)

    def wrong_until_refused():
        """Wrong patterns until the TPM refuses (each asked again is drawn again)."""
        since = len(b.console.lines)
        for drawn in range(1, max_tries + 1):
            b.draw(wrong)
            line = b.console.wait(lambda l: REFUSED in l or ASKED_AGAIN in l, since, b.within(120), "the agent's verdict")
            if REFUSED in line:
                return f"after {drawn} wrong pattern{'s' if drawn > 1 else ''}"
            since = len(b.console.lines)
            time.sleep(args.feedback_ms / 1000 + 1)
        raise Failure(f"the PIN was still asked for after {max_tries} wrong patterns")
    b.check_value("wrong patterns until the TPM refuses: the lock gives way to the keyboard", wrong_until_refused)
    b.check_value("the console's agent asks for the passphrase on tty1 (text on screen)", lambda: b.wait_for_text(60))
    b.type_line(b.passphrase)
    reached_multi_user(b, "the recovery passphrase typed on the keyboard opens the disk: multi-user.target")
    b.check_value("a clean power-off", b.power_off)
    counter, max_tries, locked = lockout_state(enrolled)
    b.check("the TPM's lockout counter reached its limit and the TPM is in lockout", lambda: expect(
        counter >= max_tries and locked, f"lockout counter {counter} of {max_tries}, in lockout: {locked}"))

    # Boot 3: the disk moved to another device (another TPM).
    b.boot_with(os.path.join(b.dir, "other-tpm"), initrd="initrd-fbdev.img")
    b.check_value("another TPM, the lock on fbdev: the lock is the first picture", lambda: b.wait_for_lock(300))
    b.check_value("the lock is drawn through fbdev (/dev/fb0)",
                  lambda: b.console_line(0, "patternlock: showing the lock on /dev/fb0", 60))
    since = len(b.console.lines)
    b.draw(right)
    # systemd-cryptsetup may ask once more (its own TPM2 path after the token plugin's):
    # the same pattern again.
    line = b.console.wait(lambda l: REFUSED in l or ASKED_AGAIN in l, since, b.within(120), "the agent's verdict")
    if ASKED_AGAIN in line:
        time.sleep(args.feedback_ms / 1000 + 1)
        b.draw(right)
    b.check_value("another TPM: the right pattern does not open the disk; the passphrase is asked instead",
                  lambda: b.console_line(since, REFUSED, 120))
    b.check("another TPM: the PIN was never taken", lambda: expect(
        not any(TAKEN in line for line in b.console.lines), "the agent says the PIN was taken"))
    b.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="root.img, vmlinuz, initrd.img, cmdline.txt, layout.json, tpm/")
    parser.add_argument("--passphrase", required=True, help="the volume's recovery passphrase")
    parser.add_argument("--feedback-ms", type=int, default=3000)
    parser.add_argument("--timeout", type=int, default=900)
    args = parser.parse_args()
    args.kernel_arg = []
    b = DiskBoard(args)
    return b.run_scenarios([lambda board: run(board, args)], "disk-unlock")


if __name__ == "__main__":
    sys.exit(main())
