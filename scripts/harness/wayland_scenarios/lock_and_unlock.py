"""A session locked on two outputs: the idle pictures, a wrong pattern counted, a second
session-lock refused, the right pattern unlocking; and a killed client's lock taken over."""
import signal
import time

from lib.checks import expect

from .pointer import draw, hover_away
from .renders import frame_at, verdict_frames
from .screen import differing_pixels, matches_one, require_lock_shown, wait_locked, without_cursor
from .session import (FEEDBACK_MS, PATTERN, SUCCESS_COLOUR, WRONG, WRONG_COLOUR, Lock, checks, failures, is_desktop,
                      locked_session, one_line, paths)


def lock_wrong_right():
    with locked_session(outputs=2) as session:
        compositor = session.compositor
        lock = session.lock("--state-dir", paths.state, "--feedback-ms", str(FEEDBACK_MS))
        output = require_lock_shown(compositor, lock, "the lock is shown (two outputs)")
        other = next(name for name in compositor.outputs if name != output)
        checks.check("the picture is the lock screen's idle frame", lambda: idle_render_shown(compositor, output))
        checks.check("the other output shows the idle lock screen too", lambda: other_output_idle(compositor, other))
        checks.check("a wrong pattern drawn through the compositor does not unlock and is counted",
                     lambda: wrong_is_counted(compositor, lock, output, other))
        checks.check("a second session-lock is refused in one line; the first keeps the lock",
                     lambda: second_locker_refused(compositor, lock, other))
        checks.check("the right pattern unlocks and session-lock exits 0", lambda: right_unlocks(compositor, lock, output))


def idle_render_shown(compositor, output):
    """`output`, the pointer parked in its corner, equals the headless render of its size."""
    hover_away(compositor, output)
    width, height, rgb = compositor.picture(output)
    want = frame_at(f"{width}x{height}")
    expect((width, height) == want[:2], f"{width}x{height}, the render {want[0]}x{want[1]}")
    differing, box = differing_pixels(without_cursor((width, height, rgb), want), want)
    expect(differing == 0, f"{differing} pixels differ from the headless render{box}")
    return f"{output} {width}x{height} equals the headless render"


def other_output_idle(compositor, other):
    width, height, rgb = compositor.picture(other)
    want = frame_at(f"{width}x{height}")
    differing, box = differing_pixels((width, height, rgb), want)
    expect(differing == 0, f"{differing} pixels differ from the headless render at {width}x{height}{box}")
    return f"{other} {width}x{height} equals the headless render"


def wrong_is_counted(compositor, lock, output, other):
    """WRONG drawn on `output`: still locked, failures 1, the verdict the render's."""
    draw(compositor, output, WRONG)
    expect(lock.says('"result":"wrong"'), f"no wrong verdict: {lock.stdout()!r}")
    expect(lock.process.poll() is None, f"session-lock ended ({lock.process.returncode})")
    expect(failures() == 1, f"failures {failures()}")
    expect(not is_desktop(compositor.colour_at_centre(other)), "the desktop shows")
    # The verdict, held FEEDBACK_MS, is one of the headless render's pictures.
    hover_away(compositor, output)
    picture = compositor.picture(output)
    frames = verdict_frames(f"{picture[0]}x{picture[1]}", WRONG, FEEDBACK_MS)
    wrong = [f for f in frames if bytes(WRONG_COLOUR) in f[2]]
    expect(wrong, "the render shows no wrong verdict")
    found, why = matches_one(picture, wrong)
    expect(found, f"the wrong verdict is none of the render's: {why}")
    time.sleep(FEEDBACK_MS / 1000)
    return "still locked, failures 1, the verdict equal to the headless render's"


def second_locker_refused(compositor, lock, other):
    second = Lock("--state-dir", paths.state)
    status = second.wait(15)
    line = one_line(second.stderr())
    expect(status not in (None, 0), f"exit status {status}")
    expect("refused the session lock" in line, line)
    expect(lock.process.poll() is None, "the first lock ended")
    expect(not is_desktop(compositor.colour_at_centre(other)), "the desktop shows")
    return line


def right_unlocks(compositor, lock, output):
    """PATTERN drawn on `output`: the unlocked verdict is the render's, exit 0, the desktop back."""
    draw(compositor, output, PATTERN)
    hover_away(compositor, output)
    picture = compositor.picture(output)
    frames = [f for f in verdict_frames(f"{picture[0]}x{picture[1]}", PATTERN, FEEDBACK_MS)
              if bytes(SUCCESS_COLOUR) in f[2]]
    expect(frames, "the render shows no unlocked verdict")
    found, why = matches_one(picture, frames)
    expect(found, f"the unlocked verdict is none of the render's: {why}")
    lock.expect_exit_zero()
    expect("unlocked" in lock.stdout(), lock.stdout())
    compositor.wait_for(lambda: all(is_desktop(compositor.colour_at_centre(o)) for o in compositor.outputs), "desktop")
    expect(failures() == 0, f"failures {failures()} after the unlock")
    return "the unlocked verdict equal to the headless render's, exit 0, the desktop shows again"


def killed_and_taken_over():
    with locked_session(outputs=1) as session:
        compositor = session.compositor
        first = session.lock("--state-dir", paths.state)
        output = require_lock_shown(compositor, first, "a lock to kill is shown")
        checks.check("killing the client leaves the session locked", lambda: stays_locked(compositor, first, output))
        checks.check("a new session-lock takes the abandoned lock over", lambda: taken_over(session, output))


def stays_locked(compositor, first, output):
    first.kill(signal.SIGKILL)
    time.sleep(1.0)
    colour = compositor.colour_at_centre(output)
    expect(not is_desktop(colour), "the desktop shows after the lock was killed")
    return f"{output} shows {colour}"


def taken_over(session, output):
    compositor = session.compositor
    second = session.lock("--state-dir", paths.state)
    wait_locked(compositor, second)
    draw(compositor, output, PATTERN)
    second.expect_exit_zero()
    compositor.wait_for(lambda: is_desktop(compositor.colour_at_centre(output)), "desktop")
    return "the new lock took over and unlocked"
