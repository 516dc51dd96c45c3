#define _GNU_SOURCE
#include "CShim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pl_errno(void) { return errno; }
void pl_set_errno(int value) { errno = value; }
const char *pl_strerror(int value) { return strerror(value); }

int pl_write_all(int fd, const void *bytes, size_t count) {
  const char *p = bytes;
  while (count > 0) {
    ssize_t n = write(fd, p, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += n;
    count -= (size_t)n;
  }
  return 0;
}

void pl_write_line(int fd, const char *text) {
  (void)pl_write_all(fd, text, strlen(text));
  (void)pl_write_all(fd, "\n", 1);
}

// glibc passes argc, argv and envp to ELF constructors; this is how a program whose
// main is Swift's (with no CommandLine in Embedded mode) reaches its arguments.
static int saved_argc;
static char **saved_argv;
__attribute__((constructor)) static void pl_capture_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  saved_argc = argc;
  saved_argv = argv;
}
int pl_argument_count(void) { return saved_argc; }
const char *pl_argument(int index) {
  return index >= 0 && index < saved_argc ? saved_argv[index] : NULL;
}

void pl_exit(int status) { exit(status); }

int pl_open(const char *path, int flags, unsigned mode) {
  int native = O_CLOEXEC;
  switch (flags & 3) {
  case PL_O_WRONLY: native |= O_WRONLY; break;
  case PL_O_RDWR: native |= O_RDWR; break;
  default: native |= O_RDONLY; break;
  }
  if (flags & PL_O_CREAT_TRUNC) native |= O_CREAT | O_TRUNC;
  int fd;
  do {
    fd = open(path, native, (mode_t)mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// Never retried on EINTR: on Linux the descriptor is already released.
int pl_close(int fd) { return close(fd); }

ssize_t pl_read(int fd, void *buffer, size_t count) {
  ssize_t n;
  do {
    n = read(fd, buffer, count);
  } while (n < 0 && errno == EINTR);
  return n;
}

int pl_stat(const char *path, pl_file_info *info) {
  struct stat st;
  if (stat(path, &st) != 0) return -1;
  info->size = (int64_t)st.st_size;
  info->is_directory = S_ISDIR(st.st_mode) ? 1 : 0;
  info->is_regular = S_ISREG(st.st_mode) ? 1 : 0;
  return 0;
}

int pl_mkdir(const char *path, unsigned mode) {
  if (mkdir(path, (mode_t)mode) == 0 || errno == EEXIST) return 0;
  return -1;
}

uint64_t pl_monotonic_microseconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
