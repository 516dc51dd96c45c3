// The connection socket `patternlock judge` is handed by systemd (Accept=yes): who is
// asking, and a bound on how long it may take to ask.
#ifndef PATTERNLOCK_CSHIM_SOCKET_H
#define PATTERNLOCK_CSHIM_SOCKET_H

#include <stdint.h>

/// The process at the other end of a connected AF_UNIX socket, as the kernel recorded
/// it when the connection was made (SO_PEERCRED): 0, or -1 with errno (ENOTSOCK when
/// `fd` is not a socket).
int pl_socket_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// Makes a read on socket `fd` give up with EAGAIN after `microseconds` without data
/// (SO_RCVTIMEO; 0 waits forever): 0, or -1 with errno.
int pl_socket_set_receive_timeout(int fd, int64_t microseconds);

/// A stream socket connected to the AF_UNIX socket at `path` (close-on-exec): the
/// descriptor, or -1 with errno (ENAMETOOLONG when the path does not fit sun_path).
int pl_socket_connect_unix(const char *path);

#endif
