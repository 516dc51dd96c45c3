import CommandTestSupport
import Configuration
import Foundation
import XCTest

/// The walk of the system layers: a file is trusted only when it and every directory
/// from the root down are a trusted owner's and writable by nobody else, and what is
/// read is what was checked. Each test reads as root would (privileged keys guarded),
/// whoever runs the suite.
final class SystemLayerTrustTests: XCTestCase {
  var root: ConfigRoot!
  /// As root: privileged keys only from trusted files; the owners this process may use.
  var asRoot: ConfigurationTrust!

  override func setUpWithError() throws {
    root = try ConfigRoot()
    asRoot = ConfigurationTrust(guardsPrivilegedKeys: true, trustedOwners: ConfigurationTrust.throttleOnly(root: root.path).trustedOwners)
  }
  override func tearDown() {
    root.remove()
    // XCTest keeps every test case object to the end of the run: what the product
    // allocated for it would be reported as leaked under AddressSanitizer.
    asRoot = nil
  }

  /// The reason the load refuses `on-wrong` at `path`, line 2, or nil when it accepts it.
  func refusal(_ path: String) -> String? {
    do throws(ConfigurationError) {
      let settings = try ConfigurationFiles.load(root: root.path, extra: nil, trust: asRoot)
      XCTAssertEqual(settings.onWrong, ["/bin/true"])
      return nil
    } catch {
      guard case .privilegedKey(let file, let line, let key, let why) = error else {
        XCTFail(error.message)
        return "unexpected"
      }
      XCTAssertEqual(file, path)
      XCTAssertEqual(line, 2)
      XCTAssertEqual(key, .onWrong)
      return why
    }
  }

  let hook = "[actions]\non-wrong = /bin/true\n"

  func testATrustedTreeSetsPrivilegedKeys() throws {
    let file = try root.write("etc/patternlock.conf.d/10-door.conf", hook)
    XCTAssertNil(refusal(file))
  }

  func testAConfDFileInAWorldOrGroupWritableDirectoryIsRefused() throws {
    let file = try root.write("etc/patternlock.conf.d/10-door.conf", hook)
    let directory = root.path + "/etc/patternlock.conf.d"
    for mode: mode_t in [0o777, 0o775, 0o1777] {
      chmod(directory, mode)
      XCTAssertEqual(refusal(file), "group or others may write the directory \(directory) (chmod go-w \(directory))", "mode \(String(mode, radix: 8))")
    }
    chmod(directory, 0o755)
    XCTAssertNil(refusal(file))
  }

  func testEveryParentDirectoryUpToTheRootIsChecked() throws {
    let file = try root.write("etc/patternlock.conf.d/10-door.conf", hook)
    let etc = root.path + "/etc"
    chmod(etc, 0o777)
    XCTAssertEqual(refusal(file), "group or others may write the directory \(etc) (chmod go-w \(etc))")
    chmod(etc, 0o755)
    chmod(root.path, 0o775)
    XCTAssertEqual(refusal(file), "group or others may write the directory \(root.path) (chmod go-w \(root.path))")
    chmod(root.path, 0o755)
    let usrFile = try root.write("usr/share/patternlock/patternlock.conf", hook)
    try FileManager.default.removeItem(atPath: file)
    chmod(root.path + "/usr/share", 0o757)
    XCTAssertEqual(refusal(usrFile), "group or others may write the directory \(root.path)/usr/share (chmod go-w \(root.path)/usr/share)")
  }

  func testAGroupWritableFileIsRefused() throws {
    let file = try root.write("etc/patternlock.conf", hook)
    chmod(file, 0o664)
    XCTAssertEqual(refusal(file), "group or others may write this file (chmod go-w \(file))")
  }

  func testAFileOrDirectoryOwnedByAnotherUserIsRefused() throws {
    guard getuid() == 0 else { throw XCTSkip("giving a file to another user needs root") }
    let file = try root.write("etc/patternlock.conf.d/10-door.conf", hook)
    chown(file, 65534, 65534)
    XCTAssertEqual(refusal(file), "this file is owned by user 65534, not root (chown root:root \(file))")
    chown(file, 0, 0)
    let directory = root.path + "/etc/patternlock.conf.d"
    chown(directory, 65534, 65534)
    XCTAssertEqual(refusal(file), "the directory \(directory) is owned by user 65534, not root (chown root:root \(directory))")
  }

