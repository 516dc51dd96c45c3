// Running a system tool as root for a command (systemd-cryptenroll for `disk`): with an
// environment of the caller's choosing, never the one this process was given, and a
// secret handed over in a file in memory, never on its command line.
#ifndef PATTERNLOCK_CSHIM_TOOL_H
#define PATTERNLOCK_CSHIM_TOOL_H

/// posix_spawn(3) of `argv[0]` (an absolute path; no PATH search) with exactly `envp`,
/// standard input from /dev/null, standard output into `out_fd` and standard error into
/// `err_fd`, and, when `key_fd` is not -1, that descriptor as the child's descriptor 3
/// (its /dev/fd/3); every other descriptor of this process is close-on-exec. Signals as
/// pl_spawn. The child's pid for pl_wait_child, or -1 with errno.
int pl_spawn_tool(const char *const *argv, const char *const *envp, int out_fd, int err_fd, int key_fd);

/// kill(2) with SIGTERM: asks child `pid` (of pl_spawn_tool) to stop. 0, or -1 with errno.
int pl_terminate_child(int pid);

/// pipe2(2) with O_CLOEXEC: `fds[0]` to read, `fds[1]` to write. 0, or -1 with errno.
int pl_pipe(int fds[2]);

#endif
