#!/usr/bin/env python3
"""Writes a `libinput record` capture (YAML, file version 1) of a pattern gesture.

The output is laid out byte for byte like tools/libinput-record.c writes it: the
header, one device block (with the '# ...' description comments, codes, absinfo,
properties, udev and quirks), then '- evdev:' frames of
'[sec, usec, type, code, value]' rows, each ending with SYN_REPORT, at the device's
report rate with timing and position jitter. Frames carry only the values that
changed, as the kernel's input core filters repeats.

Dot centres are computed the way PatternCore's GridLayout computes them (16.16 fixed
point, rounding to nearest, ties away from zero), in view pixels, then mapped to the
panel through the rotation and to raw axis values through the device's absinfo.

Devices:
  ft5406      Raspberry Pi 7" touchscreen ("raspberrypi-ts"), multitouch B, 10 slots,
              axes in panel pixels, with the single-touch emulation rows the kernel adds
  ads7846     resistive single-touch controller (ABS_X/ABS_Y/ABS_PRESSURE + BTN_TOUCH),
              12-bit axes 0..4095
  qemu-tablet QEMU's virtio tablet: ABS_X/ABS_Y 0..32767 + BTN_LEFT; the pointer
              hovers to the first dot, presses, drags, releases and hovers away

Examples:
  scripts/harness/make-capture.py --device ft5406 --path 1-2-3-6 -o l-shape-1236.yaml
  scripts/harness/make-capture.py --device ft5406 --path 1-5-9 --path 3-2-1-4-7 -o two.yaml
  scripts/harness/make-capture.py --device ft5406 --path 7-4-1-2-3 --second-finger 9:0.3:0.6 -o f.yaml
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.layout import Layout  # noqa: E402

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
ABS_X, ABS_Y, ABS_PRESSURE = 0, 1, 24
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 47, 53, 54, 57
BTN_LEFT, BTN_RIGHT, BTN_MIDDLE, BTN_SIDE, BTN_EXTRA, BTN_TOUCH = 272, 273, 274, 275, 276, 330
REL_HWHEEL, REL_WHEEL = 6, 8

NAMES = {
    (EV_ABS, ABS_X): "ABS_X", (EV_ABS, ABS_Y): "ABS_Y", (EV_ABS, ABS_PRESSURE): "ABS_PRESSURE",
    (EV_ABS, ABS_MT_SLOT): "ABS_MT_SLOT", (EV_ABS, ABS_MT_POSITION_X): "ABS_MT_POSITION_X",
    (EV_ABS, ABS_MT_POSITION_Y): "ABS_MT_POSITION_Y", (EV_ABS, ABS_MT_TRACKING_ID): "ABS_MT_TRACKING_ID",
    (EV_KEY, BTN_LEFT): "BTN_LEFT", (EV_KEY, BTN_RIGHT): "BTN_RIGHT", (EV_KEY, BTN_MIDDLE): "BTN_MIDDLE",
    (EV_KEY, BTN_SIDE): "BTN_SIDE", (EV_KEY, BTN_EXTRA): "BTN_EXTRA", (EV_KEY, BTN_TOUCH): "BTN_TOUCH",
}
TYPE_NAMES = {0: "EV_SYN", 1: "EV_KEY", 2: "EV_REL", 3: "EV_ABS"}


# --- Layout: asked of `patternlock layout`, never re-derived here ---

def dot_centres(patternlock, panel_w, panel_h, rotate, n):
    """Panel-pixel centres of dots 1..n*n, as `patternlock layout` prints them."""
    return Layout.ask([patternlock], "--size", f"{panel_w}x{panel_h}", "--rotate", str(rotate), "--grid", str(n)).centres


# --- Devices, modelled on real ones ---

class Device:
    def __init__(self, kind, panel_w, panel_h):
        self.kind = kind
        if kind == "ft5406":
            # drivers/input/touchscreen/raspberrypi-ts.c: axes in screen pixels,
            # input_mt_init_slots(10, INPUT_MT_DIRECT), bus BUS_HOST.
            self.name, self.bus, self.vid, self.pid, self.ver = "raspberrypi-ts", 0x19, 0, 0, 0
            self.node = "/dev/input/event4"
            self.keys = [BTN_TOUCH]
            self.rel = []
            self.absinfo = {
                ABS_X: [0, panel_w - 1, 0, 0, 0], ABS_Y: [0, panel_h - 1, 0, 0, 0],
                ABS_MT_SLOT: [0, 9, 0, 0, 0],
                ABS_MT_POSITION_X: [0, panel_w - 1, 0, 0, 0], ABS_MT_POSITION_Y: [0, panel_h - 1, 0, 0, 0],
                ABS_MT_TRACKING_ID: [0, 65535, 0, 0, 0],
            }
            self.props = [1]  # INPUT_PROP_DIRECT
            self.udev = ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1", "LIBINPUT_DEVICE_GROUP=19/0/0:raspberrypi-ts"]
            self.rate = 60
            self.x_axis, self.y_axis = ABS_MT_POSITION_X, ABS_MT_POSITION_Y
        elif kind == "ads7846":
            # drivers/input/touchscreen/ads7846.c with a 12-bit ADC on SPI.
            self.name, self.bus, self.vid, self.pid, self.ver = "ADS7846 Touchscreen", 0x1c, 0, 0x1ea6, 0
            self.node = "/dev/input/event0"
            self.keys = [BTN_TOUCH]
            self.rel = []
            self.absinfo = {ABS_X: [0, 4095, 0, 0, 0], ABS_Y: [0, 4095, 0, 0, 0], ABS_PRESSURE: [0, 65535, 0, 0, 0]}
            self.props = []
            self.udev = ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1", "LIBINPUT_DEVICE_GROUP=1c/0/1ea6:spi0.1"]
            self.rate = 80
            self.x_axis, self.y_axis = ABS_X, ABS_Y
        elif kind == "qemu-tablet":
            # QEMU hw/input/virtio-input-hid.c "QEMU Virtio Tablet".
            self.name, self.bus, self.vid, self.pid, self.ver = "QEMU Virtio Tablet", 0x6, 0x627, 0x3, 0x1
            self.node = "/dev/input/event1"
            self.keys = [BTN_LEFT, BTN_RIGHT, BTN_MIDDLE, BTN_SIDE, BTN_EXTRA]
            self.rel = [REL_HWHEEL, REL_WHEEL]
            self.absinfo = {ABS_X: [0, 32767, 0, 0, 0], ABS_Y: [0, 32767, 0, 0, 0]}
            self.props = []
            self.udev = ["ID_INPUT=1", "ID_INPUT_TABLET=1", "LIBINPUT_DEVICE_GROUP=6/627/3:virtio1"]
            self.rate = 100
            self.x_axis, self.y_axis = ABS_X, ABS_Y
        else:
            raise SystemExit(f"make-capture: unknown device '{kind}' (use ft5406, ads7846 or qemu-tablet)")
        self.panel_w, self.panel_h = panel_w, panel_h

    def raw(self, axis, pixels, size):
        """The raw value libinput maps back to `pixels`: (v - min) * size / (max - min + 1)."""
        lo, hi = self.absinfo[axis][0], self.absinfo[axis][1]
        v = lo + int(round(pixels * (hi - lo + 1) / size))
        return max(lo, min(hi, v))


# --- Output, in libinput-record.c's layout ---

def header(out, dev):
    w = out.append
    w("# libinput record")
    w("version: 1")
    w("ndevices: 1")
    w("libinput:")
    w('  version: "1.22.1"')
    w('  git: "unknown"')
    w("system:")
    w('  os: "debian:12"')
    w('  kernel: "6.1.0-rpi7-rpi-v8"')
    w('  dmi: "unknown"')
    w("devices:")
    w(f"- node: {dev.node}")
    w("  evdev:")
    device_description(w, dev)
    device_fields(w, dev)


def device_description(w, dev):
    """The '# ...' comments libinput record writes about the device."""
    w(f"    # Name: {dev.name}")
    w(f"    # ID: bus 0x{dev.bus:04x} vendor 0x{dev.vid:04x} product 0x{dev.pid:04x} version 0x{dev.ver:04x}")
    w("    # Size in mm: unknown, missing resolution")
    w("    # Supported Events:")
    w("    # Event type 0 (EV_SYN)")
    w("    # Event type 1 (EV_KEY)")
    for k in dev.keys:
        w(f"    #   Event code {k} ({NAMES[(EV_KEY, k)]})")
    if dev.rel:
        w("    # Event type 2 (EV_REL)")
        for r in dev.rel:
            w(f"    #   Event code {r} ({'REL_WHEEL' if r == REL_WHEEL else 'REL_HWHEEL'})")
    w("    # Event type 3 (EV_ABS)")
    for code, info in sorted(dev.absinfo.items()):
        w(f"    #   Event code {code} ({NAMES[(EV_ABS, code)]})")
        for label, value in zip(["Value", "Min", "Max", "Fuzz", "Flat", "Resolution"], [0] + info):
            w(f"    #       {label:<10} {value:6d}")
    w("    # Properties:")
    for p in dev.props:
        w(f"    #    Property {p} (INPUT_PROP_DIRECT)")


def device_fields(w, dev):
    """The device's name, ID, codes, absinfo, properties, udev and quirks."""
    w(f'    name: "{dev.name}"')
    w(f"    id: [{dev.bus}, {dev.vid}, {dev.pid}, {dev.ver}]")
    w("    codes:")
    w("      0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN")
    w(f"      1: [{', '.join(str(k) for k in dev.keys)}] # EV_KEY")
    if dev.rel:
        w(f"      2: [{', '.join(str(r) for r in dev.rel)}] # EV_REL")
    w(f"      3: [{', '.join(str(c) for c in sorted(dev.absinfo))}] # EV_ABS")
    w("    absinfo:")
    for code, info in sorted(dev.absinfo.items()):
        w(f"      {code}: [{', '.join(str(v) for v in info)}]")
    w(f"    properties: [{', '.join(str(p) for p in dev.props)}]")
    w("  udev:")
    w("    properties:")
    for p in dev.udev:
        w(f"    - {p}")
    w("  quirks:")
    w("  events:")


