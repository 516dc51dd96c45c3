"""Step 15: the door panel's GPIO lines by name and chip label, the exit button, the
door contact, and a duress credential."""
import json
import time

from lib.checks import Failure, expect, expect_status

from .blanking import dpms_is
from .common import CHEAP_HASH, IDLE_BLANK_S, PATTERN, SYSTEM_CONF, TABLET_DOTS
from .gpio import gpio_level_seen, gpio_levels


DOOR_STATE = "/var/lib/patternlock-door"
DOOR_LINES = {3: "EXIT_BUTTON", 4: "DOOR_STRIKE"}
# The duress credential draws the tablet drag's 4-3-5-9-2 (its headless render, judged
# right, is REFERENCES/tablet-accepted); its on-duress hook leaves a mark.
DURESS_NAME, DURESS_PATTERN = "panic", "-".join(str(d) for d in TABLET_DOTS)
DURESS_HOOK, DURESS_MARK = "/etc/patternlock-e2e-duress", "/tmp/patternlock-e2e-duress"


def door_panel(b):
    """15. Lines by name and by chip label, active-low, the exit button and the door
    contact on the PL061 (QEMU's gpio-key drives line 3 for 100 ms on system_powerdown;
    gpio_keys, which would claim it, is not loaded in this image)."""
    door_board_enrolled(b)
    b.check("door: a line name no chip has is one line naming those there are (exit 1)", lambda: unknown_line_refused(b))
    try:
        exit_button_pulses_strike(b)
        door_contact_events(b)
        duress_at_the_door(b)
    finally:
        b.console.shell(f"rm -f {SYSTEM_CONF} {DURESS_HOOK}", b.within(10))


def door_board_enrolled(b):
    """A boot with the PL061's lines named in the device tree, the owner's pattern and the
    duress credential enrolled in DOOR_STATE."""
    dtb = b.device_tree(names=DOOR_LINES)
    if b.qemu is not None:
        b.power_off()  # the board before it holds the state disk
    b.require("door: the board boots with PL061 lines 3 and 4 named in its device tree", lambda: b.boot(dtb=dtb))
    status = b.console.shell(f"echo {PATTERN} | patternlock set-pattern --state-dir {DOOR_STATE} {CHEAP_HASH} >/dev/null", b.within(30))
    b.require(f"door: set-pattern stores {PATTERN} in {DOOR_STATE}", lambda: expect_status(status, 0))
    status = b.console.shell(
        f"echo {DURESS_PATTERN} | patternlock credential add {DURESS_NAME} --role duress --state-dir {DOOR_STATE}", b.within(30))
    b.require(f"door: credential add enrols {DURESS_NAME}, a duress credential drawing {DURESS_PATTERN}",
              lambda: expect_status(status, 0))


def write_system_conf(b, text):
    """Replaces the guest's /etc/patternlock.conf by `text` (printf escapes), mode 0644."""
    status = b.console.shell(f"printf '{text}' >{SYSTEM_CONF} && chmod 0644 {SYSTEM_CONF}", b.within(10))
    expect_status(status, 0)


def unknown_line_refused(b):
    """A gpio-unlock line name no chip has: check refuses in one line naming the lines there are."""
    write_system_conf(b, "[actions]\\ngpio-unlock = NO_SUCH_LINE\\n")
    mark = b.console.mark()
    status = b.console.shell(f"echo {PATTERN} | patternlock check --state-dir {DOOR_STATE} 2>&1", b.within(30))
    said = [l for l in b.console.output_lines(mark) if l.startswith("patternlock:")]
    want = "patternlock: gpio-unlock: no GPIO line is named NO_SUCH_LINE (named lines: EXIT_BUTTON, DOOR_STRIKE;"
    expect(status == 1 and len(said) == 1 and said[0].startswith(want), f"exit {status}: {said}")
    return said[0]


def door_log_events(b):
    """The events of the door's audit log, in order, without the attempts (which name a credential)."""
    mark = b.console.mark()
    b.console.shell(f"patternlock log --state-dir {DOOR_STATE} --json", b.within(20))
    events = []
    for line in b.console.output_lines(mark):
        if line.startswith("{"):
            entry = json.loads(line)
            if "credential" not in entry:
                events.append(entry["event"])
    return events


