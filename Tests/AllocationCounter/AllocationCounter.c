#define _GNU_SOURCE
#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

// Under AddressSanitizer (`swift test --sanitize=address`) the sanitizer owns malloc:
// its runtime defines malloc and friends and frees with its own allocator, so the
// interposers below would hand glibc's memory to ASan's free (and the other way
// round) and crash before the first test. There the counter installs ASan's malloc
// hook instead, which ASan calls for every allocation it serves (malloc, calloc,
// realloc, the aligned ones, operator new): the same calls counted, so the
// zero-allocation tests still prove something.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PATTERNLOCK_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PATTERNLOCK_UNDER_ASAN 1
#endif

static __thread int counting;
static __thread int64_t allocations;

static inline void note(void) {
  if (counting) allocations++;
}

#if PATTERNLOCK_UNDER_ASAN
#include <sanitizer/allocator_interface.h>

static void counted_malloc(const volatile void *pointer, size_t size) {
  (void)pointer;
  (void)size;
  note();
}

static void ignored_free(const volatile void *pointer) { (void)pointer; }

// Before any test runs, on the main thread, as the hook API requires.
__attribute__((constructor)) static void install_hooks(void) {
  __sanitizer_install_malloc_and_free_hooks(counted_malloc, ignored_free);
}
#endif

void allocation_counter_start(void) {
  allocations = 0;
  counting = 1;
}

int64_t allocation_counter_stop(void) {
  counting = 0;
  return allocations;
}

#if !PATTERNLOCK_UNDER_ASAN
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

void *malloc(size_t size) {
  note();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  note();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  note();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  note();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  note();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  note();
  void *p = __libc_memalign(alignment, size);
  if (p == NULL) return ENOMEM;
  *result = p;
  return 0;
}

void free(void *pointer) { __libc_free(pointer); }
#endif
