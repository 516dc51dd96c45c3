// CShim: the libc surface patternlock uses, behind `pl_` names.
//
// Embedded Swift cannot import Glibc, and some libc entry points are macros or
// variadic; each gets a small static inline wrapper here so that Swift sees plain
// C functions with fixed signatures.
#ifndef PATTERNLOCK_CSHIM_H
#define PATTERNLOCK_CSHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// The calling thread's errno.
int pl_errno(void);
/// Sets the calling thread's errno (tests use it to force EINTR paths).
void pl_set_errno(int value);
/// strerror(3) for an errno value; the text lives as long as the process.
const char *pl_strerror(int value);
/// The errno values Swift names (SystemCalls' `Errno`). Swift cannot import errno.h's
/// macros through this module, so they are spelled out here, and CShim.c fails to
/// build if a libc ever disagrees.
enum {
  PL_EPERM = 1,
  PL_ENOENT = 2,
  PL_ESRCH = 3,
  PL_EINTR = 4,
  PL_ECHILD = 10,
  PL_EAGAIN = 11,
  PL_EACCES = 13,
  PL_EBUSY = 16,
  PL_EEXIST = 17,
  PL_ENODEV = 19,
  PL_ENOTDIR = 20,
  PL_EINVAL = 22,
  PL_ENOTTY = 25,
  PL_ENOSPC = 28,
  PL_EROFS = 30,
  PL_ENAMETOOLONG = 36,
  PL_ENOSYS = 38,
  PL_ELOOP = 40,
  PL_ENOTSOCK = 88,
  PL_EOPNOTSUPP = 95,
  PL_ECONNREFUSED = 111,
};

/// The process's argument count (Embedded Swift has no CommandLine).
int pl_argument_count(void);
/// Argument `index` of the process, or NULL past the end.
const char *pl_argument(int index);

/// exit(3).
_Noreturn void pl_exit(int status);

/// Flags for pl_open.
enum { PL_O_RDONLY = 0, PL_O_WRONLY = 1, PL_O_RDWR = 2 };

// The file calls here (open, read, write, fsync, flock and the *at calls below) make
// one attempt each: EINTR comes back to Swift, where SystemCalls' `retryingInterrupts`
// retries it, so one helper does that for every caller.

/// open(2) with O_CLOEXEC added; flags may also include PL_O_CREAT_TRUNC. fd or -1.
int pl_open(const char *path, int flags, unsigned mode);
enum { PL_O_CREAT_TRUNC = 0x10000 };
/// close(2). Never retried, by anyone: on Linux the descriptor is gone even on EINTR.
int pl_close(int fd);
/// read(2); the count, or -1 with errno.
ssize_t pl_read(int fd, void *buffer, size_t count);
/// write(2); the count written (perhaps short), or -1 with errno.
ssize_t pl_write(int fd, const void *bytes, size_t count);

/// mkdir(2) with mode; 0 or -1 with errno (EEXIST is not an error here).
int pl_mkdir(const char *path, unsigned mode);


// The live device path (poll, signalfd, timerfd, mmap, console, uinput).
#include "CShimClock.h"
#include "CShimDevice.h"
#include "CShimActions.h"
#include "CShimGPIO.h"
// The connection `judge` is handed (who is asking, how long it may take).
#include "CShimSocket.h"
#include "CShimWatch.h"
#include "CShimTool.h"

// ---- Files, and names inside a directory held open (SystemCalls' FileDescriptor). ---
// Vault writes its state crash-safely this way: every name below is inside a directory
// opened with pl_open_directory, so a symlink or a renamed parent can never redirect a
// write (O_NOFOLLOW, *at calls).

/// What pl_stat, pl_lstat, pl_fstat and pl_fstatat learn of a file (all but pl_stat
/// without following a final symlink).
typedef struct {
  int64_t size;
  /// Permission bits only (st_mode & 07777).
  unsigned permissions;
  unsigned owner;
  /// One of PL_FILE_* below.
  int type;
} pl_file_status;
enum { PL_FILE_OTHER = 0, PL_FILE_REGULAR = 1, PL_FILE_DIRECTORY = 2, PL_FILE_SYMLINK = 3 };

