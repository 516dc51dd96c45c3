"""Waiting for a Unix socket to listen, without connecting to it.

A socket's file appears at bind(), a moment before listen(): a client that connects
in between is refused. Connecting to find out would start a connection-activated
service (`--accept`), so the kernel's own table is read instead."""
import time

from .checks import Failure

# __SO_ACCEPTCON in /proc/net/unix's Flags column: the socket listens.
ACCEPTING = 0x10000


def is_listening(path):
    with open("/proc/net/unix") as table:
        next(table)
        for line in table:
            fields = line.split()
            if len(fields) >= 8 and fields[7] == path and int(fields[3], 16) & ACCEPTING:
                return True
    return False


def wait_for_listener(path, seconds, who):
    deadline = time.monotonic() + seconds
    while not is_listening(path):
        if time.monotonic() >= deadline:
            raise Failure(f"{who} did not listen on {path} within {seconds} s")
        time.sleep(0.05)
