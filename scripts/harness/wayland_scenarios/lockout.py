"""Five different wrong patterns starting the lockout: the right one refused during it,
and the countdown equal to the headless render's."""
import time

from lib.checks import expect

from .pointer import draw, hover_away
from .renders import countdown_render, frame_at
from .screen import matches_one, matches_one_of_last, wait_locked
from .session import LOCKOUT_AFTER, PATTERN, WRONG_ONES, checks, failures, is_desktop, locked_session, paths


def lockout_countdown():
    with locked_session(outputs=1, failure_label="lockout set-up", reset_attempts=True) as session:
        compositor = session.compositor
        output = next(iter(compositor.outputs))
        lock = session.lock("--state-dir", paths.state)
        wait_locked(compositor, lock)
        # The countdown's picture, taken during the lockout, compared after its checks.
        shots = []
        checks.check("five different wrong patterns start the lockout", lambda: countdown_shown(compositor, lock, output, shots))
        checks.check("during the lockout even the right pattern does not unlock",
                     lambda: right_refused_while_locked_out(compositor, lock, output))
        checks.check("the lockout's countdown is the headless render's", lambda: countdown_is_the_render(shots))


def countdown_shown(compositor, lock, output, shots):
    for dots in WRONG_ONES:
        draw(compositor, output, dots)
        time.sleep(1.0)
    expect(failures() == LOCKOUT_AFTER, f"failures {failures()}")
    expect("retry_in_s" in lock.stdout(), f"no lockout in {lock.stdout()!r}")
    hover_away(compositor, output)
    picture = compositor.picture(output)
    size = f"{picture[0]}x{picture[1]}"
    idle = frame_at(size)
    expect(not matches_one(picture, [idle])[0], "the idle prompt shows, not the countdown")
    shots.append(picture)
    return f"{LOCKOUT_AFTER} wrong (all different): locked out, the countdown shown"


def right_refused_while_locked_out(compositor, lock, output):
    draw(compositor, output, PATTERN)
    time.sleep(1.5)
    expect(lock.process.poll() is None, f"session-lock ended with {lock.process.returncode}")
    expect(failures() == LOCKOUT_AFTER, f"failures {failures()}")
    expect(not is_desktop(compositor.colour_at_centre(output)), "the desktop shows")
    return "still locked, nothing counted"


def countdown_is_the_render(shots):
    expect(shots, "no picture of the countdown was taken")
    picture = shots[0]
    # One of the render's pictures of the same lockout (its seconds tick on both
    # clocks alike); compared after the lockout's checks, as decoding takes time.
    # Every second of the render's countdown, from 1:00 down: the strong
    # pattern's five refused drawings take about fifteen seconds.
    found, why = matches_one_of_last(picture, countdown_render(f"{picture[0]}x{picture[1]}"), 20)
    expect(found, f"the countdown is none of the render's last 20 pictures: {why}")
    return f"{picture[0]}x{picture[1]} equals the headless render's countdown"
