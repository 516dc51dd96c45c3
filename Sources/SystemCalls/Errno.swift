// SystemCalls: the one layer between patternlock's modules and libc's file calls.
//
// Design. Every module that opens, reads or lists files or reports an errno (KMS,
// Input, Vault, Recording, Configuration, Typeface, PNGImage, the executable) does it
// through these few types, in the manner of swift-system: `Errno` names an errno value
// and is the only place its strerror text is made; `retryingInterrupts` is the loop
// that retries EINTR (CShim's file helpers make one attempt each and leave it to it);
// `FileDescriptor` owns a descriptor and closes it exactly once, in `deinit`, never
// retrying `close`. Two compositions that three modules each wrote by hand live here
// too: reading a whole regular file under a size limit (`RegularFile.read`, built on
// `FileDescriptor.readToEnd`) and listing a directory (`Directory.names`).
//
// Errors here are small (`Errno`, or an enum saying which step failed with which
// errno); each module maps them onto its own error type and messages, so what a
// user reads did not change when the calls moved here.
//
// Rejected: importing apple/swift-system itself (it needs Glibc, which Embedded Swift
// cannot import, and untyped `throws` in places); a `SystemError` shared by every
// module (messages must say what the module was doing: "cannot read configuration",
// "the pattern file cannot be trusted"); retrying EINTR inside each C file helper, as
// the shim used to (a copy of one loop in each, and no way for a test to see it).
import CShim

/// An `errno` value, so errors say which one without carrying a bare `Int32`.
///
/// Every errno a module tests has a name here; the numbers live in CShim.h, checked
/// against errno.h when the shim compiles.
public struct Errno: RawRepresentable, Error, Hashable, Sendable {
  public var rawValue: Int32
  @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

  /// EPERM.
  public static let notPermitted = Errno(rawValue: Int32(PL_EPERM))
  /// ENOENT: no such file or directory.
  public static let noEntry = Errno(rawValue: Int32(PL_ENOENT))
  /// ESRCH: no such process (it has ended).
  public static let noSuchProcess = Errno(rawValue: Int32(PL_ESRCH))
  /// EINTR: a signal arrived during the call (`retryingInterrupts` repeats it).
  public static let interrupted = Errno(rawValue: Int32(PL_EINTR))
  /// ECHILD: no such child to wait for; also a detached start's first child that
  /// failed for a reason other than becoming its user (`DetachedProcess`).
  public static let noChild = Errno(rawValue: Int32(PL_ECHILD))
  /// EAGAIN, which on Linux is also EWOULDBLOCK.
  public static let tryAgain = Errno(rawValue: Int32(PL_EAGAIN))
  /// EWOULDBLOCK, the same value as EAGAIN.
  public static let wouldBlock = tryAgain
  /// EACCES.
  public static let permissionDenied = Errno(rawValue: Int32(PL_EACCES))
  /// EBUSY.
  public static let busy = Errno(rawValue: Int32(PL_EBUSY))
  /// EEXIST.
  public static let fileExists = Errno(rawValue: Int32(PL_EEXIST))
  /// ENODEV.
  public static let noDevice = Errno(rawValue: Int32(PL_ENODEV))
  /// ENOTDIR.
  public static let notADirectory = Errno(rawValue: Int32(PL_ENOTDIR))
  /// EINVAL.
  public static let invalid = Errno(rawValue: Int32(PL_EINVAL))
  /// ENOTTY: an ioctl the file does not implement (not the device it was taken for).
  public static let notTerminal = Errno(rawValue: Int32(PL_ENOTTY))
  /// ENOSPC: the disk is full.
  public static let noSpace = Errno(rawValue: Int32(PL_ENOSPC))
  /// EROFS.
  public static let readOnlyFileSystem = Errno(rawValue: Int32(PL_EROFS))
  /// ENAMETOOLONG.
  public static let nameTooLong = Errno(rawValue: Int32(PL_ENAMETOOLONG))
  /// ELOOP: what an O_NOFOLLOW open of a symbolic link fails with.
  public static let symbolicLinkLoop = Errno(rawValue: Int32(PL_ELOOP))
  /// ENOTSOCK: a socket call on a descriptor that is not a socket.
  public static let notASocket = Errno(rawValue: Int32(PL_ENOTSOCK))
  /// ECONNREFUSED: nothing listens on the socket connected to.
  public static let connectionRefused = Errno(rawValue: Int32(PL_ECONNREFUSED))
  /// EOPNOTSUPP.
  public static let notSupported = Errno(rawValue: Int32(PL_EOPNOTSUPP))
  /// ENOSYS: a call the kernel or driver does not implement.
  public static let notImplemented = Errno(rawValue: Int32(PL_ENOSYS))

  /// The calling thread's current errno (`pl_errno`).
  public static var current: Errno { Errno(rawValue: pl_errno()) }

  /// strerror(3) text, such as `No such file or directory` (`pl_strerror`): the one
  /// place it is made, so every message words the same errno the same way.
  public var text: String {
    guard let text = pl_strerror(rawValue) else { return "error \(rawValue)" }
    return String(cString: text)
  }
}