/// stat(2) on a path, following symlinks; 0 or -1 with errno.
int pl_stat(const char *path, pl_file_status *status);
/// open(2) of a directory with O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC; fd or -1 with errno.
int pl_open_directory(const char *path);
/// openat(2) of `name` in `dirfd` for reading, O_NOFOLLOW|O_NONBLOCK (a FIFO never
/// blocks the reader); fd or -1.
int pl_openat_read(int dirfd, const char *name);
/// openat(2) creating `name` in `dirfd` exclusively (O_CREAT|O_EXCL|O_NOFOLLOW,
/// write-only) with `mode`; fd or -1.
int pl_openat_create(int dirfd, const char *name, unsigned mode);
/// openat(2) of `name` in `dirfd` for appending, created with `mode` if missing
/// (O_RDWR|O_APPEND|O_CREAT|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY); fd or -1.
int pl_openat_append(int dirfd, const char *name, unsigned mode);
/// pread(2); bytes read or -1 with errno.
long pl_pread(int fd, void *buffer, size_t count, int64_t offset);
/// Sends `count` bytes as one datagram to the Unix socket at `path` without waiting
/// (MSG_DONTWAIT: a stuck reader never stalls judging); 0 or -1 with errno.
int pl_send_datagram(const char *path, const uint8_t *bytes, size_t count);
/// Overwrites `count` bytes at `bytes` with zeros, in a way the compiler may not drop
/// as a dead store (explicit_bzero): for a secret about to be freed.
void pl_wipe(void *bytes, size_t count);
/// fstat(2); 0 or -1 with errno.
int pl_fstat(int fd, pl_file_status *status);
/// fstatat(2) with AT_SYMLINK_NOFOLLOW on `name` in `dirfd` ("." for the directory
/// itself is not meant: use pl_fstat); 0 or -1 with errno.
int pl_fstatat(int dirfd, const char *name, pl_file_status *status);
/// lstat(2) on a path; 0 or -1 with errno.
int pl_lstat(const char *path, pl_file_status *status);
/// fsync(2); 0 or -1 with errno.
int pl_fsync(int fd);
/// fchmod(2); 0 or -1 with errno.
int pl_fchmod(int fd, unsigned mode);
/// renameat(2) within one directory; 0 or -1 with errno.
int pl_renameat(int dirfd, const char *from, const char *to);
/// unlinkat(2) of a file (not a directory); 0, or -1 with errno (ENOENT included).
int pl_unlinkat(int dirfd, const char *name);
/// getuid(2): the real user, which decides who may reset attempts.
unsigned pl_getuid(void);
/// geteuid(2): the user whose files the state directory must hold.
unsigned pl_geteuid(void);
/// time(2): wall-clock seconds since 1970 (may jump; never used for lockout lengths).
int64_t pl_wall_seconds(void);
/// Makes the zone file at `path` (a tzdata file such as /etc/localtime) the local time
/// zone, whatever TZ the process was started with: sets TZ to ":path" (UTC when the file
/// cannot be opened, as glibc does without /etc/localtime) and calls tzset(3). Call
/// it before any other thread starts.
void pl_use_zone_file(const char *path);
/// localtime_r(3)'s offset from UTC at `wall` in the zone pl_use_zone_file chose (on
/// the first call without one, /etc/localtime's: never the caller's TZ), in seconds
/// east; 0 when the time cannot be converted.
int64_t pl_utc_offset_seconds(int64_t wall);
/// getenv(3), or NULL.
const char *pl_getenv(const char *name);

/// Sends one sd_notify(3) state line ("READY=1", "WATCHDOG=1") to $NOTIFY_SOCKET, the
/// systemd protocol spoken directly (a datagram on a Unix socket; a leading '@' is
/// the abstract namespace), so no libsystemd is needed. 0 when sent, 1 when there is
/// no NOTIFY_SOCKET (not started by systemd), -1 with errno on failure (EINTR: nothing
/// was sent, call it again).
int pl_sd_notify(const char *state);
/// getpid(2).
int pl_getpid(void);
/// readlink(2) into `buffer` (not terminated): the target's length, or -1 with errno.
long pl_readlink(const char *path, char *buffer, unsigned long size);

/// execv(2): replaces the process with `argv[0]` (an absolute path; no PATH search,
/// so a changed PATH cannot pick another program), with no signal blocked or pending
/// and SIGUSR1/SIGUSR2 at their defaults. Returns only on failure (-1, errno).
int pl_execv(const char *const *argv);
/// posix_spawn(3) of `argv[0]` (an absolute path; no shell, no PATH search) with
/// this environment (no signal blocked, SIGUSR1/SIGUSR2 at their defaults). Returns
/// the child's pid for pl_wait_exit_status, or -1 with errno when it could not be
/// started. Apart from the wait so that an EINTR repeats only the wait, never the spawn.
int pl_spawn(const char *const *argv);
/// waitpid(2) for child `pid` (of pl_spawn, pl_spawn_detached or
/// pl_gpio_pulse_detached) until it ends: 0 with `exit_code` its exit status (0 to 255)
/// when it exited, else -1 there and `signal` the signal that ended it (0 when it
/// exited); or -1 with errno (EINTR: wait again).
int pl_wait_child(int pid, int *exit_code, int *signal);
/// _exit(2): ends at once, without atexit handlers or flushing (crash simulation).
_Noreturn void pl_exit_immediately(int status);
/// raise(SIGSTOP): the process stops until SIGCONT (a test's seam to act mid-attempt).
void pl_stop_self(void);
/// raise(SIGTERM): the process asks itself to stop, as `systemctl stop` would.
void pl_terminate_self(void);

