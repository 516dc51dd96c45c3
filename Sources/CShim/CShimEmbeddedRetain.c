// The bridge-object retain of Embedded Swift's runtime, as the compiler expects it.
//
// The compiler takes swift_bridgeObjectRetain(_n) to return its argument unchanged and
// may go on using the returned value in its place. Swift 6.3's Embedded runtime
// returns the argument with its tag bits masked off instead. For a small string (its
// characters stored in the String itself) those bits say "small" and "ASCII": the
// optimised aarch64 build then took "list" in `patternlock credential list` for a
// large string with its storage at address 0, and every `credential` command crashed
// on the board. Swift's own runtime was corrected after 6.3 (swiftlang/swift#91151);
// until the toolchain carries that, these strong definitions replace the runtime's
// weak ones. Only the Embedded builds define PATTERNLOCK_EMBEDDED_RUNTIME
// (scripts/build-aarch64, scripts/build-embedded): the normal build's runtime is
// libswiftCore's, which is right and must not be replaced.
#ifdef PATTERNLOCK_EMBEDDED_RUNTIME
#include <stdint.h>

_Static_assert(sizeof(void *) == 8, "the tag mask below is Embedded Swift's for 64-bit pointers");

// Embedded Swift's own: a bridge object's pointer without its tag bits (HeapObject.swift).
static const uintptr_t plain_object_mask = 0x8ffffffffffffff8u;
// Set on immortal values (small strings, string literals): nothing to count.
static const uintptr_t immortal_bit = (uintptr_t)1 << 63;

// Embedded Swift's runtime (weak, in every Swift object); it skips null and immortal
// objects itself.
void *swift_retain_n(void *object, uint32_t n);

void *swift_bridgeObjectRetain_n(void *object, uint32_t n) {
  uintptr_t bits = (uintptr_t)object;
  if ((bits & immortal_bit) == 0 && (bits & plain_object_mask) != 0) {
    swift_retain_n((void *)(bits & plain_object_mask), n);
  }
  return object;
}

void *swift_bridgeObjectRetain(void *object) {
  return swift_bridgeObjectRetain_n(object, 1);
}
#endif
