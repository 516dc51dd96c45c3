import PatternCore
import SystemCalls

/// The live lock's placements for a moving grid: the kernel's random source, so
/// nobody watching one attempt can tell where the grid stands for the next.
package final class SystemGridRandomness: GridRandomness {
  package func nextBits() -> UInt64 {
    do throws(Errno) {
      return try RandomBits.next()
    } catch {
      // getrandom(2) does not fail once the kernel's pool is ready (it waits until
      // then); should it all the same, the grid still moves, by the clock's
      // microseconds, which a watcher cannot read off the screen.
      return MonotonicClock.microseconds() &* 0x9E37_79B9_7F4A_7C15
    }
  }
}
