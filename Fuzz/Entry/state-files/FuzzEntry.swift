// libFuzzer's entry point for the state-files harness (built only by scripts/fuzz).
import FuzzHarnesses

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  StateFilesHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
