"""session-lock refusing to start: no Wayland display, and a compositor without
ext-session-lock-v1 (a fake registry on a socket of its own)."""
import contextlib
import os
import socket
import struct
import subprocess
import threading
import time

from lib.checks import expect

from .session import checks, one_line, paths


def fake_registry(path, stop):
    """A Wayland socket whose registry offers wl_compositor and wl_shm only: a compositor
    without ext-session-lock-v1 (each sync is answered; binds are ignored)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    server.settimeout(10)
    try:
        connection, _ = server.accept()
    except socket.timeout:
        return
    connection.settimeout(5)

    def event(object_id, opcode, payload):
        # The client may hang up at any time (it has what it needed).
        with contextlib.suppress(OSError):
            connection.sendall(struct.pack("<II", object_id, (8 + len(payload)) << 16 | opcode) + payload)

    def text(value):
        data = value.encode() + b"\0"
        return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)
    buffer, registry, serial = b"", None, 1
    while not stop.is_set():
        try:
            data = connection.recv(4096)
        except OSError:
            break
        if not data:
            break
        buffer += data
        while len(buffer) >= 8:
            object_id, word = struct.unpack("<II", buffer[:8])
            size, opcode = word >> 16, word & 0xffff
            if len(buffer) < size:
                break
            body, buffer = buffer[8:size], buffer[size:]
            if object_id == 1 and opcode == 1:  # wl_display.get_registry
                registry = struct.unpack("<I", body[:4])[0]
                event(registry, 0, struct.pack("<I", 1) + text("wl_compositor") + struct.pack("<I", 4))
                event(registry, 0, struct.pack("<I", 2) + text("wl_shm") + struct.pack("<I", 1))
            elif object_id == 1 and opcode == 0:  # wl_display.sync
                callback = struct.unpack("<I", body[:4])[0]
                event(callback, 0, struct.pack("<I", serial))
                event(1, 1, struct.pack("<I", callback))  # wl_display.delete_id
                serial += 1
    connection.close()
    server.close()


def refusals():
    def no_display():
        result = subprocess.run([paths.patternlock, "session-lock", "--state-dir", paths.state], capture_output=True, text=True, timeout=20,
                                env=dict(os.environ, XDG_RUNTIME_DIR=paths.work, WAYLAND_DISPLAY="no-such-display"))
        expect(result.returncode != 0, "exit 0 without a display")
        line = one_line(result.stderr)
        expect("cannot connect to the Wayland display no-such-display" in line, line)
        return line
    checks.check("no Wayland display: one line, non-zero exit", no_display)

    def missing_protocol():
        path = os.path.join(paths.work, "fake-0")
        if os.path.exists(path):
            os.remove(path)
        stop = threading.Event()
        server = threading.Thread(target=fake_registry, args=(path, stop), daemon=True)
        server.start()
        time.sleep(0.2)
        result = subprocess.run([paths.patternlock, "session-lock", "--state-dir", paths.state], capture_output=True, text=True, timeout=20,
                                env=dict(os.environ, XDG_RUNTIME_DIR=paths.work, WAYLAND_DISPLAY="fake-0"))
        stop.set()
        expect(result.returncode != 0, "exit 0 without the protocol")
        line = one_line(result.stderr)
        expect("ext_session_lock_manager_v1" in line, line)
        return line
    checks.check("a compositor without ext-session-lock-v1: refused in one line", missing_protocol)
