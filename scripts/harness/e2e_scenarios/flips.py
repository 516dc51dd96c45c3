"""What virtio-gpu transferred to the host, from QEMU's trace, paired flip by flip with
the damage run says each flip changed."""
import os
import re
import time

from lib.checks import Failure


def trace_offset(b):
    """Where the current boot's virtio-gpu trace ends now."""
    return os.path.getsize(b.trace) if b.trace and os.path.exists(b.trace) else 0


def trace_flushes(b, offset):
    """The flushes of the buffers made after `offset` in the current boot's trace (the
    run's two dumb buffers; the console's fbdev buffer is older): (w, h, x, y) each,
    the rectangle the guest's driver transferred to the host before flushing it."""
    with open(b.trace, encoding="utf-8", errors="replace") as f:
        f.seek(offset)
        lines = f.read().splitlines()
    created, flushes = set(), []
    for line in lines:
        # QEMU 7.2: "virtio_gpu_cmd_res_flush res 0x3, w 800, h 480, x 0, y 0".
        match = re.search(r"virtio_gpu_cmd_res_(create_2d|flush) res (0x[0-9a-f]+), (.*)", line)
        if not match:
            continue
        event, resource, fields = match.groups()
        if event == "create_2d":
            created.add(resource)
        elif resource in created:
            values = dict(field.split(" ") for field in fields.split(", "))
            flushes.append((int(values["w"]), int(values["h"]), int(values["x"]), int(values["y"])))
    return flushes


def flip_damage(b, since, until=None):
    """The rectangles run said its flips changed (`timing: flip-damage=WxH+X+Y`), in order."""
    lines = b.console.since(since, until)
    rects = []
    for line in lines:
        if line.startswith("PL-RUN timing: flip-damage="):
            size, x, y = line.split("=")[1].split("+")
            w, h = size.split("x")
            rects.append((int(w), int(h), int(x), int(y)))
    return rects


def paired_flips(b, offset, since):
    """Each flip's damage (from run) with what the driver transferred for it (from the
    trace), in order; the trace is polled briefly, QEMU writes it as it goes."""
    until = time.monotonic() + 3
    while True:
        damage, sent = flip_damage(b, since), trace_flushes(b, offset)
        if len(sent) >= len(damage) + 1 or time.monotonic() > until:
            break
        time.sleep(0.2)
    # The first transfer is the modeset's (the first buffer, black), before any flip.
    if len(sent) != len(damage) + 1:
        raise Failure(f"run flipped {len(damage)} frames but the trace shows {len(sent)} transfers of its buffers (the modeset's and one a flip expected)")
    return list(zip(damage, sent[1:]))


def transfer_bytes(rect):
    return rect[0] * rect[1] * 4  # virtio-gpu's 2D resources are 32 bits per pixel
