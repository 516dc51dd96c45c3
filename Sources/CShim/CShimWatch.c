#include "CShimWatch.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

int pl_watch_directory(const char *path) {
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return -1;
  if (inotify_add_watch(fd, path, IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ONLYDIR) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int pl_watch_process(int32_t pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
#else
  // Kernels before 5.3 and their headers: the caller falls back to looking in /proc.
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

int pl_watch_group(void) { return epoll_create1(EPOLL_CLOEXEC); }

int pl_watch_group_add(int group, int fd) {
  struct epoll_event event = {.events = EPOLLIN, .data = {.fd = fd}};
  return epoll_ctl(group, EPOLL_CTL_ADD, fd, &event);
}

int pl_watch_drain(int fd) {
  char buffer[4096];
  for (;;) {
    ssize_t got = read(fd, buffer, sizeof buffer);
    if (got > 0) continue;
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == EAGAIN) return 0;
    return got < 0 ? -1 : 0;
  }
}
