import CShim

/// Whether this test process runs under AddressSanitizer (scripts/test-asan). A test that
/// walks a large space only to repeat the same code over more inputs (every pattern,
/// every frame of every capture) samples its inputs there: the plain run walks them all,
/// and the sanitizer still sees every code path, in a fraction of the time.
public enum SanitizerRun {
  public static let isActive = pl_address_sanitizer() != 0

  /// Take every `n`th input under the sanitizer, every input otherwise.
  public static func sampling(everyNth n: Int) -> Int { isActive ? n : 1 }
}
