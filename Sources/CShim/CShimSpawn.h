// The spawn every child of the shim goes through (pl_spawn, pl_spawn_tool): inside the
// shim only, not part of what Swift sees.
#ifndef PATTERNLOCK_CSHIM_SPAWN_H
#define PATTERNLOCK_CSHIM_SPAWN_H

#include <spawn.h>

/// posix_spawn(3) of `argv[0]` with `envp` and `actions` (NULL: none), no signal blocked
/// and SIGUSR1, SIGUSR2 and SIGPIPE at their defaults: the pid, or -1 with errno.
int pl_spawn_with(const char *const *argv, const char *const *envp, const posix_spawn_file_actions_t *actions);

#endif
