"""An emulated board under test: QEMU, its QMP socket and serial console, the deadline
that bounds every wait, the work directory, the reference pictures, the tablet and
the check counters."""
import os
import subprocess
import sys
import tempfile
import time

from . import pictures
from .checks import Checks, Failure, Skip
from .console import Console, ShellConsole
from .layout import STEP_SECONDS
from .machine import DISPLAY, stop
from .qmp import QMP


class Board(Checks):
    """What a harness's steps share. `start` boots a QemuCommand (again after a
    `power_cut`); the rest reads the display and drives the tablet."""

    def __init__(self, work, log_path, timeout, layout, references=None):
        super().__init__()
        self.start_time = time.monotonic()
        self.deadline = self.start_time + timeout
        self.work = os.path.abspath(work)
        os.makedirs(self.work, exist_ok=True)
        self.layout = layout
        self.references_dir = references
        self.references = {}
        self.qmp_dir = tempfile.mkdtemp(prefix="patternlock-qmp.")
        self.qmp_path = os.path.join(self.qmp_dir, "qmp.sock")
        self.log_path = log_path
        os.makedirs(os.path.dirname(os.path.abspath(log_path)), exist_ok=True)
        self.log = open(log_path, "w", encoding="utf-8")
        self.qemu = self.console = self.qmp = None
        self.boots = []
        self.timings = []

    def run_scenarios(self, scenarios, summary, report=None, finish=None):
        """Runs `scenarios` in order (a failed `require` skips the rest), then `report`
        (the figures to print) and `finish` (a clean power-off); a Failure or OSError
        outside a check counts as one failed check. Closes the board, prints the total
        time and "SUMMARY: N passed, N failed", and returns the exit status."""
        try:
            try:
                for scenario in scenarios:
                    scenario(self)
            except Skip:
                pass  # its check failed and was counted
            if report:
                report()
            if finish:
                finish()
        except (Failure, OSError, subprocess.SubprocessError) as failure:
            self.fail(str(failure))
        finally:
            self.close()
        print(f"total {time.monotonic() - self.start_time:.1f} s")
        print(f"{summary}: {self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1

    def within(self, seconds):
        """The deadline `seconds` from now (never later than the whole test's)."""
        return min(self.deadline, time.monotonic() + seconds)

    # The machine.

    def start(self, command, shell=True, qmp_within=20):
        """Boots `command` (a machine.QemuCommand): with `shell` the console takes
        commands (ShellConsole), otherwise it is only read. Returns once QMP answers."""
        self.boots.append(time.monotonic())
        self.log.write(f"==== boot {len(self.boots)} ====\n")
        if shell:
            self.qemu = command.start()
            self.console = ShellConsole(self.qemu, self.log)
        else:
            self.qemu = command.start(stdin=subprocess.DEVNULL)
            self.console = Console(self.qemu.stdout, self.log)
        self.qmp = QMP(self.qmp_path, self.within(qmp_within))

    def wait_for_shell(self):
        """Waits for the image's shell (init's PL-SHELL, `shell` mode) and replaces it by
        a plain read-eval loop: ash's line editor queries the cursor position and
        garbles input sent while it waits; background jobs and markers still work."""
        self.console.wait(lambda l: l.startswith("PL-SHELL"), 0, self.deadline, "PL-SHELL (the guest's shell)")
        self.console.send("stty -echo; exec sh -c 'while IFS= read -r line; do eval \"$line\"; done'")

    def power_cut(self):
        """Kills QEMU: no shutdown, no sync, no unmount; only what reached the disk stays."""
        self.qemu.kill()
        self.qemu.wait()
        self.qmp.close()
        self.qmp = None

    def close(self):
        """After a failure, the console's last lines; then QEMU stopped, the log closed
        and the QMP socket's directory removed."""
        if self.failed and self.console is not None:
            print(f"  last console lines (full log: {self.log_path}):", file=sys.stderr)
            for line in self.console.lines[-15:]:
                print("  | " + line, file=sys.stderr)
        if self.qemu is not None:
            stop(self.qemu, self.qmp)
        self.log.close()
        if os.path.exists(self.qmp_path):
            os.remove(self.qmp_path)
        os.rmdir(self.qmp_dir)

    # The display.

    def reference(self, name):
        """(width, height, RGB) of REFERENCES/NAME.png, decoded once."""
        if name not in self.references:
            self.references[name] = pictures.decode_png_rgb(os.path.join(self.references_dir, name + ".png"))
        return self.references[name]

    def screendump(self, name, device=DISPLAY):
        """(width, height, RGB) of the display now; the PPM stays as WORK/NAME.ppm."""
        path = os.path.join(self.work, name + ".ppm")
        self.qmp.execute("screendump", filename=path, device=device)
        return pictures.decode_ppm(path)

    def video_memory(self, name, address, width, height):
        """(width, height, RGB bytes) of the RGB565 frame at guest physical `address` (a
        display's video memory, read by QMP's pmemsave), each channel widened to 8 bits."""
        path = os.path.join(self.work, name + ".rgb565")
        self.qmp.execute("pmemsave", val=address, size=width * height * 2, filename=path)
        with open(path, "rb") as f:
            words = f.read()
        os.remove(path)
        return width, height, pictures.rgb565_to_rgb(words, width, height)

    def displayed(self, name, device, memory_at, size):
        """What the display shows: a screendump, or its video memory at `memory_at`."""
        if memory_at is None:
            return self.screendump(name, device)
        return self.video_memory(name, memory_at, *size)

    def picture(self, name, window, device=DISPLAY, rgb565=False, memory_at=None):
        """Screendumps until the display shows reference `name` (within `window` s).
        With `rgb565` both are compared as 16-bit pixels (the top 5, 6 and 5 bits of
        each channel): the device's RGB565 words against the headless render's, however
        each widened them to 8 bits for the picture. With `memory_at` (a guest physical
        address), the device's video memory there is read instead of a screendump."""
        width, height, want = self.reference(name)
        want = pictures.quantised_565(want) if rgb565 else want
        what = "screendump" if memory_at is None else "video memory"
        until = self.within(window)
        tries = 0
        while True:
            tries += 1
            got_w, got_h, got = self.displayed(name + ".actual", device, memory_at, (width, height))
            got = pictures.quantised_565(got) if rgb565 else got
            if (got_w, got_h) != (width, height):
                raise Failure(f"screendump is {got_w}x{got_h}, the reference {width}x{height}")
            if got == want:
                if memory_at is None:
                    os.remove(os.path.join(self.work, name + ".actual.ppm"))
                return f"{what} equals the headless render {name}.png ({tries} read{'s' if tries > 1 else ''})"
            if time.monotonic() > until:
                raise Failure(f"{what} of {name} is not {self.references_dir}/{name}.png: "
                              f"{pictures.first_difference(want, got, width)}")
            time.sleep(0.1)

    # The tablet.

    def tablet(self, x_pixels, y_pixels, down=None):
        """Moves the tablet to a panel pixel, pressing or releasing the left button."""
        x, y = self.layout.tablet_point(x_pixels, y_pixels)
        events = [{"type": "abs", "data": {"axis": "x", "value": x}}, {"type": "abs", "data": {"axis": "y", "value": y}}]
        if down is not None:
            events.append({"type": "btn", "data": {"button": "left", "down": down}})
        self.qmp.execute("input-send-event", device=DISPLAY, events=events)

    def draw(self, steps):
        """The tablet through `steps` (Layout.gesture's), STEP_SECONDS apart."""
        for x, y, down in steps:
            self.tablet(x, y, down)
            time.sleep(STEP_SECONDS)

