#!/usr/bin/env python3
"""Boots the QEMU image and checks it over the serial console and QMP (stdlib only).

Usage: qemu_test.py --expected FILE --screendump OUT.png [--timeout S] [--log FILE]

Starts `scripts/qemu-run --headless --mode replay`, then:
  1. connects to QMP and negotiates capabilities (`qmp_capabilities`);
  2. waits for the guest's `PL-READY` (display and input devices up) and checks that
     udev tagged an input device `ID_INPUT=1` (`PL-INPUT` lines);
  3. takes a `screendump` of the virtio-gpu display as PNG and checks its size and
     that the guest's console text shows (more than one colour), then
     sends a tablet tap with `input-send-event` to the display device;
  4. waits for `PL-DONE` and compares the guest's `PL-OUT/ERR/FRAME/STATUS/CAPTURES`
     lines with FILE (the same lines from the host build), naming the first difference;
  5. waits for the guest to power off (QMP `quit` if it does not).
Every wait is bounded by --timeout (whole run). Exit 0 when all checks pass, 1 otherwise.
Prints the timings and one line per check.
"""
import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

RESULT_PREFIXES = ("PL-OUT ", "PL-ERR ", "PL-FRAME ", "PL-STATUS ", "PL-CAPTURES ")
DISPLAY = "video0"
WIDTH, HEIGHT = 800, 480


class Failure(Exception):
    """A check failed; the message says which and why."""


