"""A software TPM 2.0 (swtpm) behind the board's tpm-tis-device, its state kept in a directory.

swtpm serves one QEMU: it exits when QEMU disconnects (at power-off or a power cut), so
each boot starts it again on the same state directory, which then keeps what a TPM chip
keeps across a reboot (its NV memory: here, patternlock's counter of wrong patterns). A
new directory is a new, different TPM.
"""
import os
import subprocess
import time

from .checks import Failure


class SoftwareTPM:
    """swtpm on the state directory `state_dir`, its control socket in `socket_dir` (the
    QEMU side: machine.QemuCommand.tpm), its log in `log`."""

    def __init__(self, state_dir, socket_dir, log):
        self.state_dir = state_dir
        self.socket = os.path.join(socket_dir, os.path.basename(state_dir) + ".sock")
        self.log = log
        self.process = None
        os.makedirs(state_dir, exist_ok=True)

    def start(self):
        """Starts swtpm for the next boot (after the last one's has gone) and returns once
        its control socket is there for QEMU to connect to."""
        self.stop()
        if os.path.exists(self.socket):
            os.remove(self.socket)
        self.process = subprocess.Popen(
            ["swtpm", "socket", "--tpm2", "--tpmstate", f"dir={self.state_dir}",
             "--ctrl", f"type=unixio,path={self.socket}", "--log", f"file={self.log},level=1"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        until = time.monotonic() + 5
        while not os.path.exists(self.socket):
            if self.process.poll() is not None:
                raise Failure(f"swtpm exited with status {self.process.returncode} before listening (see {self.log})")
            if time.monotonic() > until:
                raise Failure(f"swtpm made no control socket {self.socket} within 5 s (see {self.log})")
            time.sleep(0.05)
        return self.socket

    def stop(self):
        """Waits for swtpm to exit (it does when QEMU has gone), killing it after 5 s."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        if os.path.exists(self.socket):
            os.remove(self.socket)
