#!/usr/bin/env python3
"""Attacks the attempt counter the way the security review did, with real processes
on a real state directory, and checks what a lock must never do: lose a counted
failure, unlock with a wrong pattern, or unlock while the state cannot be written.

Each scenario uses a fresh state directory and the debug build (it has the test
seams: PATTERNLOCK_CONFIG_ROOT may set the throttle, PATTERNLOCK_TEST_LOCK_WAIT_MS,
PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP). Ends with "N passed, N failed".

Usage: throttle_test.py BINARY
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.checks import Failure  # noqa: E402
from lib.listener import wait_for_listener  # noqa: E402

BINARY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ".build/debug/patternlock"
# README.md's example pattern: set-pattern refuses the head of an attacker's order.
RIGHT = "2-5-9-4-3"
# Distinct wrong patterns (none is the right one, none repeats: the 5-minute repeat
# rule would not count a repeat).
WRONGS = [p for p in (f"{a}-{b}-{c}-{d}" for a in range(1, 10) for b in range(1, 10) for c in range(1, 10) for d in range(1, 10)
                      if len({a, b, c, d}) == 4) if p != RIGHT][:400]
random.Random(7).shuffle(WRONGS)

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""), flush=True)


class Vault:
    """A state directory with the right pattern set (cheap Argon2 cost) and a config
    root whose /etc/patternlock.conf names it (and, for some scenarios, a throttle)."""

    def __init__(self, throttle=None, state_parent=None):
        self.root = tempfile.mkdtemp(prefix="throttle-test-")
        self.state = os.path.join(state_parent or self.root, "state")
        os.makedirs(os.path.join(self.root, "etc"))
        conf = f"[vault]\nstate-dir = {self.state}\nargon-passes = 1\nargon-memory-mib = 8\n"
        if throttle:
            conf += throttle
        with open(os.path.join(self.root, "etc", "patternlock.conf"), "w") as f:
            f.write(conf)
        self.env = dict(os.environ, PATTERNLOCK_CONFIG_ROOT=self.root)
        out = self.run(["set-pattern"], RIGHT + "\n")
        assert out.returncode == 0, out.stderr

    def run(self, args, stdin, env=None, timeout=120):
        return subprocess.run([BINARY] + args, input=stdin, capture_output=True, text=True,
                              env=dict(self.env, **(env or {})), timeout=timeout)

    def start_check(self, env=None):
        return subprocess.Popen([BINARY, "check"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=dict(self.env, **(env or {})))

    def failures(self):
        """The counter on disk, read with `status`-free means: the attempts file."""
        text = open(os.path.join(self.state, "attempts")).read()
        for line in text.splitlines():
            if line.startswith("failures "):
                return int(line.split()[1])
        raise AssertionError("no failures line: " + text)

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)


def finish(process):
    """Standard output and error of a started check whose input is already closed."""
    out, err = process.stdout.read(), process.stderr.read()
    process.wait(timeout=120)
    return out, err


NO_LOCKOUT = "throttle = 0\npermanent-after = 1000\n"


def parallel_wrong_checks():
    vault = Vault(NO_LOCKOUT)
    procs = [vault.start_check() for _ in range(20)]
    for p, w in zip(procs, WRONGS):
        p.stdin.write(w + "\n")
    outs = [p.communicate(timeout=120) for p in procs]
    statuses = [p.returncode for p in procs]
    check("20 wrong checks at once: every one judged and counted (exit 3)", statuses == [3] * 20, f"{statuses} {[o[1] for o in outs if o[1]]}")
    check("20 wrong checks at once: the counter is 20", vault.failures() == 20, f"counter {vault.failures()}")
    leftovers = [n for n in os.listdir(vault.state) if ".tmp" in n]
    check("no temporary file is left behind", leftovers == [], str(leftovers))
    vault.remove()


def checks_started_before_others_are_judged():
    """Ten checks start and wait for their pattern; then nine wrong and the right one
    are fed one at a time. Android's table locks after the 5th: the rest, the right
    pattern too, are refused, and the counter is 5."""
    vault = Vault()
    procs = [vault.start_check() for _ in range(10)]
    time.sleep(0.5)
    statuses = []
    for p, pattern in zip(procs, WRONGS[:9] + [RIGHT]):
        p.stdin.write(pattern + "\n")
        p.stdin.close()
        p.wait(timeout=60)
        statuses.append(p.returncode)
    check("checks started early: 5 counted, then locked out, the right one too",
          statuses == [3] * 5 + [5] * 5, str(statuses))
    check("checks started early: the counter is 5", vault.failures() == 5, f"counter {vault.failures()}")
    vault.remove()


def stopped_check_resumed_after_others():
    """A check stopped (SIGSTOP) before it judges, while four others count; resumed,
    it counts the 5th failure: it never writes a count from a stale copy."""
    vault = Vault(NO_LOCKOUT)
    stopped = vault.start_check()
    time.sleep(0.3)
    os.kill(stopped.pid, signal.SIGSTOP)
    for w in WRONGS[:4]:
        assert vault.run(["check"], w + "\n").returncode == 3
    stopped.stdin.write(WRONGS[4] + "\n")
    stopped.stdin.close()
    os.kill(stopped.pid, signal.SIGCONT)
    out, err = finish(stopped)
    check("a stopped check resumed after four others counts the 5th failure", '"failures":5' in out and vault.failures() == 5,
          f"{out!r} {err!r} counter {vault.failures()}")
    vault.remove()


def lock_holder_blocks_but_never_opens():
    """Another holder of the state lock: a check waits for it; past the bound it gives
    up without judging (exit 8), never judging against an unlocked record."""
    vault = Vault(NO_LOCKOUT)
    lock = os.path.join(vault.state, "lock")
    holder = subprocess.Popen(["flock", lock, "sleep", "3"])
    time.sleep(0.3)
    started = time.monotonic()
    gave_up = vault.run(["check"], RIGHT + "\n", env={"PATTERNLOCK_TEST_LOCK_WAIT_MS": "1000"})
    waited = time.monotonic() - started
    check("a check that cannot get the lock in time is not judged (exit 8, one line)",
          gave_up.returncode == 8 and gave_up.stdout == "" and gave_up.stderr.count("\n") == 1 and "not judged" in gave_up.stderr,
          f"{gave_up.returncode} {gave_up.stdout!r} {gave_up.stderr!r}")
    check("it waited about the bound first", 0.9 <= waited < 10, f"{waited:.1f} s")
    waiter = vault.run(["check"], WRONGS[0] + "\n")
    holder.wait(timeout=10)
    check("a check started while the lock is held waits for it and is judged", waiter.returncode == 3 and vault.failures() == 1,
          f"{waiter.returncode} {waiter.stderr!r}")
    vault.remove()


def kill_at_every_write_step():
    """kill -9 at each step of the write (the crash seam) and between counting and
    verifying: the counter never goes back, and the right pattern crashed after its
    failure was counted stays counted."""
    vault = Vault(NO_LOCKOUT)
    before = vault.failures()
    regressions = []
    for step in list(range(1, 10)) + [20]:
        for pattern in (WRONGS[step], RIGHT):
            run = vault.run(["check"], pattern + "\n", env={"PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": str(step)})
            after = vault.failures()
            if run.returncode != 86 or run.stdout or after < before or after > before + 1:
                regressions.append((step, pattern == RIGHT, run.returncode, before, after))
            if step == 20 and after != before + 1:
                regressions.append(("counted before verifying", pattern == RIGHT, before, after))
            before = after
    check("kill at every write step: never a lost count, never a result shown", regressions == [], str(regressions))
    vault.remove()


def random_kills_under_load():
    """Thirty wrong checks, killed at random moments: the file stays intact, every
    failure a check reported is on disk, and no wrong pattern unlocks."""
    vault = Vault(NO_LOCKOUT)
    rng = random.Random(11)
    procs = []
    for i in range(30):
        p = vault.start_check()
        pattern = WRONGS[100 + i]
        p.stdin.write(pattern + "\n")
        p.stdin.close()
        procs.append((p, pattern))
    for p, _ in procs:
        if rng.random() < 0.4:
            time.sleep(rng.random() * 0.05)
            p.kill()
    reported = []
    wrong_unlocks = 0
    for p, pattern in procs:
        out, _ = finish(p)
        if p.returncode == 0 and pattern != RIGHT:
            wrong_unlocks += 1
        if '"failures":' in out:
            reported.append(int(out.split('"failures":')[1].split("}")[0]))
    on_disk = vault.failures()
    intact = vault.run(["check"], WRONGS[200] + "\n")
    check("random kill -9 under load: no wrong pattern unlocked", wrong_unlocks == 0)
    check("random kill -9 under load: no reported failure is lost", len(reported) > 0 and max(reported) <= on_disk <= 30,
          f"reported {reported}, on disk {on_disk}")
    check("random kill -9 under load: the attempts file is intact afterwards", intact.returncode == 3, intact.stderr)
    vault.remove()


def unwritable_state(kind):
    """A state directory that cannot be written: nothing is judged (exit 8), the right
    pattern least of all, and the counter is where it was."""
    if os.geteuid() != 0:
        print(f"skip {kind} state directory: needs root to mount a small tmpfs")
        return
    mount = tempfile.mkdtemp(prefix=f"throttle-{kind}-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", mount], check=True)
    try:
        vault = Vault(state_parent=mount)
        assert vault.run(["check"], WRONGS[0] + "\n").returncode == 3
        if kind == "read-only":
            subprocess.run(["mount", "-o", "remount,ro", mount], check=True)
        else:
            fd = os.open(os.path.join(mount, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                while os.write(fd, b"\0" * 512) > 0:
                    pass
            except OSError:
                pass
            os.close(fd)
        for pattern, what in ((WRONGS[1], "a wrong"), (RIGHT, "the right")):
            run = vault.run(["check"], pattern + "\n")
            check(f"{kind} state: {what} pattern is not judged (exit 8, one line, nothing on stdout)",
                  run.returncode == 8 and run.stdout == "" and run.stderr.count("\n") == 1 and "not judged" in run.stderr,
                  f"{run.returncode} {run.stdout!r} {run.stderr!r}")
        check(f"{kind} state: the counter still says 1", vault.failures() == 1, f"counter {vault.failures()}")
        if kind == "read-only":
            subprocess.run(["mount", "-o", "remount,rw", mount], check=True)
        else:
            os.remove(os.path.join(mount, "filler"))
        run = vault.run(["check"], RIGHT + "\n")
        check(f"{kind} state repaired: the right pattern unlocks again", run.returncode == 0, run.stderr)
        log = vault.run(["log", "--json"], "")
        events = [json.loads(line)["event"] for line in log.stdout.splitlines()]
        # An unjudged attempt may leave its `attempt` entry (and a `refused`), never a verdict.
        verdicts = [event for event in events if event not in ("attempt", "refused")]
        check(f"{kind} state: the audit log holds every judged attempt and no verdict for the unjudged",
              verdicts == ["pattern-set", "wrong", "unlocked"] and events.count("attempt") >= 2, f"{events} {log.stderr!r}")
        vault.remove()
    finally:
        subprocess.run(["umount", "-l", mount])
        os.rmdir(mount)


CLIENT = """
import socket, sys, threading
path, patterns = sys.argv[1], sys.argv[2:]
answers = [None] * len(patterns)
def ask(i):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(120)
    s.connect(path)
    s.sendall((patterns[i] + "\\n").encode())
    answers[i] = s.makefile().readline().strip()
threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(patterns))]
for t in threads: t.start()
for t in threads: t.join()
print("\\n".join(a or "" for a in answers))
"""


def judge_socket_attacked_by_a_user():
    """The judge as its socket unit runs it (one root process per accepted connection,
    the connection on its standard input and output), asked by an unprivileged user
    with 20 wrong patterns at once: one judgement per user at a time, so one is judged
    and counted and the others are refused uncounted, and none unlocks; then 20 users
    at once, one pattern each: every one is judged and counted, in one counter."""
    if os.geteuid() != 0:
        print("skip the judge socket attacked by a user: it needs root (to be root's judge and another user's client)")
        return
    vault = Vault(NO_LOCKOUT)
    socket_dir = tempfile.mkdtemp(prefix="judge-socket-")
    os.chmod(socket_dir, 0o755)
    path = os.path.join(socket_dir, "judge.sock")
    log = open(os.path.join(vault.root, "judge.log"), "w")
    server = subprocess.Popen(["systemd-socket-activate", "--accept", "--inetd", "-l", path,
                               "-E", f"PATTERNLOCK_CONFIG_ROOT={vault.root}", BINARY, "judge"],
                              stdout=subprocess.DEVNULL, stderr=log)
    try:
        try:
            wait_for_listener(path, 10, "systemd-socket-activate")
        except Failure as failure:
            check("the judge's socket listens", False, str(failure))
            return
        os.chmod(path, 0o666)  # the unit's SocketGroup/SocketMode say who may ask; here anyone
        patterns = WRONGS[:20]
        # The system Python: a user-installed one may sit where nobody cannot read.
        client = subprocess.run(["/usr/bin/python3", "-c", CLIENT, path] + patterns, capture_output=True, text=True,
                                timeout=240, user="nobody", group="nogroup", extra_groups=[])
        answers = [json.loads(line) if line.startswith("{") else line for line in client.stdout.splitlines()]
        results_seen = [a.get("result") if isinstance(a, dict) else a for a in answers]
        judged = results_seen.count("wrong")
        check("judge socket: 20 wrong patterns at once from one user: each judged wrong or refused uncounted, none unlocks",
              len(results_seen) == 20 and judged >= 1 and all(r in ("wrong", "not-judged") for r in results_seen),
              f"{results_seen} {client.stderr[-300:]}")
        check("judge socket: the counter holds exactly the judged ones", vault.failures() == judged,
              f"counter {vault.failures()}, judged {judged}")
        # Twenty users at once (uids without accounts: the kernel names them all the same),
        # one wrong pattern each: one user's judgements no longer starve another's.
        before = vault.failures()
        clients = [subprocess.Popen(["/usr/bin/python3", "-c", CLIENT, path, WRONGS[20 + i]], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, user=60001 + i, group=65534, extra_groups=[])
                   for i in range(20)]
        many = []
        for c in clients:
            out, _ = c.communicate(timeout=240)
            many.append(json.loads(out.strip()) if out.strip().startswith("{") else out.strip())
        check("judge socket: 20 users at once, one pattern each: every one judged wrong",
              [a.get("result") if isinstance(a, dict) else a for a in many] == ["wrong"] * 20, str(many)[:300])
        check("judge socket: the one counter holds all 20 of them", vault.failures() == before + 20,
              f"counter {vault.failures()}, before {before}")
        counts = sorted(a.get("failures", 0) for a in many if isinstance(a, dict))
        check("judge socket: each answer has its own count (judged one at a time)",
              counts == list(range(before + 1, before + 21)), str(counts))
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
        shutil.rmtree(socket_dir, ignore_errors=True)
    with open(os.path.join(vault.root, "judge.log")) as f:
        asked = [l for l in f if "judge: uid" in l or "judge: " in l]
    nobody = str(__import__("pwd").getpwnam("nobody").pw_uid)
    check("judge socket: each judgement names the asking user",
          sum(1 for l in asked if f"uid {nobody}" in l) >= 20 and all(any(f"uid {60001 + i} " in l for l in asked) for i in range(20)),
          "".join(asked[:3]))
    vault.remove()


def main():
    if not os.access(BINARY, os.X_OK):
        print(f"throttle_test: no binary at {BINARY} (build first: swift build)", file=sys.stderr)
        return 2
    for scenario in (parallel_wrong_checks, checks_started_before_others_are_judged, stopped_check_resumed_after_others,
                     lock_holder_blocks_but_never_opens, kill_at_every_write_step, random_kills_under_load,
                     judge_socket_attacked_by_a_user):
        scenario()
    unwritable_state("read-only")
    unwritable_state("full")
    passed = sum(results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
