"""Step 14: a pattern bound to the board's TPM, counted across a reboot, reset with the
recovery key, and never judged by a fresh TPM."""
import json
import time

from lib.checks import expect, expect_status

from .common import CHEAP_HASH, PATTERN, SYSTEM_CONF


def tpm_bound(b):
    """14. A TPM 2.0 on the board (QEMU's tpm-tis-device, swtpm behind it; the kernel's
    tpm_tis driver, /dev/tpmrm0): with `tpm = required` in /etc/patternlock.conf,
    `set-pattern` binds PATTERN to the TPM and prints the recovery key; `check` unlocks
    with it and counts a wrong one on the TPM; after a reboot from the same state disk
    and TPM the TPM's count is still there, the recovery key clears it and the pattern
    unlocks; the same disk on a board with a fresh TPM is never judged (`check` exits 8)."""
    started = time.monotonic()
    powered_off(b)
    chip = b.software_tpm("enrolled")
    key = tpm_enrolled(b, chip)
    powered_off(b)
    tpm_count_survives_reboot(b, chip, key)
    powered_off(b)
    b.require("TPM: the same state disk on a board with a fresh TPM boots", lambda: tpm_boot(b, b.software_tpm("fresh")))
    b.check("TPM: a fresh TPM never judges the enrolled pattern (check exits 8, not the enrolled TPM)",
            lambda: fresh_tpm_refuses(b))
    print(f"note the TPM steps took {time.monotonic() - started:.0f} s (three boots)", flush=True)


def tpm_enrolled(b, chip):
    """The first boot with `chip`: set-pattern binds PATTERN to it, check judges on it.
    Returns the recovery key set-pattern printed."""
    b.require("TPM: the board boots with a TPM (tpm-tis-device, swtpm behind it)", lambda: tpm_boot(b, chip))
    lines = []

    def enrols():
        mark = b.console.mark()
        status = b.console.shell(f"echo {PATTERN} | patternlock set-pattern {CHEAP_HASH} 2>/dev/null", b.within(60))
        lines.extend(b.console.output_lines(mark))
        expect_status(status, 0)
        expect(any(l.startswith("recovery key: ") for l in lines), f"no 'recovery key:' line in {lines}")
        return next(l for l in lines if l.startswith("pattern set"))
    b.require(f"TPM: set-pattern binds {PATTERN} to the TPM and prints the recovery key", enrols)
    key = next(l for l in lines if l.startswith("recovery key: "))[len("recovery key: "):]
    b.check("TPM: status says the pattern is bound to the TPM", lambda: status_has(b, tpm="yes", tpm_failures=0))
    check_exits(b, PATTERN, 0, "TPM: check unlocks with the right pattern (exit 0)")
    check_exits(b, "1-2-3-9", 3, "TPM: check of a wrong pattern exits 3")
    b.check("TPM: the TPM counted the wrong pattern", lambda: status_has(b, tpm_failures=1, failures=1))
    return key


def tpm_count_survives_reboot(b, chip, key):
    """The same disk and TPM again: the count goes on, the recovery key clears it."""
    b.require("TPM: the board boots again with the same state disk and TPM", lambda: tpm_boot(b, chip))
    b.check("TPM: the TPM's count survives the reboot", lambda: status_has(b, tpm="yes", tpm_failures=1))
    check_exits(b, "1-2-3-9", 3, "TPM: a wrong pattern after the reboot exits 3")
    b.check("TPM: the count goes on from the TPM's (2)", lambda: status_has(b, tpm_failures=2))
    status = b.console.shell(f"echo {key} | patternlock reset-attempts >/dev/null", b.within(30))
    b.check("TPM: reset-attempts with the printed recovery key (exit 0)", lambda: expect_status(status, 0))
    b.check("TPM: and the TPM's count is back to 0", lambda: status_has(b, tpm_failures=0, failures=0))
    check_exits(b, PATTERN, 0, "TPM: the right pattern unlocks after the reboot (exit 0)")


def fresh_tpm_refuses(b):
    """check of the right pattern on a TPM that is not the enrolled one: exit 8, no unlock."""
    mark = b.console.mark()
    status = b.console.shell(f"echo {PATTERN} | patternlock check 2>&1", b.within(30))
    said = b.console.output_lines(mark)
    expect_status(status, 8)
    expect(any("not the TPM the pattern was enrolled with" in l for l in said), f"check said {said}")
    expect(not any('"unlocked"' in l for l in said), f"check said {said}")
    return "exit 8: " + "; ".join(said)


def powered_off(b):
    """The guest powered off (poweroff -f: its file systems synced), QMP closed."""
    b.power_off()
    b.qmp.close()
    b.qmp = None


def tpm_boot(b, chip):
    """Boots with `chip` as the board's TPM, writes `tpm = required` to the guest's
    /etc/patternlock.conf (root-owned 0644, where the trust rule honours it; the
    initramfs forgets it at power-off) and checks the kernel made /dev/tpmrm0."""
    booted = b.boot(tpm=chip)
    status = b.console.shell(
        f"printf '[vault]\\ntpm = required\\n' >{SYSTEM_CONF} && chown root:root {SYSTEM_CONF} && chmod 0644 {SYSTEM_CONF}",
        b.within(10))
    expect_status(status, 0)
    status = b.console.shell("test -c /dev/tpmrm0", b.within(10))
    expect(status == 0, "no /dev/tpmrm0 in the guest (is tpm_tis loaded? see the console log)")
    return booted + ", /dev/tpmrm0 there"


def check_exits(b, pattern, want, name):
    status = b.console.shell(f"echo {pattern} | patternlock check >/dev/null 2>&1", b.within(30))
    b.check(name, lambda: expect_status(status, want))


def status_has(b, **want):
    """`patternlock status` has the fields `want` with these values; returns them."""
    mark = b.console.mark()
    status = b.console.shell("patternlock status", b.within(20))
    expect_status(status, 0)
    objects = [l for l in b.console.output_lines(mark) if l.startswith("{")]
    expect(objects, "status printed no JSON")
    got = json.loads(objects[-1])
    wrong = {k: got.get(k) for k, v in want.items() if got.get(k) != v}
    expect(not wrong, f"status has {wrong}, not {want}: {objects[-1]}")
    return ", ".join(f'"{k}":{json.dumps(got[k])}' for k in want)
