"""The end-to-end scenarios of e2e_test.py, one module per area, in the order they run:

  first_runs    steps 1-6: the first boot, injected touches, the tablet, rotation, SIGTERM
  blanking      step 7: idle blanking on the atomic and legacy KMS paths
  vault         step 8: the Vault unlocking with exec and the door strike; a pulse cut short
  lockout       steps 9-11: failures across power cuts, the lockout and its countdown
  recovery      step 12: reset-attempts, a read-only state disk, enrolment at first boot
  small_panels  step 13: cirrus-vga beside virtio-gpu, RGB565, fbdev, bytes per flip
  tpm           step 14: a pattern bound to the board's TPM
  door          step 15: named GPIO lines, the exit button, the door contact, duress

What they share: board (E2EBoard: boots, `patternlock run` on the console, pictures),
common (the guest's paths, the pattern and captures), gpio (QEMU's PL061 trace) and
flips (QEMU's virtio-gpu trace paired with run's flips).
"""
