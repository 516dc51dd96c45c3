// CShimClock: the clock lockouts are measured on, read so that the process cannot be
// told another time: a system call made directly (no vDSO and no libc function, which
// an LD_PRELOAD library such as libfaketime replaces), and the time namespace's
// offsets, which shift every clock of a process inside one. Included by CShim.h.
#ifndef PATTERNLOCK_CSHIM_CLOCK_H
#define PATTERNLOCK_CSHIM_CLOCK_H

#include <stdint.h>

/// Microseconds on CLOCK_MONOTONIC, from the kernel itself (a direct clock_gettime
/// system call on x86_64 and aarch64; elsewhere through syscall(2)).
uint64_t pl_monotonic_microseconds(void);

/// Whether this process's clocks are shifted against the machine's: 1 when it is in a
/// time namespace whose monotonic or boot-time offset is not zero, or when
/// /proc/self/timens_offsets exists but cannot be opened or is empty; 0 when the
/// offsets are zero or the kernel has no time namespaces (no such file); -1 with errno
/// when reading it failed (EINTR: call it again; anything else counts as shifted).
int pl_clock_is_shifted(void);

#endif
