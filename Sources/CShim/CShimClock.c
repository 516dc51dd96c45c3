// See CShimClock.h.
#include "CShimClock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// clock_gettime as the kernel's own entry, never through a symbol that a preloaded
// library could stand in for.
static long kernel_clock_gettime(clockid_t clock, struct timespec *ts) {
#if defined(__x86_64__)
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"((long)SYS_clock_gettime), "D"((long)clock), "S"(ts)
                   : "rcx", "r11", "memory");
  return result;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = SYS_clock_gettime;
  register long x0 __asm__("x0") = (long)clock;
  register long x1 __asm__("x1") = (long)ts;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
  return x0;
#else
  return syscall(SYS_clock_gettime, clock, ts) == 0 ? 0 : -errno;
#endif
}

uint64_t pl_monotonic_microseconds(void) {
  struct timespec ts = {0, 0};
  if (kernel_clock_gettime(CLOCK_MONOTONIC, &ts) != 0) abort();  // cannot fail on Linux
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

// Reads `monotonic S NS` and `boottime S NS` lines: any number other than 0 shifts.
int pl_clock_is_shifted(void) {
  int fd = open("/proc/self/timens_offsets", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? 0 : errno == EINTR ? -1 : 1;
  char text[256];
  ssize_t n = read(fd, text, sizeof text - 1);
  int saved = errno;
  (void)close(fd);
  if (n < 0) {
    errno = saved;
    return -1;
  }
  if (n == 0) return 1;
  text[n] = '\0';
  for (ssize_t i = 0; i < n; i++) {
    if (text[i] >= '1' && text[i] <= '9') return 1;
    if (text[i] == '-') return 1;
  }
  return 0;
}