def describe(ev_type, code, value, delta, last_ms, time_us):
    if ev_type == EV_SYN:
        ms = time_us // 1000
        return f"------------ SYN_REPORT (0) ---------- {ms - last_ms:+d}ms", ms
    name = NAMES.get((ev_type, code), f"CODE_{code}")
    if delta is None:
        return f"{TYPE_NAMES[ev_type]} / {name:<20} {value:6d}", last_ms
    return f"{TYPE_NAMES[ev_type]} / {name:<20} {value:6d} ({delta:+d})", last_ms


class Writer:
    """Emits frames, tracking the values the kernel would filter as repeats."""

    def __init__(self, out, dev):
        self.out, self.dev = out, dev
        self.last = {}          # (type, code, slot) -> value
        self.kernel_slot = 0    # the slot the kernel last announced
        self.last_ms = 0
        self.next_clock = 5_000_000
        self.slots_down = set()
        self.frame = []

    def abs(self, code, value, slot=None):
        key = (EV_ABS, code, slot)
        if self.last.get(key) == value and code != ABS_MT_TRACKING_ID:
            return
        if slot is not None and slot != self.kernel_slot:
            self.frame.append((EV_ABS, ABS_MT_SLOT, slot, None))
            self.kernel_slot = slot
        delta = None if code in (ABS_MT_TRACKING_ID, ABS_MT_SLOT) else value - self.last.get(key, 0)
        self.last[key] = value
        self.frame.append((EV_ABS, code, value, delta))

    def key(self, code, value):
        if self.last.get((EV_KEY, code, None)) == value:
            return
        self.last[(EV_KEY, code, None)] = value
        self.frame.append((EV_KEY, code, value, None))

    def flush(self, time_us):
        if not self.frame:
            return  # the input core sends no empty frames
        if time_us >= self.next_clock:
            # libinput record prints the wall-clock time every 5 s while events arrive.
            seconds = 10 * 3600 + 41 * 60 + 7 + time_us // 1_000_000
            self.out.append(f"  # Current time is {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")
            while self.next_clock <= time_us:
                self.next_clock += 5_000_000
        self.frame.append((EV_SYN, SYN_REPORT, 0, None))
        self.out.append("  - evdev:")
        sec, usec = divmod(time_us, 1_000_000)
        for ev_type, code, value, delta in self.frame:
            text, self.last_ms = describe(ev_type, code, value, delta, self.last_ms, time_us)
            self.out.append(f"    - [{sec:3d}, {usec:6d}, {ev_type:3d}, {code:3d}, {value:7d}] # {text}")
        if self.dev.kind == "ft5406" and any(c == ABS_MT_TRACKING_ID and v == -1 for _, c, v, _ in self.frame) \
                and not self.slots_down:
            self.out.append("                                 # Touch device in neutral state")
        self.frame = []


