"""E2EBoard: the shared Board with what the end-to-end scenarios add (the state disk,
QEMU's traces, `patternlock run` on the console, the lockout's countdown pictures)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from lib import machine
from lib.board import Board
from lib.checks import Failure
from lib.pictures import decode_png_rgb, first_difference, lit_pixels, region
from lib.swtpm import SoftwareTPM

from .common import CAPTURES, DPI, INJECT, UNLOCK_DOTS, countdown_text, tablet_drag_steps


class E2EBoard(Board):
    """The shared Board (QEMU, QMP, the console, the deadline, pictures, the tablet) with
    what the end-to-end steps add: the state disk, QEMU's traces, `patternlock run` on
    the console, and the lockout's countdown pictures."""

    def __init__(self, args, layout):
        super().__init__(args.work, args.log, args.timeout, layout, args.references)
        self.disk = os.path.abspath(args.disk)
        self.feedback = args.feedback_ms
        self.gpio_trace = self.trace = None  # set by each boot
        self.transfers = []  # bytes per flip read from QEMU's virtio-gpu trace (not timings)
        self.peak_rss = []  # run's VmHWM read from the guest's /proc (a figure, not judged)
        self.run_since = None  # the console mark of the run start_run started last
        self.locked_at = None  # when the 5th failure locked the Vault (step 9; 10 and 11 count from it)
        self.tablet_steps, self.pause_step = tablet_drag_steps(layout)
        self.unlock_steps = layout.gesture(UNLOCK_DOTS)
        self.tpms = []  # the SoftwareTPMs made by `software_tpm`, stopped by `close`
        self.tpm_dir = None

    def software_tpm(self, name):
        """A new TPM chip: swtpm on an empty state directory NAME (under a temporary
        directory, with the control sockets), its log WORK/swtpm-NAME.log."""
        if self.tpm_dir is None:
            self.tpm_dir = tempfile.mkdtemp(prefix="patternlock-tpm.")
        tpm = SoftwareTPM(os.path.join(self.tpm_dir, name), self.tpm_dir, os.path.join(self.work, f"swtpm-{name}.log"))
        self.tpms.append(tpm)
        return tpm

    def close(self):
        super().close()
        for tpm in self.tpms:
            tpm.stop()
        if self.tpm_dir is not None:
            shutil.rmtree(self.tpm_dir, ignore_errors=True)

    def full_frame_bytes(self):
        """What every flip sent before damage reached the kernel: XRGB8888, whole."""
        return self.layout.width * self.layout.height * 4

    # The board.

    def boot(self, mode="shell", devices=(), tpm=None, dtb=None, board_options=()):
        """Starts the board with the state disk and waits for the guest's shell (or, in
        `run` mode, for the lock screen init starts). QEMU traces what virtio-gpu is
        told to send to the host and the board's PL061 GPIO outputs (what a door
        strike's relay sees), one file per boot (`self.trace`); `devices` are further
        QEMU devices; `tpm` (a SoftwareTPM) is the board's TPM chip; `dtb` a device tree
        to boot with instead of the one QEMU makes (`device_tree`); `board_options` are
        scripts/qemu-run's (`--render-card-first`, `--no-tablet`)."""
        self.trace = os.path.join(self.work, f"virtio-gpu-boot{len(self.boots) + 1}.trace")
        self.gpio_trace = self.trace
        command = machine.image_board(mode, self.qmp_path, self.disk, board_options)
        command.trace(["virtio_gpu_cmd_res_create_2d", "virtio_gpu_cmd_res_flush", "pl061_set_output"], self.trace)
        for device in devices:
            command.device(device)
        if tpm is not None:
            command.tpm(tpm.start())
        if dtb is not None:
            command.option("-dtb", dtb)
        self.start(command)
        if mode == "run":
            self.console.wait(lambda l: l.startswith("patternlock: showing the lock on"), 0, self.deadline, "the lock screen init starts")
            return f"boot {len(self.boots)}: the lock is on screen {time.monotonic() - self.boots[-1]:.1f} s after power-on"
        self.wait_for_shell()
        return f"boot {len(self.boots)}: guest shell up after {time.monotonic() - self.boots[-1]:.1f} s"

    def power_off(self):
        """Powers the guest off (the boot into the lock powers off by itself)."""
        if self.qemu.poll() is None:
            try:
                self.console.send("poweroff -f")
            except BrokenPipeError:
                pass  # QEMU closed its console between poll and send: already powering off
        try:
            self.qemu.wait(timeout=max(1.0, min(15.0, self.deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            self.fail("the guest did not power off")

    def device_tree(self, names=None, backlight_line=None):
        """QEMU's own device tree for this board with `gpio-line-names` added to the PL061
        (`names`: offset to name), as a board's device tree names its header's lines,
        and with `backlight_line`, a gpio-backlight on that PL061 line (on at boot), as a
        panel's backlight enable is wired on a board without PWM."""
        base = os.path.join(self.work, "virt")
        # No state disk: the board still runs it (QEMU locks the image), and PCI devices
        # are not in the device tree anyway.
        dump_dir = tempfile.mkdtemp(prefix="patternlock-dtb.")
        try:
            command = machine.image_board("shell", os.path.join(dump_dir, "qmp.sock"))
            command.option("-machine", f"dumpdtb={base}.dtb")
            dumped = subprocess.run(command.argv(), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        finally:
            shutil.rmtree(dump_dir, ignore_errors=True)
        if dumped.returncode != 0:
            raise Failure(f"QEMU could not dump its device tree (exit {dumped.returncode}): {dumped.stdout[-300:]}")
        dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", base + ".dtb"], check=True,
                             capture_output=True, text=True).stdout
        node = re.search(r"pl061@9030000 \{\n\t\tphandle = <(0x[0-9a-f]+)>;\n", dts)
        if node is None:
            raise Failure("QEMU's device tree has no pl061@9030000 node with a phandle")
        if names:
            line_names = ", ".join(f'"{names.get(offset, "")}"' for offset in range(8))
            dts = dts[:node.end()] + f"\t\tgpio-line-names = {line_names};\n" + dts[node.end():]
        if backlight_line is not None:
            start = node.start()
            backlight = (f"backlight {{\n\t\tcompatible = \"gpio-backlight\";\n"
                         f"\t\tgpios = <{node.group(1)} {backlight_line:#x} 0x00>;\n\t\tdefault-on;\n\t}};\n\n\t")
            dts = dts[:start] + backlight + dts[start:]
        out = base + ("-named" if names else "") + ("-backlight" if backlight_line is not None else "") + ".dtb"
        subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", out, "-"], input=dts, text=True, check=True)
        return out

    # QEMU's GPIO trace.

    def gpio_pulse(self, line, since, within):
        """Waits for QEMU's trace to show GPIO `line` driven high and then low again after
        byte `since` of the trace; returns the trace's lines for it."""
        high, low = f"setting output {line} to 1", f"setting output {line} to 0"
        until = self.within(within)
        while True:
            with open(self.gpio_trace, encoding="utf-8", errors="replace") as trace:
                trace.seek(since)
                lines = [l.strip() for l in trace if f"output {line} " in l]
            rise = next((i for i, l in enumerate(lines) if l.endswith(high)), None)
            if rise is not None and any(l.endswith(low) for l in lines[rise + 1:]):
                return lines
            if time.monotonic() > until:
                raise Failure(f"no pulse of GPIO line {line} in QEMU's PL061 trace (saw: {lines[-4:]})")
            time.sleep(0.2)

    def gpio_trace_size(self):
        return os.path.getsize(self.gpio_trace) if os.path.exists(self.gpio_trace) else 0

    # The display and the tablet.

    def text_mode(self):
        """The VT draws text again: text written to tty1 shows on the display."""
        shell_deadline = self.within(10)
        self.console.shell("printf '\\033[2J\\033[H' >/dev/tty1", shell_deadline)
        time.sleep(0.5)
        _, _, blank = self.screendump("console-cleared")
        self.console.shell("for i in 1 2 3 4 5 6 7 8; do echo \"console text after SIGTERM, line $i\"; done >/dev/tty1", shell_deadline)
        time.sleep(0.5)
        _, _, text = self.screendump("console-text")
        _, _, idle = self.reference("idle")
        before, after = lit_pixels(blank), lit_pixels(text)
        if text == idle or after < before + 2000:
            raise Failure(f"text written to tty1 after the exit did not show ({before} lit pixels cleared, {after} with text; "
                          f"the VT stayed in KD_GRAPHICS?); see {self.work}/console-text.ppm")
        return f"fbcon draws again: {before} lit pixels after clearing, {after} after 8 lines of text"

    def drag(self, steps):
        """The tablet through `steps`, STEP_SECONDS apart, then 1 s for the verdict."""
        self.draw(steps)
        time.sleep(1.0)  # the verdict (500 ms) ends before the next gesture starts

    # `patternlock run` on the console.

    def start_run(self, options, env=""):
        """Starts `patternlock run` in the background, its lines prefixed PL-RUN; `env`
        is put before the command (`NAME=value `). Returns its console mark."""
        self.run_since = self.console.mark()
        self.console.send(f"({env}patternlock run {DPI} {options}; echo \"exit $?\") 2>&1 | while read -r l; do echo \"PL-RUN $l\"; done &")
        return self.run_since

    def stop_run(self):
        """SIGTERM to the running `patternlock run`."""
        self.console.shell("kill -TERM $(pidof patternlock)", self.within(10))

    def inject(self, capture):
        """Injects a shipped capture in the background; returns the console mark before it."""
        mark = self.console.mark()
        self.console.send(f"{INJECT} {CAPTURES}/{capture}.yaml >/dev/null &")
        return mark

    def run_answers(self, since):
        """What run said about a pattern since `since`: result lines, unlocked, its exit."""
        return [l for l in self.console.since(since) if l.startswith(("PL-RUN {", "PL-RUN unlocked", "PL-RUN exit"))]

    def run_line(self, since, text, within, what=None):
        line = self.console.wait(lambda l: l.startswith("PL-RUN " + text), since, self.within(within), what or f"'{text}' from run")
        return line[len("PL-RUN "):]

    def run_json(self, since, within, what, predicate=lambda obj: True):
        """The next JSON object run printed after `since` that satisfies predicate."""
        def matches(line):
            if not line.startswith("PL-RUN {"):
                return False
            try:
                return predicate(json.loads(line[len("PL-RUN "):]))
            except ValueError:
                return False
        line = self.console.wait(matches, since, self.within(within), what)
        return json.loads(line[len("PL-RUN "):])

    def collect_timings(self):
        """The `timing:` figures of the run started last, kept for the summary."""
        lines = [l[len("PL-RUN timing: "):] for l in self.console.since(self.run_since) if l.startswith("PL-RUN timing: ")]
        starts = [int(l.split("=")[1]) for l in lines if l.startswith("start-to-first-flip-us=")]
        flips = sorted(int(l.split("=")[1]) for l in lines if l.startswith("input-to-flip-us="))
        figure = f"start to first flip {starts[0] / 1000:.0f} ms" if starts else "no first flip"
        if flips:
            figure += (f", input to flip median {flips[len(flips) // 2] / 1000:.1f} ms, "
                       f"max {flips[-1] / 1000:.1f} ms over {len(flips)} flips")
        self.timings.append(figure)

    def note_peak_rss(self, when):
        """run's peak resident set (VmHWM in the guest's /proc/PID/status) as it stands
        now, kept for the summary; a figure, never a check."""
        since = self.console.mark()
        # Only the process whose arguments begin `patternlock run` (an inject is one too).
        self.console.shell(
            "for p in $(pidof patternlock); do tr '\\0' ' ' < /proc/$p/cmdline | grep -q '^patternlock run ' && "
            "echo \"PL-HWM $(grep -E '^Vm(HWM|RSS):' /proc/$p/status | tr -s ' \\t\\n' '  ')\"; done", self.within(10))
        figures = [l[len("PL-HWM "):] for l in self.console.since(since) if l.startswith("PL-HWM VmHWM:")]
        self.peak_rss.append(f"{when}: {figures[0].strip() if figures else 'not read (no patternlock run found)'}")

    # The lockout countdown.

    def countdown(self):
        """The lockout's countdown pictures as `replay --state-dir --dump` rendered them
        (REFERENCES/lockout): the dump's last frames, those with the idle grid (the
        layout's grid rectangle and right of it), one a second from the lockout's first (1:00)."""
        if "countdown" not in self.references:
            directory = os.path.join(self.references_dir, "lockout")
            width = self.layout.width
            grid = (self.layout.grid["x"], 0, width, self.layout.height)
            idle_grid = region(self.reference("idle")[2], grid, width)
            frames = []
            for file in sorted(os.listdir(directory), reverse=True):
                _, _, rgb = decode_png_rgb(os.path.join(directory, file))
                if region(rgb, grid, width) != idle_grid:
                    break
                frames.insert(0, rgb)
            if len(frames) < 10:
                raise Failure(f"only {len(frames)} countdown pictures in {directory} (expected the lockout's first 10 s or more)")
            self.references["countdown"] = frames
        return self.references["countdown"]

    def countdown_on_screen(self, name):
        """The screen shows one of the countdown pictures exactly, then a later one within
        2.5 s (it ticks). Returns the index of the first (0: 1:00, the lockout's first second)."""
        frames = self.countdown()
        first = self.countdown_shown(name, frames)
        until = self.within(2.5)
        while True:
            time.sleep(0.25)
            _, _, later = self.screendump(name + "-later")
            if later in frames and frames.index(later) > first:
                break
            if later not in frames:
                raise Failure(f"the screen left the countdown: {self.work}/{name}-later.ppm is none of its pictures")
            if time.monotonic() > until:
                raise Failure(f"the countdown stayed at {countdown_text(first)} for 2.5 s; see {self.work}/{name}.ppm")
        for file in (name, name + "-later"):
            os.remove(os.path.join(self.work, file + ".ppm"))
        return first

    def countdown_shown(self, name, frames):
        """The index of the countdown picture on screen within 5 s."""
        until = self.within(5)
        while True:
            _, _, shot = self.screendump(name)
            if shot in frames:
                return frames.index(shot)
            if time.monotonic() > until:
                raise Failure(f"screendump {self.work}/{name}.ppm is none of the {len(frames)} countdown pictures "
                              f"({self.references_dir}/lockout); against 1:00: {first_difference(frames[0], shot, self.layout.width)}")
            time.sleep(0.2)
