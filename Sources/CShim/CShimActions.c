// See CShimActions.h.
#include "CShimActions.h"
#include "CShimGPIO.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/gpio.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int pl_user_ids(const char *name, uint32_t *uid, uint32_t *gid) {
  errno = 0;
  struct passwd *entry = getpwnam(name);
  if (entry == NULL) return -1;
  *uid = (uint32_t)entry->pw_uid;
  *gid = (uint32_t)entry->pw_gid;
  return 0;
}

// A stream to the systemd journal's socket `path` as "patternlock-hook" at priority
// info (the stream protocol's header, as systemd-cat sends it), or -1 where there is
// no journal. journald files what arrives under the credentials of whoever connected,
// so a hook connects only once it has become the hook user.
static int journal_stream(const char *path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  strncpy(address.sun_path, path, sizeof address.sun_path - 1);
  static const char header[] = "patternlock-hook\n\n6\n0\n0\n0\n0\n";
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
      write(fd, header, sizeof header - 1) != (ssize_t)(sizeof header - 1)) {
    (void)close(fd);
    return -1;
  }
  (void)shutdown(fd, SHUT_RD);
  return fd;
}

// Standard output and error to the journal at `path`, or to /dev/null without one.
static void output_to_journal(const char *path) {
  int journal = journal_stream(path);
  int output = journal >= 0 ? journal : open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (output < 0) return;
  (void)dup2(output, 1);
  (void)dup2(output, 2);
  (void)close(output);
}

// Everything a detached child does before it becomes the program or the pulse: a new
// session, no inherited descriptors (the lock holds the DRM master, libinput's devices
// and the state directory's lock: a hook must hold none of them; and a script reading
// patternlock's output to its end must not wait for a hook), /dev/null as input, the
// journal at `journal` as output, no blocked or ignored signals (the lock blocks SIGINT
// and SIGTERM for its signalfd and ignores SIGUSR1 and SIGUSR2 from its first
// instruction, and every command ignores SIGPIPE).
static void become_detached_child(const char *journal) {
  (void)setsid();
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) (void)dup2(null, 0);
  output_to_journal(journal);
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
  {
    long last = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (last > 0 ? last : 1024); fd++) (void)close((int)fd);
  }
  (void)signal(SIGUSR1, SIG_DFL);
  (void)signal(SIGUSR2, SIG_DFL);
  (void)signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  (void)sigprocmask(SIG_SETMASK, &none, NULL);
}

static void say(const char *what, const char *path, int error) {
  dprintf(2, "patternlock: %s %s: %s\n", what, path, strerror(error));
}

// Forks the first child, which runs `body` and exits with its result: the child's pid
// for pl_wait_child. The wait is the caller's, so that an EINTR repeats only the
// wait (in Swift), never the fork.
static int run_detached(int (*body)(const void *), const void *argument, const char *journal) {
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    become_detached_child(journal);
    _exit(body(argument));
  }
  return (int)child;
}

struct spawn_request {
  const char *const *argv;
  const char *const *envp;
  uint32_t uid, gid;
  const char *journal;
};

static int spawn_body(const void *argument) {
  const struct spawn_request *request = argument;
  if (geteuid() == 0) {
    if (setgroups(0, NULL) != 0 || setgid((gid_t)request->gid) != 0 || setuid((uid_t)request->uid) != 0) {
      say("cannot become the hook user for", request->argv[0], errno);
      return 1;
    }
    // The stream opened above is root's: the hook's lines go under its own user.
    output_to_journal(request->journal);
  }
  pid_t program = fork();
  if (program < 0) {
    say("cannot fork for", request->argv[0], errno);
    return 2;
  }
  if (program == 0) {
    execve(request->argv[0], (char *const *)request->argv, (char *const *)request->envp);
    say("cannot run hook", request->argv[0], errno);
    _exit(127);
  }
  return 0;
}

int pl_spawn_detached(const char *const *argv, const char *const *envp, uint32_t uid, uint32_t gid,
                      const char *journal) {
  struct spawn_request request = {argv, envp, uid, gid, journal};
  return run_detached(spawn_body, &request, journal);
}