/// Fills `count` bytes (at most 256) from the kernel's random source (getrandom(2),
/// waiting only while it is not yet seeded at boot): 0, or -1 with errno.
int pl_random_bytes(void *bytes, size_t count);

/// SIGPIPE ignored for this process, so that a write to a socket or pipe whose reader
/// has gone fails with EPIPE instead of ending the program (whoever started it may not
/// have ignored it; systemd does, systemd-socket-activate and a shell do not).
/// Everything patternlock executes gets it back at its default.
void pl_ignore_broken_pipes(void);

/// openat(2) of the state directory's lock file `name`: created if missing (mode
/// `mode`), O_RDWR|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC (a FIFO planted there
/// never blocks the open); on a read-only file system an existing file is opened
/// read-only instead (flock works on either). fd or -1 with errno.
int pl_openat_lock(int dirfd, const char *name, unsigned mode);
/// flock(2) LOCK_EX|LOCK_NB: 0 when the lock is taken, 1 when another holds it, -1
/// with errno on any other failure (EINTR included).
int pl_flock_exclusive_try(int fd);
/// An exclusive open-file-description record lock (F_OFD_SETLK, F_WRLCK) on the one
/// byte at `offset`, without waiting: 0 when taken, 1 when another open file holds
/// it, -1 with errno on any other failure (EINTR included). Closing the file, or the
/// process's end, releases it.
int pl_record_lock_try(int fd, int64_t offset);
/// Removes every regular file in `dirfd` whose name contains `marker` (stale
/// temporaries of writes that a crash cut short). Returns how many were removed, or
/// -1 with errno when the directory cannot be listed.
int pl_unlink_names_containing(int dirfd, const char *marker);
/// This boot's identity: the 16 bytes of /proc/sys/kernel/random/boot_id. 0, or -1
/// with errno when it cannot be read (then no lockout is believed to have begun in
/// this boot); EINTR when a signal cut the read short (call it again), EINVAL when the
/// file is not a boot id.
int pl_boot_id(uint8_t bytes[16]);
/// getrandom(2) without flags: 8 bytes from the kernel's random source into `*bits`.
/// 0, or -1 with errno (EINTR when a signal came first).
int pl_random_bits(uint64_t *bits);
/// Keeps secrets out of core dumps and ptrace by other users: PR_SET_DUMPABLE 0 and
/// RLIMIT_CORE 0. 0, or -1 with errno when either fails.
int pl_disable_core_dumps(void);
/// Locks every page of the process in memory, now and later (mlockall MCL_CURRENT |
/// MCL_FUTURE), so that nothing it holds (a drawn pattern on the stack) is written to
/// swap: only for root, whose CAP_IPC_LOCK lifts RLIMIT_MEMLOCK (an unprivileged
/// MCL_FUTURE would make later allocations fail), and never under AddressSanitizer
/// (its shadow memory is terabytes of reserved address space). 0 when locked, 1 when
/// not attempted, -1 with errno when refused.
int pl_lock_all_memory(void);
/// 1 in an AddressSanitizer build (which skips pl_lock_all_memory), else 0.
int pl_address_sanitizer(void);
/// The current RLIMIT_CORE soft limit and the dumpable flag, for tests.
int pl_core_dump_state(uint64_t *core_limit, int *dumpable);
// ---- Directory listing (SystemCalls' `Directory.names`). --------------------------------

/// opendir(3); an opaque handle, or NULL with errno.
void *pl_opendir(const char *path);
/// readdir(3): the next entry's name (valid until the next call), or NULL at the end
/// (errno is 0 then) or on an error (errno set).
const char *pl_readdir_name(void *directory);
/// closedir(3).
void pl_closedir(void *directory);

// ---- Files opened once by descriptor (Configuration's system layers). -----------------

/// AT_FDCWD, for the *at calls below given a path rather than a directory.
enum { PL_AT_FDCWD = -100 };
/// openat(2) of a directory (O_DIRECTORY|O_CLOEXEC, and O_NOFOLLOW unless
/// `following_symlink`); fd or -1 with errno (ENOTDIR for a symlink when not following).
int pl_openat_directory(int dirfd, const char *name, int following_symlink);
/// openat(2) of `name` for reading, following a symlink: O_NONBLOCK (a FIFO never
/// blocks), O_NOCTTY, O_CLOEXEC; fd or -1 with errno.
int pl_openat_read_following(int dirfd, const char *name);
/// A listing of the open directory `dirfd` from its start, for pl_readdir_name and
/// pl_closedir (which leaves `dirfd` open); NULL with errno.
void *pl_opendir_descriptor(int dirfd);

#endif
