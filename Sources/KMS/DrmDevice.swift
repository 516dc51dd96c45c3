import SystemCalls
import CDRM
import CShim

/// An open DRM card node (`/dev/dri/cardN`), closed when the value goes away.
///
/// The descriptor is never handed out as something to keep: modesetting code in this
/// module uses it directly, and the event loop only learns it to `poll` it.
public struct DrmDevice: ~Copyable {
  /// The node, for messages.
  public let path: String
  /// The kernel driver's name (`vc4`, `virtio_gpu`, `panel-mipi-dbi`).
  let driverName: String
  /// The open card (read-write, close-on-exec). Closing it, when this value goes, also
  /// drops DRM master and frees any framebuffers and dumb buffers the kernel still
  /// holds for this file.
  private let file: FileDescriptor
  /// The descriptor number, for libdrm calls.
  var descriptor: Int32 { file.rawValue }

  /// Opens a card node read-write.
  ///
  /// - Parameter path: such as `/dev/dri/card0`.
  /// - Throws: `KMSError.permissionDenied` when this user may not open it,
  ///   `KMSError.noDevice` when it does not exist, `notModesetting` when it is not a
  ///   DRM node, `callFailed` otherwise.
  public init(path: String) throws(KMSError) {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, .readWrite)
    } catch {
      switch error {
      case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
      case .noEntry: throw .noDevice(directory: path)
      default: throw .callFailed(call: "open", path: path, errno: error)
      }
    }
    // A node that is not DRM at all (a typo in --device, /dev/null) must not be
    // reported as "DRM master held" by the next step (`file` closes as this throws).
    guard let version = drmGetVersion(file.rawValue) else { throw .notModesetting(path: path) }
    driverName = version.pointee.name.map { String(cString: $0) } ?? ""
    drmFreeVersion(version)
    self.path = path
    self.file = file
  }

  /// The descriptor to `poll` for page-flip events; valid while this value lives.
  public var pollDescriptor: Int32 { descriptor }

  /// Whether the driver makes dumb buffers (`DRM_CAP_DUMB_BUFFER`), which the lock
  /// draws into.
  var makesDumbBuffers: Bool {
    var value: UInt64 = 0
    return drmGetCap(descriptor, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
  }

  /// Whether this file holds DRM master now.
  var isMaster: Bool { drmIsMaster(descriptor) != 0 }

  /// Becomes DRM master, or says who is in the way.
  ///
  /// The first process to open a card with no master becomes master; a desktop or a
  /// second patternlock already holding it makes every modeset fail with EACCES,
  /// which is far less helpful than saying so now.
  ///
  /// - Parameter milliseconds: how long to keep trying: taking the display back from a
  ///   kiosk, its logind session may still be letting go of it.
  /// - Throws: `KMSError.masterHeld`.
  func becomeMaster(waitingMilliseconds milliseconds: Int = 0) throws(KMSError) {
    if isMaster { return }
    var waited = 0
    while drmSetMaster(descriptor) != 0 {
      guard waited < milliseconds else { throw .masterHeld(path: path) }
      sleep(milliseconds: 20)
      waited += 20
    }
  }
}