def wait_for_door_events(b, want, within):
    """Polls the audit log until its door events begin or end with `want`."""
    until = b.within(within)
    while True:
        events = door_log_events(b)
        if events[-len(want):] == want or events[:len(want)] == want:
            return events
        if time.monotonic() > until:
            raise Failure(f"the audit log's door events are {events}, not {want}")
        time.sleep(0.5)


def stop_door_run(b):
    b.stop_run()
    b.run_line(b.run_since, "exit ", 15)


def exit_button_pulses_strike(b):
    """The strike by line name, active-low, at rest high; the exit button pulses it low,
    and wakes the lock that had blanked meanwhile."""
    b.require("door: gpio-unlock by line name, active-low, and the exit button in /etc/patternlock.conf",
              lambda: write_system_conf(b, "[actions]\\ngpio-unlock = DOOR_STRIKE 300 active-low\\nexit-button = EXIT_BUTTON\\n"))
    since = b.gpio_trace_size()
    b.start_run(f"--state-dir {DOOR_STATE} --timing --idle-blank-s {IDLE_BLANK_S}")
    b.run_line(b.run_since, "timing: start-to-first-flip-us=", 30)
    b.check("door: run rests the active-low strike high (line 4)",
            lambda: " ".join(gpio_level_seen(b, 4, since, ["1"], 10)))
    b.check(f"door: the lock blanks after {IDLE_BLANK_S} s without anyone (dpms Off)", lambda: dpms_is(b, "Off", IDLE_BLANK_S + 10))
    since = b.gpio_trace_size()
    b.qmp.execute("system_powerdown")
    b.check("door: the exit button (line 3) pulses the strike low and back high",
            lambda: " ".join(gpio_level_seen(b, 4, since, ["0", "1"], 10)))
    b.check("door: the exit button wakes the blank lock (dpms On): someone is at the door", lambda: dpms_is(b, "On", 10))
    b.check("door: the press is in the audit log (exit-button)", lambda: " ".join(wait_for_door_events(b, ["exit-button"], 10)))
    stop_door_run(b)


def door_contact_events(b):
    """A door contact by chip label and offset: held open, then closed and forced open."""
    b.require("door: a door contact by chip label and offset, active-low, held open 1 s",
              lambda: write_system_conf(b, "[actions]\\ngpio-unlock = DOOR_STRIKE 300 active-low\\n"
                                        "door-sensor = 9030000.pl061:3 active-low\\ndoor-held-open-s = 1\\n"))
    b.start_run(f"--state-dir {DOOR_STATE} --timing")
    b.run_line(b.run_since, "timing: start-to-first-flip-us=", 30)
    # Line 3 rests low: with active-low the door reads open, and after 1 s it is held open.
    b.check("door: a door open since the start is logged held open after door-held-open-s",
            lambda: " ".join(wait_for_door_events(b, ["exit-button", "door-held-open"], 10)))
    b.qmp.execute("system_powerdown")
    b.check("door: closed for the pulse, then open again with no release: door-closed, door-forced",
            lambda: " ".join(wait_for_door_events(b, ["exit-button", "door-held-open", "door-closed", "door-forced"], 10)))
    stop_door_run(b)


# The strike's keys for the duress steps; duress-opens is added to them or left at its default.
DURESS_STRIKE = "[actions]\\ngpio-unlock = DOOR_STRIKE 300 active-low\\nhook-user = root\\n" f"on-duress = {DURESS_HOOK}\\n"


def duress_at_the_door(b):
    """15b. A duress credential at the door: with `duress-opens = no`, drawing its pattern
    on the tablet is an unlock as any other (the same picture as the headless render's
    unlock of that drawing, the same line, exit 0), on-duress runs with the credential's
    name, the audit log says duress, and the strike stays shut; with the default (yes),
    the same pattern given to check pulses the strike."""
    b.require("duress: an on-duress hook that writes its event and credential to a file",
              lambda: expect_status(b.console.shell(
                  f"printf '#!/bin/sh\\necho \"$PATTERNLOCK_EVENT $PATTERNLOCK_CREDENTIAL\" >{DURESS_MARK}\\n' >{DURESS_HOOK}"
                  f" && chmod 0755 {DURESS_HOOK} && rm -f {DURESS_MARK}", b.within(10)), 0))
    b.require("duress: duress-opens = no in /etc/patternlock.conf", lambda: write_system_conf(b, DURESS_STRIKE + "duress-opens = no\\n"))
    duress_unlock_keeps_strike_shut(b)
    b.require("duress: duress-opens left at its default (yes)", lambda: write_system_conf(b, DURESS_STRIKE))
    duress_check_opens_by_default(b)


