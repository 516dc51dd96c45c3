"""What the compositor's pictures show: compared with the headless renders, the cursor
left out, and which output the lock is drawn on."""
from lib.checks import Failure

from .renders import frame_at, rendered_from_end
from .session import checks


def drawing_output(compositor):
    """The output the lock is drawn on: the one that shows the idle lock screen (but for
    the cursor, at most a 32x32 box)."""
    for name in compositor.outputs:
        picture = compositor.picture(name)
        want = frame_at(f"{picture[0]}x{picture[1]}")
        if differing_pixels(picture, want)[0] <= 32 * 32:
            return name
    return None


def matches_one(picture, frames, cursor=None):
    """Whether `picture` (but for the cursor: the corner it is parked in, or its box
    around `cursor`, a frame-pixel point) is one of `frames`; else how many pixels it
    differs from the last of them in, and where."""
    for frame in frames:
        if without_cursor(picture, frame, cursor)[2] == frame[2]:
            return True, ""
    differing, box = differing_pixels(without_cursor(picture, frames[-1], cursor), frames[-1])
    return False, f"{differing} pixels differ from the last{box}"


def matches_one_of_last(picture, directory, limit, cursor=None):
    """`matches_one` over the last `limit` pictures in `directory`, stopping at the first
    equal one."""
    last = None
    for frame in rendered_from_end(directory, limit):
        found, _ = matches_one(picture, [frame], cursor)
        if found:
            return True, ""
        last = last or frame
    if last is None:
        return False, f"no pictures in {directory}"
    differing, box = differing_pixels(without_cursor(picture, last, cursor), last)
    return False, f"{differing} pixels differ from the last{box}"


def differing_pixels(picture, want):
    """How many pixels of `picture` differ from `want`, and the box around them."""
    width, _, rgb = picture
    xs, ys = [], []
    for i in range(0, len(rgb), 3):
        if rgb[i:i + 3] != want[2][i:i + 3]:
            xs.append((i // 3) % width)
            ys.append((i // 3) // width)
    box = f" in {min(xs)},{min(ys)} to {max(xs)},{max(ys)}" if xs else ""
    return len(xs), box


def without_cursor(picture, want, at=None):
    """`picture` with the cursor's pixels taken from `want`: its bottom-right 32x32 (the
    corner the cursor is parked in), or with `at` (frame pixels) the 64x64 box around
    the point the cursor is held at."""
    width, height, rgb = picture
    rows = bytearray(rgb)
    left, top, right, bottom = (width - 32, height - 32, width, height) if at is None else (
        max(0, at[0] - 32), max(0, at[1] - 32), min(width, at[0] + 32), min(height, at[1] + 32))
    for y in range(top, bottom):
        start, end = (y * width + left) * 3, (y * width + right) * 3
        rows[start:end] = want[2][start:end]
    return width, height, bytes(rows)


def with_grid_of(frame, idle, grid):
    """`frame` with the grid's rectangle (`patternlock layout`'s) taken from `idle`: what
    an output beside the gesture's shows of a verdict (the prompt, not the dots)."""
    width, _, rgb = frame
    rows = bytearray(rgb)
    for y in range(grid["y"], grid["y"] + grid["height"]):
        start, end = (y * width + grid["x"]) * 3, (y * width + grid["x"] + grid["width"]) * 3
        rows[start:end] = idle[2][start:end]
    return width, frame[1], bytes(rows)


def wait_locked(compositor, lock):
    """Waits until the lock is on screen; returns the output it is drawn on."""
    found = []

    def shown():
        if lock.process.poll() is not None:
            raise Failure(f"session-lock ended with {lock.process.returncode}: {lock.stderr().strip()}")
        name = drawing_output(compositor)
        if name:
            found.append(name)
        return bool(name)
    compositor.wait_for(shown, "lock on screen")
    return found[-1]


def require_lock_shown(compositor, lock, name):
    """A required check (`name`) that `lock` comes on screen; returns the output it is drawn on."""
    where = []
    checks.require(name, lambda: where.append(wait_locked(compositor, lock)) or where[0])
    return where[0]
