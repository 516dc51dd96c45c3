#define _GNU_SOURCE
#include "CShimTool.h"
#include "CShimSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int pl_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int pl_terminate_child(int pid) { return kill((pid_t)pid, SIGTERM); }

// Moves `fd` to a number above the three standard ones and 3 (close-on-exec), so that
// every dup2 below copies from a number no other dup2 overwrites first.
static int above_three(int fd) { return fd < 0 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 10); }

int pl_spawn_tool(const char *const *argv, const char *const *envp, int out_fd, int err_fd, int key_fd) {
  int out = above_three(out_fd), err = above_three(err_fd), key = above_three(key_fd);
  int failure = 0;
  if ((out_fd >= 0 && out < 0) || (err_fd >= 0 && err < 0) || (key_fd >= 0 && key < 0)) failure = errno;
  int pid = -1;
  posix_spawn_file_actions_t actions;
  if (failure == 0) failure = posix_spawn_file_actions_init(&actions);
  if (failure == 0) {
    (void)posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (out >= 0) (void)posix_spawn_file_actions_adddup2(&actions, out, 1);
    if (err >= 0) (void)posix_spawn_file_actions_adddup2(&actions, err, 2);
    if (key >= 0) (void)posix_spawn_file_actions_adddup2(&actions, key, 3);
    pid = pl_spawn_with(argv, envp, &actions);
    if (pid < 0) failure = errno;
    (void)posix_spawn_file_actions_destroy(&actions);
  }
  if (out >= 0) close(out);
  if (err >= 0) close(err);
  if (key >= 0) close(key);
  if (failure != 0) {
    errno = failure;
    return -1;
  }
  return pid;
}
