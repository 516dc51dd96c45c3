"""The session-lock scenarios of wayland_test.py, one module per area:

  refusals         no Wayland display; a compositor without ext-session-lock-v1
  lock_and_unlock  the lock on two outputs, wrong and right patterns; a killed lock taken over
  outputs          outputs of different sizes; an output switched off and on
  judging          the keyboard; the judge's socket; session-lock as the desktop user
  scaling          scale 2 and 1.25
  lockout          the lockout and its countdown

What they share: session (the paths, the check counters, the compositor, session-lock
runs, judges, and `locked_session`, each scenario's set-up and teardown), renders (the
headless renders), screen (pictures compared with them) and pointer (the virtual pointer).
"""
