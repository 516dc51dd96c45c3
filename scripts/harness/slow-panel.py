#!/usr/bin/env python3
"""Writes a `libinput record` recording as a slower, polled touch controller would have
reported it: one report per period (25 Hz: 40 ms, like the Raspberry Pi 7-inch panel's
FT5406 polled through the firmware), each holding the state at the end of its period,
every axis carried forward. A report in which a touch (or a button, a pen) goes down or
lifts is kept as it was, at its own time and place, so no touch is lost and each starts
where the finger landed.

    slow-panel.py --hz 25 IN.yml OUT.yml

Protocol B (slots) and single-touch devices are merged value by value; a protocol A
device's contacts (each report is whole) are taken from the last report of the period.
Everything outside the events (the device descriptions) is copied unchanged.
"""
import argparse
import re

EVENT = re.compile(r"^(\s*)- \[\s*(-?\d+),\s*(-?\d+),\s*(\d+),\s*(\d+),\s*(-?\d+)\s*\]")
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, SYN_MT_REPORT = 0, 2
ABS_MT_SLOT, ABS_MT_TRACKING_ID = 47, 57
MT_CODES = range(47, 62)


def frame_time(frame):
    sec, usec = frame[-1][0], frame[-1][1]
    return sec * 1_000_000 + usec


class Merger:
    """Reports held back until their period ends, merged into one."""

    def __init__(self, protocol_a):
        self.protocol_a = protocol_a
        self.reader_slot = 0  # the slot a reader of the output has selected
        self.slot = 0  # the slot the input has selected
        self.pending = {}
        self.mt_report = []
        self.last_time = None
        self.out = []

    def add(self, frame):
        transition = False
        staged = []
        for (_, _, kind, code, value) in frame:
            if kind == EV_SYN:
                continue
            if kind == EV_ABS and code == ABS_MT_SLOT:
                self.slot = value
                continue
            if kind == EV_ABS and code in MT_CODES:
                if self.protocol_a:
                    continue
                key = ("mt", self.slot, code)
            elif kind == EV_ABS:
                key = ("abs", code)
            elif kind == EV_KEY:
                key = ("key", code)
            else:
                key = ("other", kind, code)
            if key[0] == "key" or key[-1] == ABS_MT_TRACKING_ID:
                transition = True
            staged.append((key, value))
        # A down or a lift is reported on its own: what came before it in the period
        # goes first, nothing after it joins it.
        if transition:
            self.flush()
        for key, value in staged:
            self.pending.pop(key, None)
            self.pending[key] = value
        if self.protocol_a:
            self.mt_report = [e for e in frame if (e[2] == EV_ABS and e[3] in MT_CODES) or (e[2] == EV_SYN and e[3] == SYN_MT_REPORT)]
        self.last_time = frame_time(frame)
        if transition:
            self.flush()

    def flush(self):
        if self.last_time is None:
            return
        events = []
        slots = []
        for key in self.pending:
            if key[0] == "mt" and key[1] not in slots:
                slots.append(key[1])
        for slot in slots:
            if slot != self.reader_slot:
                events.append((EV_ABS, ABS_MT_SLOT, slot))
                self.reader_slot = slot
            keys = [k for k in self.pending if k[0] == "mt" and k[1] == slot]
            keys.sort(key=lambda k: k[2] != ABS_MT_TRACKING_ID)
            events += [(EV_ABS, k[2], self.pending[k]) for k in keys]
        events += [(e[2], e[3], e[4]) for e in self.mt_report]
        events += [(EV_ABS, k[1], v) for k, v in self.pending.items() if k[0] == "abs"]
        events += [(k[1], k[2], v) for k, v in self.pending.items() if k[0] == "other"]
        events += [(EV_KEY, k[1], v) for k, v in self.pending.items() if k[0] == "key"]
        events.append((EV_SYN, SYN_REPORT, 0))
        sec, usec = divmod(self.last_time, 1_000_000)
        self.out.append([(sec, usec, kind, code, value) for (kind, code, value) in events])
        self.pending = {}
        self.mt_report = []
        self.last_time = None


def slow(frames, period):
    if not frames:
        return []
    protocol_a = any(e[2] == EV_SYN and e[3] == SYN_MT_REPORT for f in frames for e in f)
    merger = Merger(protocol_a)
    start = frame_time(frames[0])
    window = None
    for frame in frames:
        this = (frame_time(frame) - start) // period
        if window is not None and this != window:
            merger.flush()
        window = this
        merger.add(frame)
    merger.flush()
    return merger.out


def render(frames, indent):
    lines = []
    for frame in frames:
        lines.append(f"{indent}- evdev:")
        for (sec, usec, kind, code, value) in frame:
            lines.append(f"{indent}  - [{sec:3d}, {usec:6d}, {kind:3d}, {code:3d}, {value:7d}]")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hz", type=int, required=True, help="reports per second of the slower controller")
    parser.add_argument("source")
    parser.add_argument("output")
    args = parser.parse_args()
    if not 1 <= args.hz <= 1000:
        parser.error("--hz takes 1 to 1000 reports per second")
    period = 1_000_000 // args.hz
    with open(args.source, encoding="utf-8") as f:
        lines = f.read().split("\n")
    name = args.source.rsplit("/", 1)[-1]
    out = [f"# derived: {name} as a controller polled at {args.hz} Hz reports it (scripts/harness/slow-panel.py)"]
    frames, indent, in_events = [], "  ", False
    for line in lines:
        if in_events:
            stripped = line.strip()
            if stripped == "- evdev:":
                indent = line[: len(line) - len(line.lstrip())]
                frames.append([])
                continue
            match = EVENT.match(line)
            if match and frames:
                frames[-1].append(tuple(int(g) for g in match.groups()[1:]))
                continue
            if stripped.startswith("#"):
                continue
            out += render(slow(frames, period), indent)
            frames, in_events = [], False
        out.append(line)
        if re.match(r"^\s*events:\s*$", line):
            in_events = True
    if in_events:
        out += render(slow(frames, period), indent)
        if lines and lines[-1] == "":
            out.append("")
    with open(args.output, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
