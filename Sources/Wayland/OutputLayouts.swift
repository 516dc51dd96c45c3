import Scene

/// How the lock is laid out for one output's frames: the program's settings, fonts
/// and language, which this module does not read. The session lock's display asks it
/// whenever an output comes or changes its size or scale.
public protocol OutputLayouts {
  /// The lock screen's renderer laid out for frames of `width` x `height` pixels.
  func renderer(width: Int, height: Int) throws(WaylandError) -> LockScreenRenderer
}