// The GPIO character device's v2 line request for one output line.
static int request_output_line(const char *chip_path, uint32_t line, uint32_t flags) {
  return pl_gpio_request_line(chip_path, line, flags, 0);
}

int pl_gpio_line_check(const char *chip_path, uint32_t line) {
  int chip = open(chip_path, O_RDONLY | O_CLOEXEC);
  if (chip < 0) return -1;
  struct gpio_v2_line_info info;
  memset(&info, 0, sizeof info);
  info.offset = line;
  int result = ioctl(chip, GPIO_V2_GET_LINEINFO_IOCTL, &info);
  int saved = errno;
  (void)close(chip);
  if (result < 0) {
    errno = saved;
    return -1;
  }
  if (info.flags & GPIO_V2_LINE_FLAG_USED) {
    errno = EBUSY;
    return -1;
  }
  return 0;
}

int pl_gpio_line_rest(const char *chip_path, uint32_t line, int active_low) {
  int fd = request_output_line(chip_path, line, GPIO_V2_LINE_FLAG_OUTPUT | (active_low ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0));
  if (fd < 0) return -1;
  (void)close(fd);
  return 0;
}

struct pulse_request {
  const char *chip_path;
  uint32_t line, milliseconds;
  int active_low;
};

static int set_line(int fd, int high) {
  struct gpio_v2_line_values values = {.bits = high ? 1 : 0, .mask = 1};
  return ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &values);
}

static int pulse_body(const void *argument) {
  const struct pulse_request *request = argument;
  // SIGTERM (systemd stopping or restarting the lock's unit kills its whole cgroup,
  // this child too), SIGINT and SIGHUP end the pulse early but never leave the line
  // high: they are waited for instead of delivered.
  sigset_t ending;
  sigemptyset(&ending);
  sigaddset(&ending, SIGTERM);
  sigaddset(&ending, SIGINT);
  sigaddset(&ending, SIGHUP);
  (void)sigprocmask(SIG_BLOCK, &ending, NULL);
  // The pulse itself runs in a grandchild, so the first child returns at once.
  pid_t pulse = fork();
  if (pulse < 0) return 2;
  if (pulse > 0) return 0;
  // Requested inactive, then driven active: the line never glitches active before the
  // pulse. With active_low the kernel inverts both (the line rests high, pulses low).
  int fd = request_output_line(request->chip_path, request->line,
                               GPIO_V2_LINE_FLAG_OUTPUT | (request->active_low ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0));
  if (fd < 0) {
    say("cannot request the gpio-unlock line on", request->chip_path, errno);
    _exit(3);
  }
  if (set_line(fd, 1) != 0) {
    say("cannot drive the gpio-unlock line active on", request->chip_path, errno);
    _exit(3);
  }
  struct timespec wait = {request->milliseconds / 1000, (long)(request->milliseconds % 1000) * 1000000L};
  struct timespec start, now;
  (void)clock_gettime(CLOCK_MONOTONIC, &start);
  // The one EINTR retry left in C: this is the grandchild after fork, where no Swift
  // runs, and it is no plain repeat either (each wait is only for what is left).
  for (;;) {
    if (sigtimedwait(&ending, NULL, &wait) >= 0 || errno != EINTR) break;
    // Interrupted by something else: wait only for what is left.
    (void)clock_gettime(CLOCK_MONOTONIC, &now);
    long long left = (long long)request->milliseconds * 1000000LL -
                     ((now.tv_sec - start.tv_sec) * 1000000000LL + (now.tv_nsec - start.tv_nsec));
    if (left <= 0) break;
    wait.tv_sec = (time_t)(left / 1000000000LL);
    wait.tv_nsec = (long)(left % 1000000000LL);
  }
  int low = set_line(fd, 0);
  int saved = errno;
  (void)close(fd);
  if (low != 0) {
    say("cannot drive the gpio-unlock line inactive again on", request->chip_path, saved);
    _exit(3);
  }
  _exit(0);
}

int pl_gpio_pulse_detached(const char *chip_path, uint32_t line, uint32_t milliseconds, int active_low,
                           const char *journal) {
  struct pulse_request request = {chip_path, line, milliseconds, active_low};
  return run_detached(pulse_body, &request, journal);
}
