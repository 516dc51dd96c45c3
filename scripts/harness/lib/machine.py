"""The QEMU command lines the harnesses boot, built here and only here, and stopping QEMU.

A boot is a QemuCommand: the machine from `image_board` (scripts/qemu-image's
initramfs image, through scripts/qemu-run) or `debian_board` (a Debian image of
scripts/test-boot), to which a harness adds devices, character devices, disks and
traces before `start` runs it. Something new on the board (another display, a TPM
behind a socket) is one more `device`/`option` call in the harness that wants it.
"""
import os
import subprocess

from .checks import Failure

SCRIPTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The display every board has: screendumps and the tablet's events go to it.
DISPLAY = "video0"


class QemuCommand:
    """One boot's command line: a base, then options in the order they are added."""

    def __init__(self, base, separator=None):
        self.base = list(base)
        # scripts/qemu-run takes QEMU's own options after "--".
        self.separator = separator
        self.options = []

    def option(self, *arguments):
        self.options += [str(a) for a in arguments]
        return self

    def device(self, spec):
        return self.option("-device", spec)

    def chardev(self, spec):
        return self.option("-chardev", spec)

    def tpm(self, control_socket):
        """A TPM 2.0 on the board: the `virt` machine's tpm-tis-device (MMIO, in the device
        tree as "tcg,tpm-tis-mmio"), backed by the software TPM whose control socket is
        `control_socket` (lib/swtpm.py)."""
        self.chardev(f"socket,id=chrtpm,path={control_socket}")
        self.option("-tpmdev", "emulator,id=tpm0,chardev=chrtpm")
        return self.device("tpm-tis-device,tpmdev=tpm0")

    def trace(self, events, log):
        """QEMU's trace `events`, written to file `log`."""
        for event in events:
            self.option("-trace", event)
        return self.option("-D", log)

    def argv(self):
        if not self.options:
            return list(self.base)
        return self.base + ([self.separator] if self.separator else []) + self.options

    def start(self, stdin=subprocess.PIPE):
        """Runs QEMU, the serial console on its stdout (stderr joined to it)."""
        return subprocess.Popen(self.argv(), stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def image_board(mode, qmp_path, disk=None, options=()):
    """scripts/qemu-image's image on scripts/qemu-run's machine, headless: init in
    `mode` (replay, run or shell), QMP on `qmp_path`, `disk` as the state disk,
    `options` further scripts/qemu-run options."""
    base = [os.path.join(SCRIPTS, "qemu-run"), "--headless", "--mode", mode, "--qmp", qmp_path]
    if disk:
        base += ["--disk", disk]
    base += list(options)
    return QemuCommand(base, separator="--")


def debian_board(directory, qmp_path, control_path, kernel_command_line):
    """A Debian arm64 image (DIRECTORY/root.img, vmlinuz, initrd.img) on the `virt`
    machine: virtio-gpu 800x480, tablet and keyboard, the root disk on virtio-blk, the
    serial console on stdio and a virtio console on the UNIX socket `control_path`."""
    command = QemuCommand([
        "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024",
        "-no-reboot", "-nic", "none", "-display", "none", "-serial", "mon:stdio",
        "-kernel", os.path.join(directory, "vmlinuz"), "-initrd", os.path.join(directory, "initrd.img"),
        "-append", kernel_command_line, "-qmp", f"unix:{qmp_path},server=on,wait=off"])
    command.device(f"virtio-gpu-pci,xres=800,yres=480,id={DISPLAY}")
    command.device("virtio-tablet-pci,id=tablet0").device("virtio-keyboard-pci,id=keyboard0")
    command.option("-drive", f"file={os.path.join(directory, 'root.img')},format=raw,if=none,id=root0,cache=unsafe")
    command.device("virtio-blk-pci,drive=root0")
    command.device("virtio-serial-pci,id=virtio-serial0")
    command.chardev(f"socket,id=control,path={control_path},server=on,wait=off").device("virtconsole,chardev=control")
    return command


def stop(qemu, qmp):
    """Quits QEMU over QMP (kills it if it does not go within 5 s), then closes QMP."""
    if qemu.poll() is None:
        try:
            if qmp is not None:
                qmp.execute("quit")
            qemu.wait(timeout=5)
        except (Failure, OSError, subprocess.TimeoutExpired):
            qemu.kill()
            qemu.wait()
    if qmp is not None:
        qmp.close()
