#define _GNU_SOURCE
#include "CShim.h"
#include "CShimSpawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

_Static_assert(PL_EPERM == EPERM && PL_ENOENT == ENOENT && PL_ESRCH == ESRCH && PL_EINTR == EINTR && PL_EAGAIN == EAGAIN &&
                   PL_EAGAIN == EWOULDBLOCK && PL_EACCES == EACCES && PL_EBUSY == EBUSY && PL_EEXIST == EEXIST &&
                   PL_ENODEV == ENODEV && PL_ENOTDIR == ENOTDIR && PL_EINVAL == EINVAL && PL_ENOSPC == ENOSPC &&
                   PL_EROFS == EROFS && PL_ELOOP == ELOOP && PL_ENOSYS == ENOSYS && PL_EOPNOTSUPP == EOPNOTSUPP &&
                   PL_ECHILD == ECHILD && PL_ENOTSOCK == ENOTSOCK && PL_ENAMETOOLONG == ENAMETOOLONG &&
                   PL_ECONNREFUSED == ECONNREFUSED,
               "errno values");

// SIGUSR1 (`patternlock lock`) and SIGUSR2 (the VT's release and acquire requests)
// are requests to a running lock; their default action is to end the process. Sent to
// a lock still starting, before its signalfd was there, they killed it. So they are
// blocked before main, by the first code of the program that runs: a signalfd reads
// them later, and every other command never sees them (a blocked signal waits, and
// pending ones are dropped before anything is executed: pl_execv).
__attribute__((constructor(101))) static void hold_request_signals(void) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGUSR2);
  (void)sigprocmask(SIG_BLOCK, &set, NULL);
}

// What a program patternlock starts must not inherit: SIGUSR1 and SIGUSR2 blocked or
// pending (an exec keeps both), or any other blocked signal.
static void release_held_signals(void) {
  (void)signal(SIGUSR1, SIG_IGN);  // drops a pending one
  (void)signal(SIGUSR2, SIG_IGN);
  (void)signal(SIGUSR1, SIG_DFL);
  (void)signal(SIGUSR2, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  (void)sigprocmask(SIG_SETMASK, &none, NULL);
}

int pl_errno(void) { return errno; }
void pl_set_errno(int value) { errno = value; }
const char *pl_strerror(int value) { return strerror(value); }

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
  return open(path, native, (mode_t)mode);
}

// Never retried on EINTR: on Linux the descriptor is already released.
int pl_close(int fd) { return close(fd); }

ssize_t pl_read(int fd, void *buffer, size_t count) { return read(fd, buffer, count); }
ssize_t pl_write(int fd, const void *bytes, size_t count) { return write(fd, bytes, count); }

int pl_mkdir(const char *path, unsigned mode) {
  if (mkdir(path, (mode_t)mode) == 0 || errno == EEXIST) return 0;
  return -1;
}


// ---- Vault ----------------------------------------------------------------------------

static void pl_fill_status(const struct stat *st, pl_file_status *status) {
  status->size = (int64_t)st->st_size;
  status->permissions = (unsigned)(st->st_mode & 07777);
  status->owner = (unsigned)st->st_uid;
  if (S_ISREG(st->st_mode)) status->type = PL_FILE_REGULAR;
  else if (S_ISDIR(st->st_mode)) status->type = PL_FILE_DIRECTORY;
  else if (S_ISLNK(st->st_mode)) status->type = PL_FILE_SYMLINK;
  else status->type = PL_FILE_OTHER;
}

int pl_stat(const char *path, pl_file_status *status) {
  struct stat st;
  if (stat(path, &st) != 0) return -1;
  pl_fill_status(&st, status);
  return 0;
}

int pl_open_directory(const char *path) { return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); }

int pl_openat_read(int dirfd, const char *name) {
  return openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

int pl_openat_create(int dirfd, const char *name, unsigned mode) {
  return openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
}

int pl_openat_append(int dirfd, const char *name, unsigned mode) {
  return openat(dirfd, name, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, (mode_t)mode);
}

long pl_pread(int fd, void *buffer, size_t count, int64_t offset) {
  return (long)pread(fd, buffer, count, (off_t)offset);
}

int pl_fstat(int fd, pl_file_status *status) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  pl_fill_status(&st, status);
  return 0;
}

int pl_fstatat(int dirfd, const char *name, pl_file_status *status) {
  struct stat st;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
  pl_fill_status(&st, status);
  return 0;
}

int pl_lstat(const char *path, pl_file_status *status) {
  struct stat st;
  if (lstat(path, &st) != 0) return -1;
  pl_fill_status(&st, status);
  return 0;
}

int pl_fsync(int fd) { return fsync(fd); }

