import Foundation
import PatternCore
import Vault
import XCTest

/// Shared helpers: a cheap hash cost, clock values, enrolment, typed errors and file
/// modes. Running the built binary and temporary directories are CommandTestSupport's.
public enum VaultTestSupport {
  /// The cheapest cost libsodium accepts, so hashing tests take milliseconds.
  public static let cheapCost = try! HashCost(passes: 1, memoryBytes: 8192)

  /// The boot the tests' instants belong to, unless they name another.
  public static let boot = BootIdentity(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)

  public static func instant(seconds: Int64, extraMicroseconds: UInt64 = 0, boot: BootIdentity? = VaultTestSupport.boot) -> UnlockInstant {
    UnlockInstant(monotonicMicroseconds: UInt64(seconds) * 1_000_000 + extraMicroseconds, wallSeconds: 1_700_000_000 + seconds, boot: boot)
  }

  /// Enrols `pattern` (cheap cost) in `path`, creating the directory, with the
  /// enrolment guard off as `[vault] blocklist = off` has it: the tests that use this
  /// are about judging patterns, and many judge the recorded captures of common ones
  /// (PatternGuardTests are about the guard).
  public static func enrol(_ pattern: [Int], in path: String, grid: Int = 3, minimumDots: Int = 4) throws {
    let directory = try StateDirectory(opening: path, creating: true)
    let enrolled = try EnrolledPattern(
      dots: DotSequence(pattern), gridSize: grid, minimumDots: minimumDots, cost: cheapCost, guardedBy: PatternGuard(blocklistSize: nil))
    try enrolled.save(to: directory)
  }

  /// The error `body` throws, or nil (XCTAssertThrowsError cannot hold ~Copyable values).
  public static func error(_ body: () throws(VaultError) -> Void) -> VaultError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  /// POSIX permission bits of a path (lstat).
  public static func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as! NSNumber).intValue
  }
}
