"""Step 16: a board with a Raspberry Pi's shape: a render-only card first, two display
cards connected at once, a backlight on a GPIO line, a tablet plugged in after the lock
is up, and touch reported at 25 Hz."""
import time

from lib.checks import Failure, expect, expect_status

from .common import PATTERN, TABLET_DOTS, UNLOCK_DOTS
from .gpio import gpio_level_seen, gpio_levels
from .small_panels import cirrus_video_memory

# The PL061 line the device tree's gpio-backlight switches (the door uses 3 and 4).
BACKLIGHT_LINE = 5
# A polled touch controller's report period: the Raspberry Pi 7-inch panel's FT5406
# through the firmware reports at about 25 Hz.
SAMPLE_S = 0.040
# The PCIe root port the late tablet is plugged into (QEMU's `virt` root bus takes no
# hot-plugged device).
HOTPLUG_PORT = "hotplug0"
# Idle blanking: longer than a verdict and the grid's clearing, so that the owner's
# pattern drawn after a wrong one is not the touch that wakes a dark screen.
IDLE_BLANK_S = 8


def pi_shaped_board(b):
    """16. On one boot whose kernel loads vgem before the display drivers (card0 renders
    and has no connectors, as v3d on a Pi 5), with virtio-gpu (card1) and cirrus-vga
    (card2) both connected, a gpio-backlight on PL061 line 5, and no tablet at power-on:
      - run, with no `output =` and no input device, takes card1 and says why in one
        line naming card0 as render-only and cirrus' VGA-1 as also connected; the idle
        picture is on virtio-gpu;
      - idle blanking switches the backlight off (line 5 low, brightness 0) and leaves
        the panel powered (dpms On);
      - a tablet plugged in with QMP device_add: its first touch lights the backlight
        (line 5 high) after virtio-gpu has shown a frame, with the idle picture;
      - the tablet, sampled every 40 ms, draws a wrong 4-3-5-9-2 (reported with those
        dots, the red verdict); unplugged and plugged in again (device_del, device_add),
        it draws the owner's pattern: unlocked, exit 0, and the backlight is back at
        the level it had before run;
      - `--output VGA-1` takes the other card: the lock in cirrus' video memory."""
    if b.qemu is not None:
        b.power_off()  # the board before it holds the state disk
    dtb = b.device_tree(backlight_line=BACKLIGHT_LINE)
    b.require("Pi-shaped board: boots with vgem first, virtio-gpu and cirrus-vga, a gpio-backlight and no tablet",
              lambda: b.boot(devices=["cirrus-vga,id=video1,romfile=", f"pcie-root-port,id={HOTPLUG_PORT},chassis=1"],
                             dtb=dtb, board_options=["--render-card-first", "--no-tablet"]))
    b.require("Pi-shaped board: card0 is vgem (render only), card1 virtio-gpu, card2 cirrus, one backlight",
              lambda: cards_and_backlight(b))
    since = b.start_run(f"--pattern {PATTERN} --idle-blank-s {IDLE_BLANK_S} --feedback-ms {b.feedback}")
    b.require("Pi-shaped board: run chooses virtio-gpu's card1 and says why in one line", lambda: choice_line(b, since))
    b.check("Pi-shaped board: the idle picture is on virtio-gpu", lambda: b.picture("idle", 10))
    b.check("Pi-shaped board: run says which backlight it switches",
            lambda: b.run_line(since, "patternlock: backlight backlight (0-1, lit at 1)", 5))
    traced = b.gpio_trace_size()
    b.check(f"Pi-shaped board: idle blanking switches the backlight off (line {BACKLIGHT_LINE} low, brightness 0)",
            lambda: backlight_is(b, traced, "0", IDLE_BLANK_S + 10))
    b.check("Pi-shaped board: the panel stays powered while dark (dpms On)", lambda: card1_dpms(b, "On"))
    late_tablet_wakes(b)
    drawn_at_25_hz(b, since)
    b.check("Pi-shaped board: `--output VGA-1` takes cirrus on card2", lambda: output_named(b))