int pl_fchmod(int fd, unsigned mode) { return fchmod(fd, (mode_t)mode); }
int pl_renameat(int dirfd, const char *from, const char *to) { return renameat(dirfd, from, dirfd, to); }
int pl_unlinkat(int dirfd, const char *name) { return unlinkat(dirfd, name, 0); }
unsigned pl_getuid(void) { return (unsigned)getuid(); }
unsigned pl_geteuid(void) { return (unsigned)geteuid(); }
int64_t pl_wall_seconds(void) { return (int64_t)time(NULL); }
// Whether pl_use_zone_file has chosen the zone; until then the caller's TZ is in force,
// which pl_utc_offset_seconds never uses.
static int pl_zone_chosen = 0;

void pl_use_zone_file(const char *path) {
  char tz[4096 + 2];
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  size_t length = strlen(path);
  if (fd >= 0 && length + 2 <= sizeof tz) {
    tz[0] = ':';
    memcpy(tz + 1, path, length + 1);
    setenv("TZ", tz, 1);
  } else {
    setenv("TZ", "UTC0", 1);
  }
  if (fd >= 0) close(fd);
  tzset();
  pl_zone_chosen = 1;
}

int64_t pl_utc_offset_seconds(int64_t wall) {
  if (!pl_zone_chosen) pl_use_zone_file("/etc/localtime");
  time_t t = (time_t)wall;
  struct tm local;
  if (localtime_r(&t, &local) == NULL) return 0;
  return (int64_t)local.tm_gmtoff;
}
const char *pl_getenv(const char *name) { return getenv(name); }
void pl_exit_immediately(int status) { _exit(status); }
void pl_stop_self(void) { raise(SIGSTOP); }

void pl_terminate_self(void) { raise(SIGTERM); }

// An EINTR from either openat returns -1 with EINTR, and the caller's retry repeats
// both: creating without O_EXCL is safe to repeat.
int pl_openat_lock(int dirfd, const char *name, unsigned mode) {
  int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, (mode_t)mode);
  if (fd < 0 && (errno == EROFS || errno == EACCES)) {
    int saved = errno;
    fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) errno = saved;
  }
  return fd;
}

int pl_flock_exclusive_try(int fd) {
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
  return errno == EWOULDBLOCK ? 1 : -1;
}

int pl_record_lock_try(int fd, int64_t offset) {
  struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = (off_t)offset, .l_len = 1, .l_pid = 0};
  if (fcntl(fd, F_OFD_SETLK, &lock) == 0) return 0;
  return errno == EAGAIN || errno == EACCES ? 1 : -1;
}

int pl_unlink_names_containing(int dirfd, const char *marker) {
  int copy = dup(dirfd);
  if (copy < 0) return -1;
  DIR *listing = fdopendir(copy);
  if (listing == NULL) {
    int saved = errno;
    close(copy);
    errno = saved;
    return -1;
  }
  int removed = 0;
  struct dirent *entry;
  errno = 0;
  while ((entry = readdir(listing)) != NULL) {
    if (strstr(entry->d_name, marker) == NULL) continue;
    struct stat st;
    if (fstatat(dirfd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    if (unlinkat(dirfd, entry->d_name, 0) == 0) removed++;
    errno = 0;
  }
  int saved = errno;
  closedir(listing);
  errno = saved;
  return saved == 0 ? removed : -1;
}

static int pl_hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int pl_random_bits(uint64_t *bits) {
  ssize_t n = getrandom(bits, sizeof *bits, 0);
  if (n < 0) return -1;
  if (n != (ssize_t)sizeof *bits) {
    // A read this short cannot come short from an initialised pool; call it interrupted.
    errno = EINTR;
    return -1;
  }
  return 0;
}

int pl_boot_id(uint8_t bytes[16]) {
  int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[64];
  ssize_t n = read(fd, text, sizeof text - 1);
  int saved = errno;
  close(fd);
  if (n < 0) {
    errno = saved;
    return -1;
  }
  errno = EINVAL;  // from here on the file is unreadable as a boot id, not interrupted
  if (n == 0) return -1;
  int filled = 0;
  int high = -1;
  for (ssize_t i = 0; i < n && filled < 16; i++) {
    if (text[i] == '-' || text[i] == '\n') continue;
    int value = pl_hex_value(text[i]);
    if (value < 0) return -1;
    if (high < 0) {
      high = value;
    } else {
      bytes[filled++] = (uint8_t)(high << 4 | value);
      high = -1;
    }
  }
  return filled == 16 ? 0 : -1;
}

int pl_random_bytes(void *bytes, size_t count) {
  if (count > 256) {
    errno = EINVAL;
    return -1;
  }
  // Up to 256 bytes come whole (getrandom(2)) or not at all; an EINTR, possible only
  // while the kernel's pool is not yet ready, goes back to the caller to retry.
  ssize_t got = getrandom(bytes, count, 0);
  if (got < 0) return -1;
  if ((size_t)got != count) {
    errno = EIO;
    return -1;
  }
  return 0;
}

void pl_ignore_broken_pipes(void) { (void)signal(SIGPIPE, SIG_IGN); }

int pl_disable_core_dumps(void) {
  int failed = 0;
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) failed = 1;
  struct rlimit none = {0, 0};
  if (setrlimit(RLIMIT_CORE, &none) != 0) failed = 1;
  return failed ? -1 : 0;
}

int pl_address_sanitizer(void) {
#if defined(__SANITIZE_ADDRESS__)
  return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 1;
#endif
#endif
  return 0;
}

int pl_lock_all_memory(void) {
  if (pl_address_sanitizer() || geteuid() != 0) return 1;
  return mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? 0 : -1;
}

int pl_core_dump_state(uint64_t *core_limit, int *dumpable) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_CORE, &limit) != 0) return -1;
  *core_limit = (uint64_t)limit.rlim_cur;
  *dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
  return *dumpable < 0 ? -1 : 0;
}

