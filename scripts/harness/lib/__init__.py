"""What the harnesses in scripts/harness share (Python 3 standard library only).

  checks    Failure, Skip and the check counters every harness prints
  console   the guest's serial console, and a shell driven over one
  qmp       a minimal QMP client
  machine   the QEMU command lines, built in one place, and stopping QEMU
  swtpm     a software TPM 2.0 behind the board's TPM device, its state in a directory
  board     an emulated board: QEMU, QMP, the console, the deadline, pictures, the tablet
  pictures  PNG and PPM decoding and pixel comparisons
  layout    the grid layout as `patternlock layout` prints it, and tablet gestures on it
  mqtt      a minimal MQTT 3.1.1 client: what a broker holds and relays
  listener  waiting for a Unix socket to listen, without connecting to it

A harness imports these modules and never another harness.
"""