def cards_and_backlight(b):
    """The cards in order with their connectors, and the backlights sysfs has."""
    mark = b.console.mark()
    status = b.console.shell("for c in /sys/class/drm/card?; do echo PL-CARD ${c##*/} $(basename $(readlink -f $c/device)) "
                             "$(cd /sys/class/drm && ls -d ${c##*/}-* 2>/dev/null | sed 's/^card.-//'); done; "
                             "ls /sys/class/backlight | sed 's/^/PL-BACKLIGHT /'", b.within(10))
    expect_status(status, 0)
    lines = b.console.output_lines(mark)
    cards = [l.split()[1:] for l in lines if l.startswith("PL-CARD ")]
    lights = [l.split()[1] for l in lines if l.startswith("PL-BACKLIGHT ")]
    shape = [(c[0], c[2:]) for c in cards]
    expect(shape == [("card0", []), ("card1", ["Virtual-1"]), ("card2", ["VGA-1"])] and cards[0][1] == "vgem"
           and lights == ["backlight"], f"cards (name, device, connectors) {cards}, backlights {lights}")
    return f"cards {cards}; backlight {lights[0]}"


def choice_line(b, since):
    """The one line of run's choice: the card, its reason, the alternatives."""
    line = b.run_line(since, "patternlock: display: ", 30)
    want = ("patternlock: display: Virtual-1 on /dev/dri/card1 (virtio_gpu): the first display in card order; "
            "also connected: VGA-1 on /dev/dri/card2; render-only: /dev/dri/card0 (vgem)")
    expect(line == want, f"run said {line!r}, not {want!r}")
    b.run_line(since, "patternlock: showing the lock on", 30)
    return line


def backlight_is(b, traced, level, within):
    """The backlight's line ends at `level` in QEMU's trace after byte `traced`, and sysfs
    reads that brightness."""
    seen = gpio_level_seen(b, BACKLIGHT_LINE, traced, [level], within)
    mark = b.console.mark()
    b.console.shell("echo PL-BRIGHTNESS $(cat /sys/class/backlight/backlight/brightness)", b.within(10))
    said = [l for l in b.console.output_lines(mark) if l.startswith("PL-BRIGHTNESS ")]
    expect(said == [f"PL-BRIGHTNESS {level}"], f"sysfs says {said}")
    return f"line {BACKLIGHT_LINE} went {seen}; brightness {level}"


def card1_dpms(b, want):
    mark = b.console.mark()
    b.console.shell("cat /sys/class/drm/card1-Virtual-1/dpms | sed 's/^/PL-DPMS /'", b.within(10))
    said = [l for l in b.console.output_lines(mark) if l.startswith("PL-DPMS ")]
    expect(said == [f"PL-DPMS {want}"], f"virtio-gpu's connector reads {said}")
    return said[0]


def late_tablet_wakes(b):
    """A tablet plugged in while the lock is dark: its first touch (on the prompt, off the
    grid) lights the backlight, the idle picture on screen."""
    b.qmp.execute("device_add", driver="virtio-tablet-pci", id="late-tablet", bus=HOTPLUG_PORT)
    if not b.check("Pi-shaped board: the tablet plugged in after the lock is up is an input device",
                   lambda: tablet_present(b, True)):
        return
    traced = b.gpio_trace_size()
    touch = b.layout.prompt_centre()

    def wake(since):
        # libinput opens the new device once udev has tagged it: touch until it wakes.
        until = b.within(20)
        while True:
            b.tablet(*touch, True)
            b.tablet(*touch, False)
            time.sleep(1.0)
            if gpio_levels(b, BACKLIGHT_LINE, since)[-1:] == ["1"]:
                return
            if time.monotonic() > until:
                raise Failure(f"touches with the late tablet did not light the backlight (line {BACKLIGHT_LINE} went "
                              f"{gpio_levels(b, BACKLIGHT_LINE, since)})")

    def woken():
        # The trace orders what QEMU did, not what the guest asked: the GPIO write is
        # traced as the guest makes it, the frame's flush when QEMU's main loop gets to
        # it, which a loaded host can delay past the kernel's 50 ms wait for it. A lock
        # that lit before showing would be lit first on every wake, so up to three wakes
        # (blank again in between) are given, and one in order passes.
        since, late = traced, []
        for attempt in range(3):
            wake(since)
            try:
                return lit_after_a_frame(b, since) + "; " + backlight_is(b, since, "1", 5) + \
                    (f" (after {len(late)} wake(s) the host's flush came late)" if late else "")
            except Failure as failure:
                late.append(str(failure))
            backlight_is(b, b.gpio_trace_size(), "0", IDLE_BLANK_S + 10)
            since = b.gpio_trace_size()
        raise Failure("; ".join(late))
    if b.check("Pi-shaped board: the late tablet's first touch lights the backlight (line 5 high, brightness 1)", woken):
        b.check("Pi-shaped board: the idle picture is lit", lambda: b.picture("idle", 5))


