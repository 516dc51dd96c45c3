#define _GNU_SOURCE
#include "CShimSocket.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/eventfd.h>

int pl_socket_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
  struct ucred credentials;
  socklen_t size = sizeof credentials;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) < 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  *gid = credentials.gid;
  return 0;
}

int pl_socket_set_receive_timeout(int fd, int64_t microseconds) {
  struct timeval limit = {.tv_sec = microseconds / 1000000, .tv_usec = microseconds % 1000000};
  return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
}

int pl_socket_connect_unix(const char *path) {
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  size_t length = strlen(path);
  if (length >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(address.sun_path, path, length + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  // One attempt: after an EINTR the connection may go on in the background, so the
  // caller retries with a new socket rather than calling connect again on this one.
  if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int pl_socket_connect_abstract(const char *name) {
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  size_t length = strlen(name);
  if (length + 1 > sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(address.sun_path + 1, name, length);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + length);
  if (connect(fd, (struct sockaddr *)&address, size) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

static int pl_unix_address(const char *path, struct sockaddr_un *address) {
  size_t length = strlen(path);
  if (length >= sizeof address->sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memset(address, 0, sizeof *address);
  address->sun_family = AF_UNIX;
  memcpy(address->sun_path, path, length + 1);
  return 0;
}

int pl_socket_connect_trusted_unix(const char *path) {
  struct sockaddr_un address;
  if (pl_unix_address(path, &address) < 0) return -1;
  struct stat status;
  if (lstat(path, &status) < 0) return -1;
  if (!S_ISSOCK(status.st_mode)) {
    errno = ENOTSOCK;
    return -1;
  }
  if (status.st_uid != 0 && status.st_uid != geteuid()) {
    errno = EPERM;
    return -1;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  // Non-blocking: a full backlog is EAGAIN at once, never a wait.
  if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

long pl_socket_send(int fd, const void *bytes, unsigned long count) {
  return send(fd, bytes, count, MSG_NOSIGNAL | MSG_DONTWAIT);
}

long pl_socket_receive(int fd, void *bytes, unsigned long count) {
  return recv(fd, bytes, count, MSG_DONTWAIT);
}

int pl_socket_listen_unix(const char *path, int backlog) {
  struct sockaddr_un address;
  if (pl_unix_address(path, &address) < 0) return -1;
  struct stat status;
  if (lstat(path, &status) == 0) {
    if (!S_ISSOCK(status.st_mode)) {
      errno = EEXIST;
      return -1;
    }
    if (unlink(path) < 0) return -1;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  // Made 0600 from the start: no other user may connect between bind and chmod.
  mode_t previous = umask(0177);
  int bound = bind(fd, (struct sockaddr *)&address, sizeof address);
  umask(previous);
  if (bound < 0 || listen(fd, backlog) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int pl_socket_accept(int fd) {
  return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int pl_descriptor_never_ready(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int pl_descriptor_replace(int from, int onto) { return dup3(from, onto, O_CLOEXEC) < 0 ? -1 : 0; }

int pl_descriptor_set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -1;
  return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}
