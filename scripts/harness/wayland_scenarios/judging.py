"""Unlocking without the pointer's judge in-process: the keyboard, `patternlock judge`
over its socket, and session-lock as an unprivileged desktop user asking root's judge."""
import grp
import os
import pwd
import subprocess
import time

from lib.checks import expect

from .pointer import draw
from .screen import wait_locked
from .session import PATTERN, WRONG, Lock, checks, failures, in_root, is_desktop, locked_session, paths


def keyboard_and_judge_socket():
    with locked_session(outputs=1, failure_label="keyboard and judge set-up") as session:
        compositor = session.compositor
        lock = session.lock("--state-dir", paths.state)
        wait_locked(compositor, lock)
        checks.check("the keyboard (xkbcommon keysyms) unlocks", lambda: keys_unlock(lock))
        sock = os.path.join(paths.work, "judge.sock")
        if os.path.exists(sock):
            os.remove(sock)
        judge_log = open(os.path.join(paths.work, "judge.log"), "w+")
        session.judge(sock, judge_log)
        checks.check("session-lock judged over the judge's socket", lambda: judged_over_socket(compositor, sock, judge_log))


def keys_unlock(lock):
    # One virtual keyboard for all the keys, after a pause in which the lock
    # takes the new keyboard and its keymap.
    result = in_root("wtype", "-s", "400", "".join(str(dot) for dot in PATTERN), "-k", "Return")
    expect(result.returncode == 0, f"wtype: {result.stderr.strip()}")
    lock.expect_exit_zero()
    return "digits and Enter through the virtual keyboard"


def wrong_then_right(compositor, lock, output):
    """WRONG drawn and counted by the judge, then PATTERN unlocking (exit 0)."""
    draw(compositor, output, WRONG)
    expect(lock.says('"result":"wrong"'), f"no wrong verdict: {lock.stdout()!r} {lock.stderr()!r}")
    expect(failures() == 1, f"failures {failures()}")
    time.sleep(1.0)
    draw(compositor, output, PATTERN)
    lock.expect_exit_zero()


def judged_over_socket(compositor, sock, judge_log):
    lock = Lock("--judge-socket", sock)
    try:
        output = wait_locked(compositor, lock)
        wrong_then_right(compositor, lock, output)
        judge_log.seek(0)
        logged = judge_log.read()
        expect("judge: uid " in logged, f"the judge logged no peer: {logged!r}")
        return "wrong counted, right unlocked, both judged by patternlock judge"
    finally:
        lock.kill()


def desktop_user():
    """session-lock as an unprivileged desktop user (nobody), as docs/raspberry-pi.md
    section 11 sets it up: the compositor's socket is the user's, the vault is root's
    and out of its reach, and root's judge answers over a socket anyone may ask here
    (the unit's SocketGroup says who on a Pi)."""
    with locked_session(outputs=1, failure_label="desktop user set-up", reset_attempts=True) as session:
        compositor = session.compositor
        env = desktop_user_environment()
        sock, judge_log = judge_anyone_may_ask(session)
        lock = session.lock("--judge-socket", sock, user="nobody", env=env)
        output = wait_locked(compositor, lock)
        checks.check("session-lock as an unprivileged desktop user locks the session",
                     lambda: runs_as_the_user(lock, output, env))
        checks.check("the desktop user's lock is judged by root's judge over its socket",
                     lambda: judged_for_the_user(compositor, lock, output, judge_log))


def desktop_user_environment():
    """The user's runtime directory, and the compositor's socket opened to it (labwc runs
    as root here; on a Pi both are the user's own); returns the user's environment."""
    runtime = os.path.join(paths.work, "runtime-nobody")
    subprocess.run(["rm", "-rf", runtime], check=True)
    os.makedirs(runtime, mode=0o700)
    os.chown(runtime, pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid)
    os.chmod(paths.runtime, 0o711)
    os.chmod(os.path.join(paths.runtime, "wayland-0"), 0o666)
    return {"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": os.path.join(paths.runtime, "wayland-0")}


def judge_anyone_may_ask(session):
    """Root's judge on a socket any user may connect to; returns the socket and its log."""
    sockets = os.path.join(paths.work, "judge-socket-dir")
    subprocess.run(["rm", "-rf", sockets], check=True)
    os.makedirs(sockets)
    os.chmod(sockets, 0o755)
    sock = os.path.join(sockets, "judge.sock")
    judge_log = open(os.path.join(paths.work, "judge-nobody.log"), "w+")
    session.judge(sock, judge_log)
    os.chmod(sock, 0o666)
    return sock, judge_log


def runs_as_the_user(lock, output, env):
    with open(f"/proc/{lock.process.pid}/status") as status:
        uid = next(line.split()[1] for line in status if line.startswith("Uid:"))
    nobody = str(pwd.getpwnam("nobody").pw_uid)
    expect(uid == nobody, f"session-lock runs as uid {uid}")
    refused = subprocess.run([paths.patternlock, "status", "--state-dir", paths.state], capture_output=True, text=True,
                             user="nobody", group="nogroup", extra_groups=[], env=env)
    expect(refused.returncode != 0, "the user can read the vault's state")
    return f"uid {uid}, on {output}; the vault's state is out of its reach"


def judged_for_the_user(compositor, lock, output, judge_log):
    wrong_then_right(compositor, lock, output)
    compositor.wait_for(lambda: is_desktop(compositor.colour_at_centre(output)), "desktop")
    judge_log.seek(0)
    logged = judge_log.read()
    nobody = pwd.getpwnam("nobody").pw_uid
    expect(f"judge: uid {nobody}" in logged, f"the judge did not name the user: {logged!r}")
    return f"wrong counted by root's judge, right unlocked with exit 0, the judge logged uid {nobody}"
