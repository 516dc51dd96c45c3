"""A minimal QMP client over a UNIX socket."""
import json
import socket
import time

from .checks import Failure


class QMP:
    """Connects (retrying until `deadline`: QEMU makes the socket as it starts),
    negotiates capabilities and runs commands."""

    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise Failure(f"cannot connect to QMP at {path}")
                time.sleep(0.05)
        self.sock.settimeout(max(1.0, deadline - time.monotonic()))
        self.reader = self.sock.makefile("rb")
        greeting = self._message()
        if "QMP" not in greeting:
            raise Failure(f"unexpected QMP greeting: {greeting}")
        self.execute("qmp_capabilities")

    def _message(self):
        line = self.reader.readline()
        if not line:
            raise Failure("QMP connection closed")
        return json.loads(line)

    def execute(self, command, **arguments):
        request = {"execute": command}
        if arguments:
            request["arguments"] = arguments
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            reply = self._message()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise Failure(f"QMP {command} failed: {reply['error'].get('desc', reply['error'])}")
            # Anything else is an asynchronous event; skip it.

    def close(self):
        self.sock.close()