void *pl_opendir(const char *path) { return opendir(path); }
const char *pl_readdir_name(void *directory) {
  errno = 0;
  struct dirent *entry = readdir((DIR *)directory);
  return entry ? entry->d_name : NULL;
}
void pl_closedir(void *directory) { closedir((DIR *)directory); }

// One datagram to the Unix socket at `path` (a leading '@' is the abstract namespace
// when `abstract_allowed`); 0 or -1 with errno.
static int send_datagram(const char *path, const void *bytes, size_t count, int abstract_allowed, int flags) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  size_t length = strlen(path);
  if (length >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(address.sun_path, path, length);
  if (abstract_allowed && path[0] == '@') address.sun_path[0] = '\0';
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length);
  ssize_t sent = sendto(fd, bytes, count, flags, (struct sockaddr *)&address, size);
  int saved = errno;
  close(fd);
  errno = saved;
  return sent < 0 ? -1 : 0;
}

int pl_sd_notify(const char *state) {
  const char *path = getenv("NOTIFY_SOCKET");
  if (path == NULL || path[0] == '\0') return 1;
  return send_datagram(path, state, strlen(state), 1, MSG_NOSIGNAL);
}

int pl_send_datagram(const char *path, const uint8_t *bytes, size_t count) {
  return send_datagram(path, bytes, count, 0, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void pl_wipe(void *bytes, size_t count) { explicit_bzero(bytes, count); }

int pl_execv(const char *const *argv) {
  release_held_signals();
  // An ignored signal stays ignored across exec: the program gets SIGPIPE's default.
  void (*broken_pipes)(int) = signal(SIGPIPE, SIG_DFL);
  int result = execv(argv[0], (char *const *)argv);
  int saved = errno;
  if (broken_pipes != SIG_ERR) (void)signal(SIGPIPE, broken_pipes);
  hold_request_signals();
  errno = saved;
  return result;
}

extern char **environ;

int pl_spawn_with(const char *const *argv, const char *const *envp, const posix_spawn_file_actions_t *actions) {
  pid_t pid;
  // The child starts with no signal blocked and SIGUSR1/SIGUSR2 and SIGPIPE (ignored
  // here: pl_ignore_broken_pipes) at their defaults (a fork never inherits pending
  // signals).
  posix_spawnattr_t attributes;
  sigset_t none, requests;
  sigemptyset(&none);
  sigemptyset(&requests);
  sigaddset(&requests, SIGUSR1);
  sigaddset(&requests, SIGUSR2);
  sigaddset(&requests, SIGPIPE);
  int err = posix_spawnattr_init(&attributes);
  if (err == 0) {
    (void)posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    (void)posix_spawnattr_setsigmask(&attributes, &none);
    (void)posix_spawnattr_setsigdefault(&attributes, &requests);
    err = posix_spawn(&pid, argv[0], actions, &attributes, (char *const *)argv, (char *const *)envp);
    (void)posix_spawnattr_destroy(&attributes);
  }
  if (err != 0) {
    errno = err;
    return -1;
  }
  return (int)pid;
}

int pl_spawn(const char *const *argv) { return pl_spawn_with(argv, (const char *const *)environ, NULL); }

int pl_wait_child(int pid, int *exit_code, int *signal) {
  int status = 0;
  if (waitpid((pid_t)pid, &status, 0) < 0) return -1;
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  *signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return 0;
}

int pl_getpid(void) { return (int)getpid(); }

long pl_readlink(const char *path, char *buffer, unsigned long size) { return (long)readlink(path, buffer, size); }
