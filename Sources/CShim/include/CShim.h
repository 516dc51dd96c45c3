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

/// write(2) of all bytes to a file descriptor, retrying EINTR and short writes; 0 or -1.
int pl_write_all(int fd, const void *bytes, size_t count);
/// Writes a string and a newline to standard output or standard error, unbuffered.
void pl_write_line(int fd, const char *text);

/// The process's argument count (Embedded Swift has no CommandLine).
int pl_argument_count(void);
/// Argument `index` of the process, or NULL past the end.
const char *pl_argument(int index);

/// exit(3).
_Noreturn void pl_exit(int status);

/// Flags for pl_open.
enum { PL_O_RDONLY = 0, PL_O_WRONLY = 1, PL_O_RDWR = 2 };
/// open(2) with O_CLOEXEC added; flags may also include PL_O_CREAT_TRUNC.
int pl_open(const char *path, int flags, unsigned mode);
enum { PL_O_CREAT_TRUNC = 0x10000 };
/// close(2).
int pl_close(int fd);
/// read(2), retrying EINTR.
ssize_t pl_read(int fd, void *buffer, size_t count);

/// What pl_stat learns of a path.
typedef struct {
  int64_t size;
  int is_directory;
  int is_regular;
} pl_file_info;
/// stat(2) on a path; 0 or -1 with errno.
int pl_stat(const char *path, pl_file_info *info);
/// mkdir(2) with mode; 0 or -1 with errno (EEXIST is not an error here).
int pl_mkdir(const char *path, unsigned mode);

/// Microseconds on CLOCK_MONOTONIC.
uint64_t pl_monotonic_microseconds(void);

#endif
