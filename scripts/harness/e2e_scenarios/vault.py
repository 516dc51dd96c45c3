"""Step 8: the Vault on the state disk unlocking, with exec and the door strike from
the administrator's file, and a strike pulse cut short."""
import time

from lib.checks import expect, expect_status

from .common import CHEAP_HASH, PATTERN, RIGHT_CAPTURE, STATE, SYSTEM_CONF, countdown_text
from .gpio import gpio_level_seen, gpio_levels


def vault_unlocks(b):
    """8. The Vault (no --pattern) on the state disk: `set-pattern` stores PATTERN; run
    unlocks with strong-25943, pulses the door strike's GPIO line and hands off to exec.
    Both keys are in the guest's /etc/patternlock.conf, root-owned 0644: run as root
    refuses them on the command line (docs/security.md, "The trust rule")."""
    # Decoded now: later the countdown is looked at within its first seconds.
    b.require("the headless countdown pictures load", lambda: f"{len(b.countdown())} pictures, 1:00 to {countdown_text(len(b.countdown()) - 1)}")
    status = b.console.shell(f"echo {PATTERN} | patternlock set-pattern {CHEAP_HASH} >/dev/null", b.within(30))
    b.require(f"set-pattern stores {PATTERN} in {STATE} on the state disk", lambda: expect_status(status, 0))

    status = b.console.shell(
        f"printf '[lock]\\nexec = /bin/echo PL-EXEC-RAN\\n[actions]\\ngpio-unlock = gpiochip0:4:300\\n' >{SYSTEM_CONF}"
        f" && chown root:root {SYSTEM_CONF} && chmod 0644 {SYSTEM_CONF}", b.within(10))
    b.require(f"exec and gpio-unlock are written to {SYSTEM_CONF}", lambda: expect_status(status, 0))
    try:
        vault_unlocks_with_system_conf(b)
    finally:
        b.console.shell(f"rm -f {SYSTEM_CONF}", b.within(10))


def vault_unlocks_with_system_conf(b):
    """The unlock, door strike and hand-off of `vault_unlocks`, with its keys in place."""
    trace = b.gpio_trace_size()
    since = b.start_run("--timing --feedback-ms 500")
    b.run_line(since, "timing: start-to-first-flip-us=", 30)
    mark = b.inject(RIGHT_CAPTURE)
    b.check(f"vault: {RIGHT_CAPTURE} unlocks", lambda: b.run_json(mark, 20, '{"result":"unlocked"}', lambda o: o == {"result": "unlocked"}) and None)
    b.check("vault: run replaces itself with the exec command", lambda: b.run_line(mark, "PL-EXEC-RAN", 10, "the exec marker"))
    b.check("vault: the exec command's status is run's (exit 0)", lambda: b.run_line(mark, "exit 0", 5, "'exit 0'"))
    b.check("door strike: the unlock pulsed PL061 line 4 high, then low (QEMU's GPIO trace)",
            lambda: "; ".join(b.gpio_pulse(4, trace, 10)[-2:]))


def strike_rests_low(b):
    """8b. A strike pulse cut short never leaves the door open: SIGTERM to the pulse (what
    systemd sends the unit's whole cgroup when it stops or restarts the lock) drives the
    line low at once, and after a SIGKILL mid-pulse, which leaves the line high, the next
    check drives it low before it judges anything."""
    conf = "/etc/patternlock.conf.d/e2e-strike.conf"
    status = b.console.shell(
        f"mkdir -p -m 755 /etc/patternlock.conf.d && printf '[actions]\\ngpio-unlock = gpiochip0:4:60000\\n' > {conf} && chmod 644 {conf}",
        b.within(10))
    b.require("strike: a 60 s pulse configured in /etc/patternlock.conf.d", lambda: expect_status(status, 0))
    try:
        for signal, name in (("TERM", "SIGTERM"), ("KILL", "SIGKILL")):
            since = b.gpio_trace_size()
            status = b.console.shell(f"echo {PATTERN} | patternlock check >/dev/null", b.within(30))
            b.require(f"strike: check unlocks ({name} case)", lambda: expect_status(status, 0))
            b.require(f"strike: the pulse drives line 4 high ({name} case)",
                      lambda: "; ".join(gpio_level_seen(b, 4, since, ["1"], 10)))
            status = b.console.shell(f"kill -{signal} $(pidof patternlock)", b.within(10))
            b.require(f"strike: {name} reaches the pulse", lambda: expect_status(status, 0))
            if signal == "TERM":
                b.check("strike: SIGTERM mid-pulse drives the line low at once",
                        lambda: " ".join(gpio_level_seen(b, 4, since, ["1", "0"], 3)))
                continue
            time.sleep(1.0)
            b.check("strike: SIGKILL mid-pulse leaves the line high (what the next start must undo)",
                    lambda: expect(gpio_levels(b, 4, since)[-1:] == ["1"], f"levels {gpio_levels(b, 4, since)}"))
            status = b.console.shell("echo 1-2 | patternlock check >/dev/null", b.within(30))
            b.check("strike: the next check is 'too short' (nothing counted)", lambda: expect_status(status, 4))
            b.check("strike: and drove the line low at its start",
                    lambda: " ".join(gpio_level_seen(b, 4, since, ["1", "0"], 5)))
    finally:
        b.console.shell(f"rm -f {conf}", b.within(10))
