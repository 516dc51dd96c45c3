#define _GNU_SOURCE
#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static __thread int counting;
static __thread int64_t allocations;

static inline void note(void) {
  if (counting) allocations++;
}

void allocation_counter_start(void) {
  allocations = 0;
  counting = 1;
}

int64_t allocation_counter_stop(void) {
  counting = 0;
  return allocations;
}

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
