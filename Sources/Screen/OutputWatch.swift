/// What tells a display back-end that its outputs came or went (udev's `drm`
/// events on the device): the seam that keeps a back-end free of the device manager.
/// The program hands the back-end the watch it opened.
public protocol OutputWatch: ~Copyable {
  /// The descriptor to poll.
  var pollDescriptor: Int32 { get }
  /// Reads what is queued: true when an output may have changed.
  func drain() -> Bool
}
