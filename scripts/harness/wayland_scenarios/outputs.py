"""Outputs of different sizes, each laid out for itself, with the drawing only where the
pointer is held; and the drawing output switched off and on again."""
import time

from lib.checks import expect

from .pointer import draw, hold_drawing, hover_away, layout
from .renders import drawing_render, frame_at, verdict_frames
from .screen import differing_pixels, drawing_output, matches_one, matches_one_of_last, wait_locked, with_grid_of, without_cursor
from .session import FEEDBACK_MS, PATTERN, WRONG, WRONG_COLOUR, checks, in_root, is_desktop, locked_session, paths


def two_outputs_drawing():
    """Two outputs of different sizes: each shows the lock laid out for itself; the one
    the pointer went down on shows the drawing, the other the prompt alone; a verdict
    shows on both, the pattern only on its own."""
    with locked_session(outputs=2, failure_label="two outputs drawing", reset_attempts=True) as session:
        compositor = session.compositor
        second_output_at_800x480(compositor)
        lock = session.lock("--state-dir", paths.state, "--feedback-ms", str(FEEDBACK_MS))
        first = wait_locked(compositor, lock)
        other = next(name for name in compositor.outputs if name != first)
        sizes = {name: f"{compositor.outputs[name][2]}x{compositor.outputs[name][3]}" for name in compositor.outputs}
        checks.check("two outputs of different sizes: each shows the idle lock laid out for its own size",
                     lambda: each_laid_out_for_itself(compositor, sizes, first, other))
        checks.check("the pointer held down on the first output: the drawing there, the prompt alone on the other",
                     lambda: drawing_on(compositor, sizes, first, other))
        checks.check("the pointer held down on the second output: the drawing there, the prompt alone on the first",
                     lambda: drawing_on(compositor, sizes, other, first))
        checks.check("a wrong pattern on the second output: the verdict on both, the pattern only there",
                     lambda: verdict_on_both(compositor, sizes, first, other))
        checks.check("the right pattern on the first output unlocks", lambda: unlocks_on_the_first(compositor, lock, first))


def second_output_at_800x480(compositor):
    """The headless back-end takes any mode: the second output becomes 800x480 (the Pi
    touch display's size), the first keeps 1280x720."""
    names = list(compositor.outputs)
    result = in_root("wlr-randr", "--output", names[1], "--custom-mode", "800x480")
    expect(result.returncode == 0, f"wlr-randr --custom-mode: {result.stderr.strip()}")
    compositor.outputs = compositor.read_outputs()


def each_laid_out_for_itself(compositor, sizes, first, other):
    expect(sizes[first] != sizes[other], f"both outputs are {sizes[first]}")
    hover_away(compositor, first)
    for name in (first, other):
        picture = compositor.picture(name)
        want = frame_at(sizes[name])
        differing, box = differing_pixels(without_cursor(picture, want), want)
        expect(differing == 0, f"{name}: {differing} pixels differ from the headless render at {sizes[name]}{box}")
    return f"{first} {sizes[first]} and {other} {sizes[other]} each equal the headless render of its size"


def drawing_on(compositor, sizes, target, beside):
    """The pointer held down on `target` mid-gesture: the render's drawing there, the
    idle lock on `beside`."""
    dots = [1, 2, 3]
    shots, held = hold_drawing(compositor, target, dots, [target, beside])
    found, why = matches_one_of_last(shots[target], drawing_render(sizes[target], dots), 4, cursor=held)
    expect(found, f"{target}'s picture is not the render's finger on the last dot: {why}")
    expect(shots[target][2] != frame_at(sizes[target])[2], f"{target} shows the idle lock, not the drawing")
    want = frame_at(sizes[beside])
    differing, box = differing_pixels(without_cursor(shots[beside], want), want)
    expect(differing == 0, f"{beside} is not the idle lock: {differing} pixels differ{box}")
    # The three dots are too short to judge: their verdict has its time.
    time.sleep(FEEDBACK_MS / 1000 + 0.5)
    return f"{target} ({sizes[target]}) equals the render mid-gesture, {beside} ({sizes[beside]}) the idle lock"


def verdict_on_both(compositor, sizes, first, other):
    """WRONG drawn on `other`: its verdict there, the verdict's prompt over idle dots on `first`."""
    draw(compositor, other, WRONG)
    hover_away(compositor, other)
    shots = {name: compositor.picture(name) for name in (other, first)}
    wrong = [f for f in verdict_frames(sizes[other], WRONG, FEEDBACK_MS) if bytes(WRONG_COLOUR) in f[2]]
    expect(wrong, "the render shows no wrong verdict")
    found, why = matches_one(shots[other], wrong)
    expect(found, f"{other}'s verdict is none of the render's: {why}")
    beside = [f for f in verdict_frames(sizes[first], WRONG, FEEDBACK_MS) if bytes(WRONG_COLOUR) in f[2]]
    grid = layout(*(int(v) for v in sizes[first].split("x"))).grid
    idle = frame_at(sizes[first])
    found, why = matches_one(shots[first], [with_grid_of(f, idle, grid) for f in beside])
    expect(found, f"{first} does not show the verdict's prompt over the idle dots: {why}")
    time.sleep(FEEDBACK_MS / 1000)
    return f"{other} shows the wrong pattern in red, {first} the red prompt over untouched dots"


def unlocks_on_the_first(compositor, lock, first):
    draw(compositor, first, PATTERN)
    lock.expect_exit_zero()
    return "the gesture moved back to the first output and unlocked"


def outputs_come_and_go():
    with locked_session(outputs=2, failure_label="outputs coming and going") as session:
        compositor = session.compositor
        lock = session.lock("--state-dir", paths.state)
        first = wait_locked(compositor, lock)
        other = next(name for name in compositor.outputs if name != first)
        checks.check("the drawing output switched off: the lock moves to the output that remains",
                     lambda: moves_when_its_output_goes(compositor, lock, first, other))
        checks.check("an output that comes back shows no desktop; the lock still unlocks",
                     lambda: locked_when_it_comes_back(compositor, lock, first, other))


def moves_when_its_output_goes(compositor, lock, first, other):
    result = in_root("wlr-randr", "--output", first, "--off")
    expect(result.returncode == 0, f"wlr-randr --off: {result.stderr.strip()}")
    compositor.outputs = compositor.read_outputs()
    compositor.wait_for(lambda: drawing_output(compositor) == other, f"lock on {other}")
    expect(lock.process.poll() is None, f"session-lock ended: {lock.stderr().strip()}")
    expect(not is_desktop(compositor.colour_at_centre(other)), "the desktop shows")
    return f"{first} off: the lock drawn on {other}"


def locked_when_it_comes_back(compositor, lock, first, other):
    result = in_root("wlr-randr", "--output", first, "--on")
    expect(result.returncode == 0, f"wlr-randr --on: {result.stderr.strip()}")
    compositor.outputs = compositor.read_outputs()
    # labwc 0.8.3 keeps a re-enabled output blank but sends its new lock surface
    # no configure: what is checked is that no desktop shows there.
    time.sleep(1.0)
    colour = compositor.colour_at_centre(first)
    expect(not is_desktop(colour), f"{first} shows the desktop")
    draw(compositor, other, PATTERN)
    lock.expect_exit_zero()
    return f"{first} back and showing {colour}, not the desktop; unlocked on {other}"
