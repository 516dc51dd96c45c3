// Counts heap allocations made by the calling thread, for tests that prove a path
// allocates nothing. The test executable defines malloc and friends itself; the
// dynamic linker then binds every library's calls to these, and they forward to
// glibc's own implementation. Under AddressSanitizer, which defines malloc itself,
// it counts through ASan's malloc hook instead (see AllocationCounter.c).
#ifndef PATTERNLOCK_ALLOCATION_COUNTER_H
#define PATTERNLOCK_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Starts counting this thread's allocations from zero.
void allocation_counter_start(void);
/// Stops counting and returns how many allocations this thread made since the start.
int64_t allocation_counter_stop(void);
#endif