def samples_along(points, speed, rate, rng, fast_samples=False):
    """(time offset in us, x, y) samples of a finger moving through `points` (panel px)."""
    if fast_samples:
        # A flick at 60 Hz: samples only on the listed dots and three quarters along each
        # leg between them, so a dot passed over mid-leg is never sampled inside its hit
        # circle and only a test of the whole segment finds it.
        flick = [points[0]]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            flick.append((x0 + (x1 - x0) * 0.75, y0 + (y1 - y0) * 0.75))
            flick.append((x1, y1))
        return [(int(i * 16_667 + rng.uniform(-800, 800)) if i else 0, x, y) for i, (x, y) in enumerate(flick)]
    result = [(0, points[0][0], points[0][1])]
    t = 0.0
    # Settle on the first dot for a few frames, as a finger does.
    for _ in range(3):
        t += 1e6 / rate + rng.uniform(-1500, 1500)
        result.append((int(t), points[0][0], points[0][1]))
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        steps = max(1, int(length / (speed / rate)))
        for i in range(1, steps + 1):
            t += 1e6 / rate + rng.uniform(-1500, 1500)
            f = i / steps
            result.append((int(t), x0 + (x1 - x0) * f, y0 + (y1 - y0) * f))
    for _ in range(3):
        t += 1e6 / rate + rng.uniform(-1500, 1500)
        result.append((int(t), points[-1][0], points[-1][1]))
    return result


