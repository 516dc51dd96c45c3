"""The grid layout as `patternlock layout` prints it (never re-derived here), and the
tablet gestures the harnesses draw on it."""
import json
import subprocess

# QEMU's virtio tablet: absolute axes 0..32767 over the display.
TABLET_RANGE = 32768
# The time between two steps of a tablet gesture.
STEP_SECONDS = 0.15


class Layout:
    """One panel's layout: its size, the grid and prompt rectangles and the dot
    centres, in panel pixels (the rotation applied)."""

    def __init__(self, text, source):
        try:
            fields = json.loads(text)
            self.width, self.height = fields["panel"]["width"], fields["panel"]["height"]
            self.grid, self.prompt = fields["grid"], fields["prompt"]
            self.centres = {dot["n"]: (float(dot["x"]), float(dot["y"])) for dot in fields["dots"]}
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{source} is not the JSON of 'patternlock layout' ({error}): write it with 'patternlock layout > FILE'")

    @classmethod
    def load(cls, path):
        """The layout in a file written by `patternlock layout`."""
        try:
            with open(path, encoding="utf-8") as f:
                return cls(f.read(), path)
        except OSError as error:
            raise SystemExit(f"cannot read the layout file {path} ({error.strerror}): write it with 'patternlock layout > FILE'")

    @classmethod
    def ask(cls, command, *options):
        """The layout `command` (a patternlock binary, as a list) prints with `options`."""
        try:
            printed = subprocess.run(list(command) + ["layout"] + list(options), check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as error:
            raise SystemExit(f"cannot ask {' '.join(command)} for the layout ({error}); build it first with 'swift build'")
        return cls(printed, " ".join(command) + " layout")

    def centre(self, dot):
        """Dot `dot`'s centre in whole panel pixels."""
        x, y = self.centres[dot]
        return round(x), round(y)

    def between(self, a, b, fraction=0.5):
        """The point `fraction` of the way from dot `a` to dot `b`, in whole pixels."""
        (ax, ay), (bx, by) = self.centres[a], self.centres[b]
        return round(ax + (bx - ax) * fraction), round(ay + (by - ay) * fraction)

    def prompt_centre(self):
        """A point off the grid: the middle of the prompt."""
        return self.prompt["x"] + self.prompt["width"] // 2, self.prompt["y"] + self.prompt["height"] // 2

    def tablet_value(self, pixels, size):
        """The tablet axis value that libinput maps back to `pixels` (value * size / 32768)."""
        return pixels * TABLET_RANGE // size

    def tablet_point(self, x, y):
        """A panel pixel as the tablet's (x, y) axis values."""
        return self.tablet_value(x, self.width), self.tablet_value(y, self.height)

    def gesture(self, dots, pause_after=None):
        """The tablet drawing `dots` (a list of dot numbers): hover to the first, press,
        move to each in turn, release on the last; as (x, y, button) steps in panel
        pixels, button True (press), False (release) or None (move only). With
        `pause_after` (an index into dots), a step half way to the next dot is added
        and the result is (steps, that step's index)."""
        first = self.centre(dots[0])
        steps = [(*first, None), (*first, True)]
        pause = None
        for index, dot in enumerate(dots[1:], start=1):
            if pause_after is not None and index == pause_after + 1:
                pause = len(steps)
                steps.append((*self.between(dots[index - 1], dot), None))
            steps.append((*self.centre(dot), None))
        steps.append((*self.centre(dots[-1]), False))
        return steps if pause_after is None else (steps, pause)


def write_tablet_capture(out, layout, gestures, template, gap_seconds=0.0):
    """A `libinput record` capture of `gestures` (lists of (x, y, button) steps,
    STEP_SECONDS apart, `gap_seconds` between gestures) on QEMU's virtio tablet: the
    device block of `template` (the shipped tablet capture) and one evdev frame per
    step, changed values only."""
    with open(template, encoding="utf-8") as f:
        header = f.read().split("  events:\n")[0]
    lines = [header + "  events:\n"]
    x = y = button = None
    start = 0.0
    for steps in gestures:
        for index, (px, py, down) in enumerate(steps):
            sec, usec = divmod(round((start + index * STEP_SECONDS) * 1_000_000), 1_000_000)
            vx, vy = layout.tablet_point(px, py)
            rows = ([(3, 0, vx)] if vx != x else []) + ([(3, 1, vy)] if vy != y else [])
            if down is not None and down != button:
                rows.append((1, 272, 1 if down else 0))
            x, y, button = vx, vy, (down if down is not None else button)
            lines.append("  - evdev:\n")
            for kind, code, value in rows + [(0, 0, 0)]:
                lines.append(f"    - [{sec:3d}, {usec:6d}, {kind:3d}, {code:3d}, {value:7d}]\n")
        start += len(steps) * STEP_SECONDS + gap_seconds
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(lines)
