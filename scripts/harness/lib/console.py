"""The guest's serial console as lines, and a shell in the guest driven over a console."""
import threading
import time

from .checks import Failure


class Console:
    """Collects the lines a guest writes to a stream (QEMU's stdout: the serial console)."""

    def __init__(self, stream, log):
        self.lines = []
        self.changed = threading.Condition()
        self.closed = False
        self._log = log
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").replace("\r", "").rstrip("\n")
            self._log.write(line + "\n")
            self._log.flush()
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def mark(self):
        """The index the next line will have (for `wait`'s `since`)."""
        with self.changed:
            return len(self.lines)

    def since(self, mark, until=None):
        """A copy of the lines from index `mark` (to `until`)."""
        with self.changed:
            return self.lines[mark:until]

    def wait(self, predicate, since, deadline, what):
        """The first line from index `since` on that satisfies predicate; Failure on
        PL-FAIL, EOF or timeout."""
        with self.changed:
            while True:
                for line in self.lines[since:]:
                    if line.startswith("PL-FAIL"):
                        raise Failure(f"guest reported: {line}")
                    if predicate(line):
                        return line
                if self.closed:
                    raise Failure(f"QEMU exited while waiting for {what}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise Failure(f"no {what} on the console in time")
                self.changed.wait(remaining)

    def wait_for(self, prefix, deadline):
        """The first line starting with prefix."""
        return self.wait(lambda line: line.startswith(prefix), 0, deadline, prefix)


class SocketPipe:
    """A connected socket with the stdin/stdout pair of a process (for ShellConsole)."""

    def __init__(self, sock):
        self.stdout = sock.makefile("rb")
        self.stdin = sock.makefile("wb")


class ShellConsole(Console):
    """A shell in the guest: lines read from `pipe.stdout`, commands written to
    `pipe.stdin` (QEMU's serial console, or a socket to a virtio console)."""

    # The line that ends each command: this mark, the command's serial and its status.
    STATUS_MARK = "PL-E2E-RC"

    def __init__(self, pipe, log):
        self.pipe = pipe
        self.serial = 0
        super().__init__(pipe.stdout, log)

    def send(self, text):
        self.pipe.stdin.write(text.encode() + b"\n")
        self.pipe.stdin.flush()

    def shell(self, command, deadline):
        """Runs a shell command in the guest; returns its exit status."""
        self.serial += 1
        token = f"{self.STATUS_MARK} {self.serial} "
        since = self.mark()
        # printf builds the mark, so the shell's echo of the command never matches it.
        prefix, _, rest = self.STATUS_MARK.partition("-")
        self.send(f"{command}; printf '{prefix}-%s %s %s\\n' {rest} {self.serial} $?")
        line = self.wait(lambda l: l.startswith(token), since, deadline, f"the end of '{command}'")
        return int(line.split()[-1])

    def output_lines(self, since):
        """The lines since `since` without the commands' status lines."""
        return [l for l in self.since(since) if not l.startswith(self.STATUS_MARK + " ")]
