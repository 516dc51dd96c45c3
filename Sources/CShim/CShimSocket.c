#define _GNU_SOURCE
#include "CShimSocket.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <sys/time.h>

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
  int result;
  do {
    result = connect(fd, (struct sockaddr *)&address, sizeof address);
  } while (result < 0 && errno == EINTR);
  if (result < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}
