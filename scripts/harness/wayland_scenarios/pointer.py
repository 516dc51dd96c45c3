"""Input through the compositor: the virtual pointer (Tests/WaylandClient/virtual-pointer.c)
drawing on an output's grid as `patternlock layout` places it."""
import subprocess
import time

from lib.checks import expect
from lib.layout import Layout

from .session import host_env, paths


def layout(width, height):
    return Layout.ask([paths.patternlock], "--size", f"{width}x{height}")


def hold_drawing(compositor, output, dots, names):
    """Draws `dots` on `output` (scale 1) with the button held on the last one, and takes
    the pictures of `names` meanwhile; returns them and the held point (frame pixels)."""
    x0, y0, width, height = compositor.outputs[output]
    grid = layout(width, height)
    points = [f"{x0 + grid.centre(d)[0]},{y0 + grid.centre(d)[1]}" for d in dots]
    extent = compositor.extent
    pointer = subprocess.Popen([paths.pointer, str(extent[0]), str(extent[1]), "--hold", "5000"] + points, env=host_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = pointer.stdout.readline().strip()
        expect(line == "holding", f"virtual-pointer: {line!r} {pointer.stderr.read() if pointer.poll() is not None else ''}")
        # The lock's frame of the last motion.
        time.sleep(0.4)
        shots = {name: compositor.picture(name) for name in names}
    finally:
        pointer.wait(timeout=20)
    return shots, grid.centre(dots[-1])


def draw(compositor, output, dots, scale=1, frame_size=None):
    """Draws `dots` with the virtual pointer on `output` (frame pixels / scale = logical).
    `frame_size` is the output's size in frame pixels when it is not the logical size
    times `scale` (a fractional scale rounds it)."""
    x0, y0, width, height = compositor.outputs[output]
    grid = layout(*(frame_size or (width * scale, height * scale)))
    points = [f"{x0 + grid.centre(d)[0] / scale:.1f},{y0 + grid.centre(d)[1] / scale:.1f}" for d in dots]
    extent = compositor.extent
    result = subprocess.run([paths.pointer, str(extent[0]), str(extent[1])] + points, env=host_env(), capture_output=True, text=True,
                            timeout=30)
    expect(result.returncode == 0, f"virtual-pointer: {result.stderr.strip()}")


def hover_away(compositor, output):
    """Moves the pointer to `output`'s bottom-right pixel, where the cursor shows at
    most a corner (`cursor_box` leaves it out of comparisons)."""
    x0, y0, width, height = compositor.outputs[output]
    extent = compositor.extent
    corner = f"{x0 + width - 1},{y0 + height - 1}"
    subprocess.run([paths.pointer, str(extent[0]), str(extent[1]), "--hover", corner, corner], env=host_env(), capture_output=True,
                   timeout=30)
    time.sleep(0.3)
