#define _GNU_SOURCE
#include "CShimSocket.h"

#include <sys/socket.h>
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
