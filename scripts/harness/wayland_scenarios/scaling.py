"""Outputs at scale 2 and at 1.25 (fractional): the lock drawn at the output's own
pixels, equal to the render of that size, with the pointer's input scaled."""
from lib.checks import expect

from .pointer import draw, hover_away
from .renders import frame_at
from .screen import differing_pixels, wait_locked, without_cursor
from .session import PATTERN, checks, locked_session, paths


def scale_two():
    with locked_session(outputs=1, scale=2, failure_label="scale 2 set-up") as session:
        lock = session.lock("--state-dir", paths.state)
        checks.check("scale 2: sharp frames at the output's pixels, input scaled", lambda: drawn_at_scale(session.compositor, lock))


def drawn_at_scale(compositor, lock):
    output = wait_locked(compositor, lock)
    hover_away(compositor, output)
    width, height, rgb = compositor.picture(output)
    _, _, logical_width, logical_height = compositor.outputs[output]
    expect((width, height) == (logical_width * 2, logical_height * 2), f"picture {width}x{height}")
    want = frame_at(f"{width}x{height}")
    differing, box = differing_pixels(without_cursor((width, height, rgb), want), want)
    expect(differing == 0, f"{differing} pixels differ from the headless render at {width}x{height}{box}")
    draw(compositor, output, PATTERN, scale=2)
    lock.expect_exit_zero()
    return f"a {logical_width}x{logical_height} surface drawn at {width}x{height}, unlocked by the pointer"


def fractional_scale():
    with locked_session(outputs=1, scale=1.25, failure_label="fractional scale set-up") as session:
        lock = session.lock("--state-dir", paths.state)
        checks.check("scale 1.25: frames at the output's pixels through the fractional scale",
                     lambda: drawn_at_fractional_scale(session.compositor, lock))


def drawn_at_fractional_scale(compositor, lock):
    output = wait_locked(compositor, lock)
    hover_away(compositor, output)
    width, height, rgb = compositor.picture(output)
    want = frame_at(f"{width}x{height}")
    differing, box = differing_pixels(without_cursor((width, height, rgb), want), want)
    expect(differing == 0, f"{differing} pixels differ from the headless render at {width}x{height}{box}")
    expect(f"drawn at {width}x{height}" in lock.stdout(), f"not drawn at the output's pixels: {lock.stdout()!r}")
    _, _, logical_width, logical_height = compositor.outputs[output]
    # The grid is laid out on the frame's pixels, which 1.25 times the logical size rounds.
    draw(compositor, output, PATTERN, scale=1.25, frame_size=(width, height))
    lock.expect_exit_zero()
    return f"a {logical_width}x{logical_height} surface drawn at {width}x{height} (wp_fractional_scale_v1, wp_viewporter)"