class Gestures:
    """Writes a device's frames for one gesture after another, on one clock: for QEMU's
    tablet a hover in and out around each, a second finger on the ft5406 where asked."""

    def __init__(self, dev, writer, rng, jitter, fast):
        self.dev, self.writer, self.rng = dev, writer, rng
        self.jitter, self.fast = jitter, fast
        self.tracking_id = rng.randrange(100, 900)
        self.clock = 0
        self.second_down = False

    def raw_point(self, px, py):
        return self.dev.raw(self.dev.x_axis, px, self.dev.panel_w), self.dev.raw(self.dev.y_axis, py, self.dev.panel_h)

    def noisy(self, x, y):
        return x + self.rng.uniform(-self.jitter, self.jitter), y + self.rng.uniform(-self.jitter, self.jitter)

    def gesture(self, points, samples, second):
        """One gesture through `points` (panel px) at `samples` (samples_along's);
        `second` is (centre, start us, end us, None) of a second finger, or None."""
        if self.dev.kind == "qemu-tablet":
            self.hover_in(points[0])
        self.second_down = False
        for i, (t, vx, vy) in enumerate(samples):
            exact = self.fast and not 0 < i < len(samples) - 1
            x, y = self.raw_point(*((vx, vy) if exact else self.noisy(vx, vy)))
            second = self.touch(i, t, x, y, second)
            self.writer.flush(self.clock + t)
        now = self.lift(self.clock + samples[-1][0] + int(1e6 / self.dev.rate))
        if self.dev.kind == "qemu-tablet":
            now = self.hover_away(points[-1], now)
        self.clock = now + 600_000 + self.rng.randrange(0, 200_000)

    def hover_in(self, first):
        """The tablet's pointer in from the panel's top-left towards the first dot, button up."""
        hx, hy = 20.0, 20.0
        for i in range(1, 6):
            f = i / 6
            x, y = self.raw_point(hx + (first[0] - hx) * f, hy + (first[1] - hy) * f)
            self.writer.abs(ABS_X, x)
            self.writer.abs(ABS_Y, y)
            self.writer.flush(self.clock)
            self.clock += 10_000 + self.rng.randrange(-900, 900)

    def touch(self, i, t, x, y, second):
        """Sample `i` (at `t` us into the gesture, raw position x, y); returns `second`,
        None once the second finger has lifted."""
        w = self.writer
        if self.dev.kind == "ft5406":
            if i == 0:
                self.put_down(0)
            w.abs(ABS_MT_POSITION_X, x, slot=0)
            w.abs(ABS_MT_POSITION_Y, y, slot=0)
            if second:
                second = self.second_finger(t, second)
            # Pointer emulation: BTN_TOUCH and ABS_X/Y follow the oldest contact.
            w.key(BTN_TOUCH, 1)
            w.abs(ABS_X, x)
            w.abs(ABS_Y, y)
        elif self.dev.kind == "ads7846":
            w.key(BTN_TOUCH, 1)
            w.abs(ABS_X, x)
            w.abs(ABS_Y, y)
            w.abs(ABS_PRESSURE, 52000 + self.rng.randrange(-900, 900))
        else:
            w.abs(ABS_X, x)
            w.abs(ABS_Y, y)
            if i == 0:
                w.key(BTN_LEFT, 1)
        return second

    def put_down(self, slot):
        """A new contact in multitouch `slot`."""
        self.writer.abs(ABS_MT_TRACKING_ID, self.tracking_id, slot=slot)
        self.tracking_id += 1
        self.writer.slots_down.add(slot)

    def second_finger(self, t, second):
        """The second finger (slot 1) at `t`: down between its start and end, then lifted."""
        (sx, sy), start, end, _ = second
        if start <= t < end:
            qx, qy = self.raw_point(*self.noisy(sx, sy))
            if not self.second_down:
                self.put_down(1)
                self.second_down = True
            self.writer.abs(ABS_MT_POSITION_X, qx, slot=1)
            self.writer.abs(ABS_MT_POSITION_Y, qy, slot=1)
        elif t >= end and self.second_down:
            self.writer.slots_down.discard(1)
            self.writer.abs(ABS_MT_TRACKING_ID, -1, slot=1)
            return None
        return second

    def lift(self, now):
        """The finger (or the tablet's button) up at `now`."""
        w = self.writer
        if self.dev.kind == "ft5406":
            w.slots_down.discard(0)
            w.abs(ABS_MT_TRACKING_ID, -1, slot=0)
            w.key(BTN_TOUCH, 0)
        elif self.dev.kind == "ads7846":
            w.key(BTN_TOUCH, 0)
            w.abs(ABS_PRESSURE, 0)
        else:
            w.key(BTN_LEFT, 0)
        w.flush(now)
        return now

    def hover_away(self, last, now):
        """The tablet's pointer away with the button up: must not be taken as a gesture."""
        lx, ly = last
        for i in range(1, 4):
            now += 10_000 + self.rng.randrange(-900, 900)
            x, y = self.raw_point(lx + 15 * i, ly - 10 * i)
            self.writer.abs(ABS_X, x)
            self.writer.abs(ABS_Y, y)
            self.writer.flush(now)
        return now


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="ft5406", help="ft5406, ads7846 or qemu-tablet")
    parser.add_argument("--size", default="800x480", help="panel WxH in pixels")
    parser.add_argument("--rotate", type=int, default=0, choices=[0, 90, 180, 270])
    parser.add_argument("--grid", type=int, default=3)
    parser.add_argument("--path", action="append", required=True,
                        help="dots joined by dashes, e.g. 1-2-3-6; repeat for more gestures")
    parser.add_argument("--fast", action="store_true",
                        help="a flick: 60 Hz samples only on the listed dots and 3/4 along each leg")
    parser.add_argument("--speed", type=float, default=650.0, help="finger speed in panel px/s")
    parser.add_argument("--jitter", type=float, default=1.5, help="position noise in panel px")
    parser.add_argument("--second-finger", help="DOT:START:END, fractions of the first gesture")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--patternlock", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "debug", "patternlock"),
                        help="the patternlock binary whose 'layout' gives the dot centres (default: the debug build)")
    parser.add_argument("-o", "--output", help="output file (default: standard output)")
    return parser.parse_args()


def capture(args):
    """The capture's lines for the parsed command line."""
    panel_w, panel_h = (int(v) for v in args.size.split("x"))
    centres = dot_centres(args.patternlock, panel_w, panel_h, args.rotate, args.grid)
    dev = Device(args.device, panel_w, panel_h)
    rng = random.Random(args.seed)
    out = []
    header(out, dev)
    out.append("  # Current time is 10:41:07")
    gestures = Gestures(dev, Writer(out, dev), rng, args.jitter, args.fast)
    for gesture_index, path in enumerate(args.path):
        points = [centres[int(d)] for d in path.split("-")]
        samples = samples_along(points, args.speed, dev.rate, rng, args.fast)
        second = None
        if args.second_finger and gesture_index == 0:
            d, a, b = args.second_finger.split(":")
            duration = samples[-1][0]
            second = (centres[int(d)], int(float(a) * duration), int(float(b) * duration), None)
        gestures.gesture(points, samples, second)
    return out


def main():
    args = parse_arguments()
    text = "\n".join(capture(args)) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