def tablet_present(b, present, within=30):
    """Waits until the guest has (`present`) or has not a virtio tablet's event node."""
    until = b.within(within)
    while True:
        mark = b.console.mark()
        b.console.shell("grep -l 'QEMU Virtio Tablet' /sys/class/input/event*/device/name 2>/dev/null | sed 's/^/PL-TABLET /'",
                        b.within(10))
        found = [l for l in b.console.output_lines(mark) if l.startswith("PL-TABLET ")]
        if bool(found) == present:
            return found[0] if found else "no virtio tablet"
        if time.monotonic() > until:
            raise Failure(f"the guest {'has no' if present else 'still has a'} virtio tablet {within} s later")
        time.sleep(0.5)


def lit_after_a_frame(b, traced):
    """In QEMU's trace after byte `traced`, virtio-gpu sent a frame before the backlight's
    line went high: the picture is on screen before it is lit."""
    with open(b.gpio_trace, encoding="utf-8", errors="replace") as trace:
        trace.seek(traced)
        lines = [l for l in trace if "virtio_gpu_cmd_res_flush" in l or f"setting output {BACKLIGHT_LINE} to 1" in l]
    lit = next(i for i, l in enumerate(lines) if "setting output" in l)
    expect(lit > 0, "the backlight was lit before virtio-gpu showed a frame")
    return f"{lit} frame(s) shown before the backlight was lit"


def replugged(b):
    """The tablet unplugged (QMP device_del) and plugged in again while run is up; if the
    lock blanked meanwhile, a touch on the prompt wakes it."""
    b.qmp.execute("device_del", id="late-tablet")
    tablet_present(b, False)
    # QEMU frees the slot once the guest has let the device go (DEVICE_DELETED).
    until = b.within(20)
    while True:
        try:
            b.qmp.execute("qom-get", path="/machine/peripheral/late-tablet", property="type")
        except Failure:
            break
        if time.monotonic() > until:
            raise Failure("QEMU still has the unplugged tablet 20 s after the guest let it go")
        time.sleep(0.2)
    b.qmp.execute("device_add", driver="virtio-tablet-pci", id="late-tablet", bus=HOTPLUG_PORT)
    found = tablet_present(b, True)
    # libinput has it open once run holds its event node.
    node = "/dev/input/" + found.split("/")[4]
    until = b.within(20)
    while True:
        mark = b.console.mark()
        b.console.shell(f"ls -l /proc/$(pidof patternlock)/fd | grep -c {node} | sed 's/^/PL-OPEN /'", b.within(10))
        if [l for l in b.console.output_lines(mark) if l.startswith("PL-OPEN ")] != ["PL-OPEN 0"]:
            break
        if time.monotonic() > until:
            raise Failure(f"run has not opened the tablet plugged in again ({node}) within 20 s")
        time.sleep(0.5)
    traced = b.gpio_trace_size()
    levels = gpio_levels(b, BACKLIGHT_LINE, 0)
    if levels[-1:] == ["0"]:
        touch = b.layout.prompt_centre()
        b.tablet(*touch, True)
        b.tablet(*touch, False)
        gpio_level_seen(b, BACKLIGHT_LINE, traced, ["1"], 10)
    return f"run reads {node} again"


