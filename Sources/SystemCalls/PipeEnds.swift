import CShim

/// A pipe's two ends (pipe2(2), close-on-exec), each closed when its value ends; the
/// write end can be closed sooner (`closeWriting`), so the reader sees the end.
public struct PipeEnds: ~Copyable {
  public let reading: FileDescriptor
  private var writing: FileDescriptor?
  /// The write end's number, for handing to a child; -1 once closed here.
  public private(set) var writingNumber: Int32

  public init() throws(Errno) {
    var ends: [Int32] = [-1, -1]
    try retryingInterrupts { ends.withUnsafeMutableBufferPointer { pl_pipe($0.baseAddress) } }
    reading = FileDescriptor(owning: ends[0])
    writing = FileDescriptor(owning: ends[1])
    writingNumber = ends[1]
  }

  /// Closes the write end in this process, so the reader sees the end once every other
  /// process holding it (a child it was handed to) has closed it too.
  public mutating func closeWriting() {
    writing = nil
    writingNumber = -1
  }
}
