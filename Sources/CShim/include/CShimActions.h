// CShimActions: what patternlock does for others after a judgement: starting a hook
// program detached, as another user, and pulsing a GPIO line through the kernel's GPIO
// character device (uAPI v2), behind `pl_` names. Included by CShim.h.
#ifndef PATTERNLOCK_CSHIM_ACTIONS_H
#define PATTERNLOCK_CSHIM_ACTIONS_H

#include <stdint.h>

/// The user id and primary group of user `name` (getpwnam): 0, or -1 when there is no
/// such user (errno 0) or the database cannot be read (errno set).
int pl_user_ids(const char *name, uint32_t *uid, uint32_t *gid);

/// Starts `argv[0]` (an absolute path) with `argv` and `envp`, detached: a child makes
/// a new session, drops to `uid`/`gid` (no supplementary groups) when running as root,
/// closes every descriptor (standard input becomes /dev/null; standard output and
/// error go to the systemd journal's stream socket `journal`, connected as the hook
/// user so that journald files the lines under that user, as systemd-cat does, or to
/// /dev/null where there is no journal: never patternlock's own output, which a script
/// may be reading to its end), unblocks all signals and sets SIGUSR1/SIGUSR2 back to
/// their defaults, forks the program and exits, so the program is reparented and never
/// waited for. Returns that first child's pid, which the caller waits for with
/// pl_wait_child (the child does not wait for the program): it exits 0 once the program
/// is forked, 1 when it could not become the user (setgroups, setgid, setuid) and 2
/// when it could not fork, having written why to the journal. -1 with errno when the
/// first fork failed.
int pl_spawn_detached(const char *const *argv, const char *const *envp, uint32_t uid, uint32_t gid,
                      const char *journal);

/// Whether `line` exists on the GPIO chip `chip_path` and is not used by another
/// consumer: 0, or -1 with errno (ENOENT no chip, EINVAL no such line, EBUSY in use).
int pl_gpio_line_check(const char *chip_path, uint32_t line);

/// Drives `line` of `chip_path` to its resting level (inactive: low, or high when
/// `active_low`) and releases it: what the lock does at start, so a pulse cut short by
/// a SIGKILL (the line keeps its last level when released) ends at the latest when the
/// lock is back. 0, or -1 with errno.
int pl_gpio_line_rest(const char *chip_path, uint32_t line, int active_low);

/// Pulses `line` of `chip_path` active for `milliseconds` (high, or low when
/// `active_low`), then inactive, in a detached child
/// (as pl_spawn_detached, without dropping privileges: the line is requested as the
/// caller), so the caller never waits for the pulse. SIGTERM, SIGINT or SIGHUP to the
/// pulse end it early, with the line driven inactive. The first child's pid for
/// pl_wait_child (it exits 0 once the pulse is forked, 2 when it could not fork), or -1
/// with errno when it could not be forked; a failure to request or set the line is
/// written to the journal `journal` by the pulse.
int pl_gpio_pulse_detached(const char *chip_path, uint32_t line, uint32_t milliseconds, int active_low,
                           const char *journal);

#endif