def duress_unlock_keeps_strike_shut(b):
    """With duress-opens = no: the tablet's duress drawing unlocks as any other, the hook
    runs, the audit log says duress, and line 4 never leaves its rest."""
    b.start_run(f"--state-dir {DOOR_STATE} --feedback-ms {b.feedback} --timing")
    b.run_line(b.run_since, "timing: start-to-first-flip-us=", 30)
    # After run put the strike at rest (before its first flip): from here on, any
    # move of line 4 would be the duress unlock's.
    since = b.gpio_trace_size()
    mark = b.console.mark()
    b.draw(b.tablet_steps)
    b.check(f"duress: drawing {DURESS_PATTERN} unlocks with the owner's line",
            lambda: b.run_json(mark, 20, '{"result":"unlocked"}', lambda o: o == {"result": "unlocked"}) and None)
    b.check("duress: the screen shows the unlock of that drawing (the headless render's, judged right)",
            lambda: b.picture("tablet-accepted", b.feedback / 1000 - 0.5))
    b.check("duress: run exits 0 as after any unlock", lambda: b.run_line(mark, "exit 0", b.feedback / 1000 + 5, "'exit 0'"))
    b.check("duress: on-duress ran with PATTERNLOCK_EVENT and PATTERNLOCK_CREDENTIAL", lambda: duress_hook_ran(b))
    b.check("duress: the audit log's unlocked entry says duress", lambda: duress_logged(b))
    time.sleep(0.5)  # the 300 ms a pulse would have taken
    b.check("duress: with duress-opens = no the strike (line 4) never left its rest",
            lambda: expect("0" not in gpio_levels(b, 4, since), f"line 4 went {gpio_levels(b, 4, since)}"))


def duress_hook_ran(b):
    """Polls for the on-duress hook's mark file: the event and the credential's name."""
    until = b.within(10)
    while True:
        seen = b.console.mark()
        b.console.shell(f"cat {DURESS_MARK} 2>/dev/null", b.within(10))
        said = [l for l in b.console.output_lines(seen) if l.startswith("duress ")]
        if said:
            expect(said[-1] == f"duress {DURESS_NAME}", f"on-duress wrote '{said[-1]}'")
            return said[-1]
        if time.monotonic() > until:
            raise Failure(f"on-duress wrote nothing to {DURESS_MARK} within 10 s")
        time.sleep(0.5)


def duress_logged(b):
    """The audit log's last attempt is an unlock by the duress credential, reason duress."""
    seen = b.console.mark()
    b.console.shell(f"patternlock log --state-dir {DOOR_STATE} --json", b.within(20))
    entries = [json.loads(l) for l in b.console.output_lines(seen) if l.startswith("{")]
    last = next((e for e in reversed(entries) if "credential" in e), None)
    want = {"event": "unlocked", "credential": DURESS_NAME, "reason": "duress"}
    expect(last is not None and all(last.get(k) == v for k, v in want.items()), f"the last attempt logged is {last}")
    return json.dumps({k: last[k] for k in want})


def duress_check_opens_by_default(b):
    """With duress-opens at its default, check of the duress pattern pulses the strike."""
    since = b.gpio_trace_size()
    mark = b.console.mark()
    status = b.console.shell(f"echo {DURESS_PATTERN} | patternlock check --state-dir {DOOR_STATE}", b.within(30))
    b.check("duress: check of the duress pattern exits 0, its line naming the credential",
            lambda: expect(status == 0 and f'{{"result":"unlocked","credential":"{DURESS_NAME}"}}' in b.console.output_lines(mark),
                           f"exit {status}: {b.console.output_lines(mark)[-3:]}"))
    b.check("duress: by default the duress unlock pulses the strike low and back high",
            lambda: " ".join(gpio_level_seen(b, 4, since, ["0", "1"], 10)))