  func testASymlinkedFileIsReadButRefusedPrivilegedKeys() throws {
    let target = try root.write("elsewhere/door.conf", "[lock]\nstealth = yes\n")
    let link = root.path + "/etc/patternlock.conf"
    try FileManager.default.createDirectory(atPath: root.path + "/etc", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    XCTAssertTrue(try ConfigurationFiles.load(root: root.path, extra: nil, trust: asRoot).stealth, "its other keys still count")
    try hook.write(toFile: target, atomically: false, encoding: .utf8)
    XCTAssertEqual(refusal(link), "it is a symbolic link (put the file itself at \(link))")
  }

  func testASymlinkedDirectoryMakesEverythingBelowItUntrusted() throws {
    try root.write("elsewhere/10-door.conf", hook)
    try FileManager.default.createDirectory(atPath: root.path + "/etc", withIntermediateDirectories: true)
    let directory = root.path + "/etc/patternlock.conf.d"
    try FileManager.default.createSymbolicLink(atPath: directory, withDestinationPath: root.path + "/elsewhere")
    XCTAssertEqual(refusal(directory + "/10-door.conf"), "the directory \(directory) is a symbolic link (put the directory itself there)")
  }

  func testAFIFOInConfDIsRefusedWithoutHanging() throws {
    try root.write("etc/patternlock.conf.d/.keep", "")
    let fifo = root.path + "/etc/patternlock.conf.d/10-pipe.conf"
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    let done = DispatchSemaphore(value: 0)
    let outcome = Shared<ConfigurationError?>(nil)
    let path = root.path
    Thread.detachNewThread {
      do { _ = try ConfigurationFiles.load(root: path, extra: nil) } catch { outcome.value = error as? ConfigurationError }
      done.signal()
    }
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "reading a FIFO in conf.d hung")
    XCTAssertEqual(outcome.value, .notARegularFile(path: fifo, kind: "a device, pipe or socket"))
  }

  func testAFIFOGivenAsConfigIsRefusedWithoutHanging() throws {
    let fifo = root.path + "/pipe.conf"
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    let result = try PatternlockBinary.run(["status", "--config", fifo], environment: [ConfigurationFiles.rootVariable: root.path])
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertEqual(result.stderr, "patternlock: configuration \(fifo) is a device, pipe or socket, not a file (remove it or point --config at a file)\n")
  }

  /// The old check-then-open race: a file swapped between a trusted and a distrusted
  /// one (group-writable, with another hook) while it is read. Read once and checked on
  /// that descriptor, the distrusted hook is refused every time, never taken as trusted.
  func testSwappingTheFileWhileItIsReadNeverSmugglesAKeyIn() throws {
    let target = try root.write("etc/patternlock.conf", hook)
    let trusted = root.path + "/trusted.conf", planted = root.path + "/planted.conf"
    let stopped = DispatchSemaphore(value: 0)
    let running = Shared(true)
    let hook = self.hook
    let swapper = Thread {
      while running.value {
        try? Data(hook.utf8).write(to: URL(fileURLWithPath: trusted))
        chmod(trusted, 0o644)
        rename(trusted, target)
        try? Data("[actions]\non-wrong = /tmp/planted\n".utf8).write(to: URL(fileURLWithPath: planted))
        chmod(planted, 0o666)
        rename(planted, target)
      }
      stopped.signal()
    }
    swapper.start()
    var refused = 0, trustedReads = 0
    let expected = "group or others may write this file (chmod go-w \(target))"
    for _ in 0..<400 {
      do throws(ConfigurationError) {
        let settings = try ConfigurationFiles.load(root: root.path, extra: nil, trust: asRoot)
        XCTAssertEqual(settings.onWrong, ["/bin/true"], "a planted hook was read as trusted")
        trustedReads += 1
      } catch {
        XCTAssertEqual(error, .privilegedKey(path: target, line: 2, key: .onWrong, why: expected))
        refused += 1
      }
    }
    running.value = false
    XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(refused + trustedReads, 400)
  }
}

/// A value two threads share, behind a lock.
private final class Shared<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
