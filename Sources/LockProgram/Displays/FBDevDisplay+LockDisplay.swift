import FBDev
import PatternCore
import Raster

/// fbdev as `run` takes it: mounted upright, never handed to a kiosk (a kiosk's
/// compositor takes a DRM device), failing as a framebuffer failure.
extension FBDevDisplay: LockDisplay {
  package var canHandOver: Bool { false }
  package mutating func handOver() {}
  package var panelRotation: Rotation { .none }
  package static func commandFailure(_ error: FBDevError) -> CommandFailure { .framebuffer(error) }
}