def slow_panel_steps(layout, dots):
    """The tablet as a 25 Hz panel reports a finger drawing `dots`: a report on each dot,
    where a finger slows to turn, and two between, a third and two thirds of the way."""
    first = layout.centre(dots[0])
    steps = [(*first, None), (*first, True)]
    for a, z in zip(dots, dots[1:]):
        steps += [(*layout.between(a, z, 1 / 3), None), (*layout.between(a, z, 2 / 3), None), (*layout.centre(z), None)]
    steps.append((*layout.centre(dots[-1]), False))
    return steps


def drawn_at_25_hz(b, since):
    """The late tablet, one report every 40 ms: a wrong pattern, then the owner's."""
    mark = b.console.mark()
    for x, y, down in slow_panel_steps(b.layout, TABLET_DOTS):
        b.tablet(x, y, down)
        time.sleep(SAMPLE_S)
    want = '{"dots":[%s],"result":"complete","match":false}' % ",".join(str(d) for d in TABLET_DOTS)
    drawn = "-".join(str(d) for d in TABLET_DOTS)
    if b.check(f"Pi-shaped board: {drawn} drawn at 25 Hz with the late tablet is judged wrong", lambda: b.run_line(mark, want, 10, want)):
        b.check("Pi-shaped board: its red verdict", lambda: b.picture("tablet-verdict", b.feedback / 1000 - 0.5))
    b.check("Pi-shaped board: the grid clears", lambda: b.picture("idle", b.feedback / 1000 + 3))
    b.check("Pi-shaped board: the tablet unplugged and plugged in again is read again", lambda: replugged(b))
    traced = b.gpio_trace_size()
    mark = b.console.mark()
    for x, y, down in slow_panel_steps(b.layout, UNLOCK_DOTS):
        b.tablet(x, y, down)
        time.sleep(SAMPLE_S)
    want = '{"dots":[%s],"result":"complete","match":true}' % PATTERN.replace("-", ",")
    if b.check(f"Pi-shaped board: {PATTERN} drawn at 25 Hz matches", lambda: b.run_line(mark, want, 10, want)):
        b.check("Pi-shaped board: the accepted picture", lambda: b.picture("right-accepted", b.feedback / 1000 - 0.5))
    b.check("Pi-shaped board: run unlocks and exits 0", lambda: b.run_line(mark, "exit 0", b.feedback / 1000 + 5, "'exit 0'"))
    b.check("Pi-shaped board: the backlight is left lit at its level from before run (brightness 1)",
            lambda: left_lit(b, traced))


def left_lit(b, traced):
    """After run's end the backlight's line was not driven low and sysfs reads 1."""
    levels = gpio_levels(b, BACKLIGHT_LINE, traced)
    expect("0" not in levels, f"line {BACKLIGHT_LINE} went {levels} after the right pattern")
    mark = b.console.mark()
    b.console.shell("echo PL-BRIGHTNESS $(cat /sys/class/backlight/backlight/brightness)", b.within(10))
    said = [l for l in b.console.output_lines(mark) if l.startswith("PL-BRIGHTNESS ")]
    expect(said == ["PL-BRIGHTNESS 1"], f"sysfs says {said}")
    return f"line {BACKLIGHT_LINE} went {levels}; brightness 1"


def output_named(b):
    """run with `--output VGA-1`: its line says so, the idle picture in cirrus' video memory."""
    vram = cirrus_video_memory(b)
    since = b.start_run(f"--output VGA-1 --pattern {PATTERN} --feedback-ms {b.feedback}")
    line = b.run_line(since, "patternlock: display: ", 30)
    want = "patternlock: display: VGA-1 on /dev/dri/card2 (cirrus): named by output"
    try:
        expect(line.startswith(want), f"run said {line!r}, not {want!r}...")
        shown = b.picture("idle-rgb565", 10, device="video1", rgb565=True, memory_at=vram)
    finally:
        b.stop_run()
    b.run_line(since, "exit 1", 10, "'exit 1' after SIGTERM")
    return f"{line}; {shown}"
