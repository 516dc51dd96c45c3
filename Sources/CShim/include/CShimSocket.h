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

/// A stream socket connected to the abstract AF_UNIX socket `name` (without its
/// leading NUL; the address is as long as the name, not padded: what plymouthd
/// binds), close-on-exec: the descriptor, or -1 with errno (ECONNREFUSED when
/// nothing listens by that name).
int pl_socket_connect_abstract(const char *name);

/// A non-blocking stream connection to the AF_UNIX socket at `path`, made only when
/// `path` is a socket owned by root or by this process's effective user (a socket of
/// anyone else's is never told anything): the descriptor, or -1 with errno (EPERM for
/// a socket of someone else's, ENOTSOCK for no socket, EAGAIN when its backlog is full).
int pl_socket_connect_trusted_unix(const char *path);

/// Sends up to `count` bytes on stream socket `fd` without waiting and without
/// SIGPIPE: the bytes sent, or -1 with errno (EAGAIN when its buffer is full).
long pl_socket_send(int fd, const void *bytes, unsigned long count);

/// Receives up to `count` bytes from socket `fd` without waiting: the bytes received
/// (0 at the end of the stream), or -1 with errno (EAGAIN when none are there).
long pl_socket_receive(int fd, void *bytes, unsigned long count);

/// A non-blocking, close-on-exec AF_UNIX stream socket listening at `path` with mode
/// 0600 (a socket left at `path` by a process that ended is replaced; anything else
/// there is not): the descriptor, or -1 with errno (EEXIST when `path` is no socket).
int pl_socket_listen_unix(const char *path, int backlog);

/// The next connection waiting on listening socket `fd`, non-blocking and
/// close-on-exec: the descriptor, or -1 with errno (EAGAIN when none waits).
int pl_socket_accept(int fd);

/// Makes reads, writes and accepts on `fd` return EAGAIN instead of waiting (a
/// socket systemd handed over comes blocking): 0, or -1 with errno.
int pl_descriptor_set_nonblocking(int fd);

/// A descriptor that never becomes ready (an eventfd nobody writes), close-on-exec:
/// what a poll slot holds while its connection is down. -1 with errno on failure.
int pl_descriptor_never_ready(void);

/// Makes descriptor number `onto` refer to what `from` refers to (dup3, close-on-exec),
/// closing what `onto` referred to before: a poll set keeps watching the same number
/// while the connection behind it changes. 0, or -1 with errno.
int pl_descriptor_replace(int from, int onto);

#endif
