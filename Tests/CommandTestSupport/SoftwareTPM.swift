import Foundation

/// A real TPM 2.0 for one test: swtpm on loopback TCP ports of its own, with its state in
/// a directory of the test's (a fresh directory is a fresh TPM, manufactured anew).
public final class SoftwareTPM {
  static let executable = "/usr/bin/swtpm"
  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

  public let port: Int
  private let process: Process

  /// The TCTI string that reaches it.
  public var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

  /// Starts swtpm with its state in `directory` (created), on `port` (the TPM coming
  /// back where it was) or else the first free pair of ports from a random start, and
  /// waits until it answers.
  public init(in directory: URL, port fixed: Int? = nil) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var lastError = "no port tried"
    for _ in 0..<20 {
      let port = fixed ?? (Int.random(in: 20_000...60_000) & ~1)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: SoftwareTPM.executable)
      process.arguments = [
        "socket", "--tpm2", "--tpmstate", "dir=\(directory.path)", "--server", "type=tcp,bindaddr=127.0.0.1,port=\(port)",
        "--ctrl", "type=tcp,bindaddr=127.0.0.1,port=\(port + 1)", "--flags", "not-need-init,startup-clear",
      ]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      if SoftwareTPM.waitUntilListening(port: port, process: process) {
        self.port = port
        self.process = process
        return
      }
      process.terminate()
      process.waitUntilExit()
      lastError = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
    }
    throw NSError(domain: "SoftwareTPM", code: 1, userInfo: [NSLocalizedDescriptionKey: "swtpm did not start: \(lastError)"])
  }

  /// Stops it (the TPM is then absent; its state stays in the directory).
  public func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }

  deinit { stop() }

  private static func waitUntilListening(port: Int, process: Process) -> Bool {
    for _ in 0..<100 {
      guard process.isRunning else { return false }
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      close(fd)
      if connected == 0 { return true }
      usleep(50_000)
    }
    return false
  }
}
