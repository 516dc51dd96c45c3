#!/usr/bin/env python3
"""Judging time against the number of credentials on the emulated board (stdlib only).

Usage: credentials_bench.py --work DIR [--rounds N] [--timeout S] [--log FILE]

scripts/bench-credentials --board runs it. It boots scripts/qemu-image's image in shell
mode with an empty state disk (ext4 on virtio-blk, as the e2e test's), and makes the
measurement scripts/bench-credentials makes on this machine, in the guest: for 1, 10
and 50 credentials (the owner, set with `set-pattern` at the standard Argon2id cost,
and the others added with `credential add`), N whole `patternlock check`s of the
owner's pattern and N of the last credential's, each timed by busybox `time -p` in
the guest (wall, and user plus system CPU, in 10 ms steps). The state directories are
made first and the rounds then interleave all six figures (the emulated CPU feels the
machine's other load in both figures, the guest's CPU time too). Prints the medians,
one line per count, in the host figures' form.

The board is QEMU's `virt` machine under TCG: every instruction is emulated, so the
absolute figures are many times a real board's; what they show is whether the time
grows with the number of credentials. A benchmark: it prints figures and judges none.
"""
import argparse
import itertools
import os
import re
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import machine  # noqa: E402
from lib.board import Board  # noqa: E402
from lib.checks import Failure, expect  # noqa: E402

COUNTS = (1, 10, 50)
# On the state disk, one directory per count.
STATE = "/var/lib/bench-{count}"
# One guest line per timed check: which figure, its exit status, `time -p`'s three figures.
TIMED = re.compile(r"^PL-BENCH (\d+) (\d+) real ([\d.]+) user ([\d.]+) sys ([\d.]+)")


def drawable_patterns(count):
    """The first `count` distinct five-dot patterns whose moves are each a knight's move
    or to a neighbouring dot (never over one), at least three of them knight's moves: far
    down an attacker's order, which enrolment refuses the head of. In the order
    scripts/bench-credentials makes them on the host."""
    def steps(a, b):
        return sorted((abs((a - 1) % 3 - (b - 1) % 3), abs((a - 1) // 3 - (b - 1) // 3)))

    found = []
    for dots in itertools.permutations(range(1, 10), 5):
        moves = [steps(a, b) for a, b in zip(dots, dots[1:])]
        if all(m[1] <= 1 or m == [1, 2] for m in moves) and sum(m == [1, 2] for m in moves) >= 3:
            found.append("-".join(str(d) for d in dots))
            if len(found) == count:
                break
    return found


def guest(board, command, within, what):
    """Runs `command` in the guest's shell; a Failure naming `what` unless it exits 0."""
    status = board.console.shell(command, board.within(within))
    expect(status == 0, f"{what} exited {status} in the guest (see the console log {board.log_path})")


def enrol(board, count, patterns):
    """A state directory with the owner's pattern and `count - 1` more credentials."""
    state = STATE.format(count=count)
    guest(board, f"echo {patterns[0]} | patternlock set-pattern --state-dir {state} >/dev/null", 120,
          f"set-pattern for {count} credentials")
    others = " ".join(f"c{i}:{patterns[i]}" for i in range(1, count))
    if others:
        # One command for all of them, stopping at the first that fails.
        guest(board, f"(set -e; for c in {others}; do echo ${{c#*:}} | patternlock credential add ${{c%%:*}} "
                     f"--state-dir {state} >/dev/null; done)", 60 * count, f"credential add of {count - 1} credentials")
    return state


def measure(board, figures, rounds):
    """(wall, CPU) medians in milliseconds of `rounds` checks of each figure's pattern in
    its state directory (`figures`: (state, pattern) pairs). The rounds interleave the
    figures, each round in a turned order, so that the machine's other load, which the
    emulated CPU feels in full, falls on every figure alike."""
    walls, cpus = [[] for _ in figures], [[] for _ in figures]
    for round_index in range(rounds):
        order = [(round_index + i) % len(figures) for i in range(len(figures))]
        checks = " ".join(f"{i}:{figures[i][1]}:{figures[i][0]}" for i in order)
        mark = board.console.mark()
        board.console.shell(
            f"for c in {checks}; do i=${{c%%:*}}; p=${{c#*:}}; s=${{p#*:}}; p=${{p%%:*}}; "
            f"echo $p | time -p patternlock check --state-dir $s >/dev/null 2>/tmp/bench-time; r=$?; "
            f"echo \"PL-BENCH $i $r $(tr '\\n' ' ' </tmp/bench-time)\"; done",
            board.within(120 * len(figures)))
        seen = set()
        for line in board.console.output_lines(mark):
            if not line.startswith("PL-BENCH "):
                continue
            timed = TIMED.match(line)
            expect(timed and timed.group(2) == "0", f"a check did not unlock: {line}")
            index = int(timed.group(1))
            seen.add(index)
            walls[index].append(float(timed.group(3)) * 1000)
            cpus[index].append((float(timed.group(4)) + float(timed.group(5))) * 1000)
        expect(len(seen) == len(figures), f"round {round_index + 1} timed {len(seen)} checks, not {len(figures)}")
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(walls, cpus)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="where the console log goes")
    parser.add_argument("--rounds", type=int, default=9, help="checks per figure (default 9)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds for the whole run")
    parser.add_argument("--log", help="the console log (default WORK/console.log)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds takes a whole number from 1, not {args.rounds}")

    board = Board(args.work, args.log or os.path.join(args.work, "console.log"), args.timeout, layout=None)
    disk_dir = tempfile.mkdtemp(prefix="patternlock-bench.")
    patterns = drawable_patterns(max(COUNTS))
    try:
        # scripts/qemu-run makes the state disk (empty ext4) at a path that does not exist.
        board.start(machine.image_board("shell", board.qmp_path, os.path.join(disk_dir, "state.img")))
        board.wait_for_shell()
        print("emulated board: QEMU TCG (aarch64 virt, cortex-a72, one vCPU emulated on this machine), "
              f"medians of {args.rounds} checks timed in the guest by busybox time -p", flush=True)
        figures = []
        for count in COUNTS:
            state = enrol(board, count, patterns)
            figures += [(state, patterns[0]), (state, patterns[count - 1])]
        medians = measure(board, figures, args.rounds)
        for index, count in enumerate(COUNTS):
            (owner_wall, owner_cpu), (last_wall, last_cpu) = medians[2 * index], medians[2 * index + 1]
            print(f"credentials {count}: owner's pattern {owner_wall:.0f} ms wall, {owner_cpu:.0f} ms CPU; "
                  f"last credential's {last_wall:.0f} ms wall, {last_cpu:.0f} ms CPU "
                  f"(medians of {args.rounds} checks)", flush=True)
        return 0
    except (Failure, OSError) as failure:
        board.fail(f"bench on the emulated board: {failure}")
        return 1
    finally:
        board.close()
        shutil.rmtree(disk_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