class Console:
    """Collects the guest's serial console lines from QEMU's stdout."""

    def __init__(self, stream, log):
        self.lines = []
        self.changed = threading.Condition()
        self.closed = False
        self._log = log
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").replace("\r", "").rstrip("\n")
            self._log.write(line + "\n")
            self._log.flush()
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def mark(self):
        """The index the next line will have (for `wait`'s `since`)."""
        with self.changed:
            return len(self.lines)

    def wait(self, predicate, since, deadline, what):
        """The first line from index `since` on that satisfies predicate; Failure on
        PL-FAIL, EOF or timeout."""
        with self.changed:
            while True:
                for line in self.lines[since:]:
                    if line.startswith("PL-FAIL"):
                        raise Failure(f"guest reported: {line}")
                    if predicate(line):
                        return line
                if self.closed:
                    raise Failure(f"QEMU exited while waiting for {what}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise Failure(f"no {what} on the console in time")
                self.changed.wait(remaining)

    def wait_for(self, prefix, deadline):
        """The first line starting with prefix."""
        return self.wait(lambda line: line.startswith(prefix), 0, deadline, prefix)


class QMP:
    """A minimal QMP client over a UNIX socket."""

    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise Failure(f"cannot connect to QMP at {path}")
                time.sleep(0.05)
        self.sock.settimeout(max(1.0, deadline - time.monotonic()))
        self.reader = self.sock.makefile("rb")
        greeting = self._message()
        if "QMP" not in greeting:
            raise Failure(f"unexpected QMP greeting: {greeting}")
        self.execute("qmp_capabilities")

    def _message(self):
        line = self.reader.readline()
        if not line:
            raise Failure("QMP connection closed")
        return json.loads(line)

    def execute(self, command, **arguments):
        request = {"execute": command}
        if arguments:
            request["arguments"] = arguments
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            reply = self._message()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise Failure(f"QMP {command} failed: {reply['error'].get('desc', reply['error'])}")
            # Anything else is an asynchronous event; skip it.

    def close(self):
        self.sock.close()


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise Failure(f"screendump {path} is not a PNG file")
    return struct.unpack(">II", head[16:24])


def distinct_colours(path):
    """How many different pixel values a PNG holds (decoded with scripts/lib/pngdiff.py)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import pngdiff
    _, _, rows = pngdiff.decode(path)
    return len({pixel for row in rows for pixel in row})


def compare(expected_path, console_lines):
    with open(expected_path, encoding="utf-8") as f:
        expected = [line.rstrip("\n") for line in f if line.startswith(RESULT_PREFIXES)]
    actual = [line for line in console_lines if line.startswith(RESULT_PREFIXES)]
    for index, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            raise Failure(f"guest result line {index + 1} differs:\n  host:  {want}\n  guest: {got}")
    if len(expected) != len(actual):
        raise Failure(f"host printed {len(expected)} result lines, guest {len(actual)}")
    if not expected:
        raise Failure("no result lines to compare (no captures?)")
    return len(expected)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expected", required=True, help="host transcript (replay-captures output)")
    parser.add_argument("--screendump", required=True, help="where to write the PNG screendump")
    parser.add_argument("--timeout", type=float, default=100.0, help="seconds for the whole run")
    parser.add_argument("--log", default=".build/qemu/console.log", help="serial console log")
    args = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    start = time.monotonic()
    deadline = start + args.timeout
    qmp_dir = tempfile.mkdtemp(prefix="patternlock-qmp.")
    qmp_path = os.path.join(qmp_dir, "qmp.sock")
    os.makedirs(os.path.dirname(os.path.abspath(args.log)), exist_ok=True)
    log = open(args.log, "w", encoding="utf-8")
    qemu = subprocess.Popen(
        [os.path.join(root, "scripts", "qemu-run"), "--headless", "--mode", "replay", "--qmp", qmp_path],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    console = Console(qemu.stdout, log)
    qmp = None
    timings = []
    passed = 0

    def ok(message):
        nonlocal passed
        passed += 1
        print("ok   " + message)

    try:
        qmp = QMP(qmp_path, min(deadline, time.monotonic() + 20))
        ok("QMP connected, capabilities negotiated")
        console.wait_for("PL-READY", deadline)
        timings.append(f"ready {time.monotonic() - start:.1f} s")
        inputs = [line for line in console.lines if line.startswith("PL-INPUT ")]
        if not any("ID_INPUT=1" in line for line in inputs):
            raise Failure(f"udev tagged no input device ID_INPUT=1 (PL-INPUT lines: {inputs})")
        ok(f"udev initialised input devices: {'; '.join(line[9:] for line in inputs)}")

        # The guest wrote a line of text to the framebuffer console; the display
        # updates asynchronously, so retry for up to 5 s until it shows.
        screendump = os.path.abspath(args.screendump)
        shot_deadline = min(deadline, time.monotonic() + 5)
        while True:
            if os.path.exists(screendump):
                os.remove(screendump)
            qmp.execute("screendump", filename=screendump, format="png", device=DISPLAY)
            size = png_size(screendump)
            if size != (WIDTH, HEIGHT):
                raise Failure(f"screendump is {size[0]}x{size[1]}, expected {WIDTH}x{HEIGHT}")
            colours = distinct_colours(screendump)
            if colours > 1 or time.monotonic() > shot_deadline:
                break
            time.sleep(0.25)
        if colours < 2:
            raise Failure(f"screendump {args.screendump} is one flat colour: the guest's console text never reached the display")
        ok(f"screendump {args.screendump} ({size[0]}x{size[1]} PNG, {colours} colours)")

        # A tap in the middle of the display (absolute axes run 0..32767).
        for down in (True, False):
            qmp.execute("input-send-event", device=DISPLAY, events=[
                {"type": "abs", "data": {"axis": "x", "value": 16384}},
                {"type": "abs", "data": {"axis": "y", "value": 16384}},
                {"type": "btn", "data": {"button": "left", "down": down}},
            ])
        ok("input-send-event accepted by the display device")

        done = console.wait_for("PL-DONE", deadline)
        timings.append(f"replays done {time.monotonic() - start:.1f} s (guest {done.split()[-1]} s)")
        count = compare(args.expected, console.lines)
        ok(f"guest replay results equal the host's ({count} lines)")

        try:
            qemu.wait(timeout=max(1.0, min(15.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            raise Failure("the guest did not power off after PL-DONE")
        timings.append(f"powered off {time.monotonic() - start:.1f} s")
        ok(f"guest powered off; timings: {', '.join(timings)}")
        print(f"vm: {passed} passed, 0 failed")
        return 0
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr)
        print(f"vm: {passed} passed, 1 failed")
        tail = [line for line in console.lines[-15:]]
        if tail:
            print("  last console lines (full log: " + args.log + "):", file=sys.stderr)
            for line in tail:
                print("  | " + line, file=sys.stderr)
        return 1
    finally:
        shut_down(qemu, qmp, log, qmp_path, qmp_dir)


def shut_down(qemu, qmp, log, qmp_path, qmp_dir):
    """Quits QEMU over QMP (kills it if it does not go within 5 s), then closes the
    QMP connection and the console log and removes the QMP socket's directory."""
    if qemu.poll() is None:
        try:
            if qmp is not None:
                qmp.execute("quit")
            qemu.wait(timeout=5)
        except (Failure, OSError, subprocess.TimeoutExpired):
            qemu.kill()
            qemu.wait()
    if qmp is not None:
        qmp.close()
    log.close()
    try:
        os.remove(qmp_path)
    except OSError:
        pass
    os.rmdir(qmp_dir)


if __name__ == "__main__":
    sys.exit(main())
