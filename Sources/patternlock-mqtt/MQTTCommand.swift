import CommandKit
import Configuration
import LockEvents
import MQTT
import PatternCore
import SystemCalls

/// `patternlock mqtt`: reports the lock to an MQTT broker for Home Assistant
/// (`MQTTBridge`), as a process of its own under its own unprivileged user
/// (`patternlock-mqtt.service`), so the lock itself never opens a network socket and
/// this one never reads the vault. It hears the lock on the event socket, which
/// systemd makes as root (`patternlock-events.socket`) and hands over; started by
/// hand it listens there itself.
enum MQTTCommand {
  static func run(_ arguments: [String]) throws(ReporterFailure) -> ExitStatus {
    let settings = try lifting(ReporterFailure.usage) { () throws(UsageError) in
      try CommandLineSettings.optionsOnly(arguments, for: .mqtt)
    }
    guard CurrentProcess.effectiveUser.rawValue != 0 else {
      throw .usage(
        UsageError(
          "mqtt: refuses to run as root: it talks to the network, so it runs as its own user (patternlock-mqtt.service, User=patternlock-mqtt)"
        ))
    }
    let broker = try brokerSettings(settings)
    let device = HomeAssistantDevice(
      deviceName: settings.mqttDeviceName, topicPrefix: settings.mqttTopicPrefix, discoveryPrefix: settings.mqttDiscoveryPrefix,
      softwareVersion: ProgramVersion.text)
    let random: [UInt8]
    do throws(Errno) {
      random = try CurrentProcess.randomBytes(MQTTClientIdentifier.randomByteCount)
    } catch {
      throw .stopped("mqtt: cannot read random bytes for the client id (getrandom: \(error.text))")
    }
    let identifier = MQTTClientIdentifier.make(node: device.node, random: random)
    let listening = try eventSocket()
    var bridge: MQTTBridge
    do throws(MQTTError) {
      bridge = try MQTTBridge(broker: broker, device: device, identifier: identifier, listening: listening)
    } catch {
      throw .stopped("mqtt: \(error.message)")
    }
    return try bridge.run()
  }

  /// The broker's address, login and TLS files, checked before anything connects.
  static func brokerSettings(_ settings: Settings) throws(ReporterFailure) -> MQTTBridge.Broker {
    if (settings.mqttCertificateFile == nil) != (settings.mqttKeyFile == nil) {
      throw .usage(UsageError("mqtt: cert-file and key-file go together (the client certificate and its key); set both or neither"))
    }
    if settings.mqttCertificateFile != nil && settings.mqttCAFile == nil {
      throw .usage(UsageError("mqtt: cert-file needs ca-file (TLS with the broker's certificate authority)"))
    }
    var password: String?
    if let path = settings.mqttPasswordFile {
      guard settings.mqttUsername != nil else {
        throw .usage(UsageError("mqtt: password-file is set but username is not; set username in [mqtt]"))
      }
      password = try readPassword(path)
    }
    return MQTTBridge.Broker(
      host: settings.mqttHost, port: settings.mqttPort ?? (settings.mqttCAFile == nil ? 1883 : 8883),
      username: settings.mqttUsername, password: password, authorityFile: settings.mqttCAFile,
      certificateFile: settings.mqttCertificateFile, keyFile: settings.mqttKeyFile)
  }

  /// The password file's first line. The file must be a regular file of this user's
  /// that no one else may read: a password others can read is no secret.
  static func readPassword(_ path: String) throws(ReporterFailure) -> String {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.openForReading(path)
    } catch {
      throw .usage(UsageError("mqtt: cannot open password-file \(path): \(error.text)"))
    }
    let status: FileStatus
    let bytes: [UInt8]
    do throws(Errno) {
      status = try file.status()
      bytes = try file.readToEnd(limit: 4096).bytes
    } catch {
      throw .usage(UsageError("mqtt: cannot read password-file \(path): \(error.text)"))
    }
    let user = CurrentProcess.effectiveUser.rawValue
    guard status.kind == .regular, status.owner == user, status.permissions & 0o077 == 0 else {
      throw .usage(
        UsageError(
          "mqtt: password-file \(path) must be a regular file owned by user \(user) and readable by it alone (chown, then chmod 600)"))
    }
    let line = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
    var password = String(decoding: line, as: UTF8.self)
    if password.hasSuffix("\r") { password.removeLast() }
    guard !password.isEmpty else { throw .usage(UsageError("mqtt: password-file \(path) is empty; put the password on its first line")) }
    return password
  }

  /// The event socket: the one systemd hands over (LISTEN_FDS, descriptor 3), else
  /// one made at EventFeed's path.
  static func eventSocket() throws(ReporterFailure) -> FileDescriptor {
    if let count = CurrentProcess.environmentVariable("LISTEN_FDS"), let pid = CurrentProcess.environmentVariable("LISTEN_PID"),
      Int32(pid) == CurrentProcess.id.rawValue
    {
      guard count == "1" else {
        throw .stopped("mqtt: systemd handed over \(count) sockets; patternlock-events.socket must have exactly one ListenStream=")
      }
      let handed = FileDescriptor(owning: 3)
      do throws(Errno) {
        try handed.setNonBlocking()
      } catch {
        throw .stopped("mqtt: the socket systemd handed over (descriptor 3) cannot be used: \(error.text)")
      }
      return handed
    }
    let path = EventSocket.path
    do throws(Errno) {
      return try FileDescriptor.listeningUnixStream(at: path, backlog: 64)
    } catch {
      throw .stopped("mqtt: cannot listen on the event socket \(path): \(error.text) (start it through patternlock-events.socket)")
    }
  }
}
