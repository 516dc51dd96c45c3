// What a password agent waits on: a directory's files coming and going (inotify), a
// process ending (pidfd), both behind one descriptor a poll loop watches (epoll).
#ifndef PATTERNLOCK_CSHIM_WATCH_H
#define PATTERNLOCK_CSHIM_WATCH_H

#include <stdint.h>

/// A non-blocking, close-on-exec inotify descriptor watching directory `path` for files
/// written and closed, moved in, moved out or removed: the descriptor, or -1 with errno
/// (ENOENT when there is no such directory).
int pl_watch_directory(const char *path);

/// A descriptor that becomes readable when process `pid` ends (pidfd_open), close-on-exec:
/// the descriptor, or -1 with errno (ESRCH when it has already ended).
int pl_watch_process(int32_t pid);

/// An epoll descriptor (close-on-exec): readable when any descriptor added to it with
/// `pl_watch_group_add` is. The descriptor, or -1 with errno.
int pl_watch_group(void);

/// Adds `fd` to the group `group`, to be reported when readable: 0, or -1 with errno.
int pl_watch_group_add(int group, int fd);

/// Reads and drops whatever non-blocking `fd` holds (an inotify descriptor's events),
/// so that a poll waits for what comes next: 0, or -1 with errno.
int pl_watch_drain(int fd);

#endif
