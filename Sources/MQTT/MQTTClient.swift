import CMosquittoShim
import SystemCalls

/// One MQTT client over libmosquitto, driven by its owner's poll loop: poll
/// `socket` for reading, call `read` when it is ready, `write` while `wantsWrite`, and
/// `housekeep` about once a second (keepalive pings, retries); after each, `nextReport`
/// hands over what happened (the broker's answer to CONNECT, a lost connection, an
/// acknowledged message, a message on a subscribed topic).
///
/// `~Copyable`: the one owner frees the library's client once.
public struct MQTTClient: ~Copyable {
  private let client: OpaquePointer

  /// A client with a clean session, named `identifier` to the broker.
  ///
  /// - Throws: `MQTTError.library` when libmosquitto cannot make one.
  public init(identifier: String) throws(MQTTError) {
    guard let made = identifier.withCString({ pl_mqtt_new($0) }) else {
      throw .library(call: "mosquitto_new", code: Int32(PL_MQTT_ERRNO), errno: Errno.current)
    }
    client = made
  }

  deinit { pl_mqtt_free(client) }

  /// The broker's user name and password (either may be nil).
  public func setLogin(username: String?, password: String?) throws(MQTTError) {
    let code = MQTTClient.withOptionalCString(username) { user in
      MQTTClient.withOptionalCString(password) { pl_mqtt_set_login(client, user, $0) }
    }
    try MQTTClient.check(code, "mosquitto_username_pw_set")
  }

  /// TLS, trusting the CA certificates in `authorityFile`, with a client certificate
  /// when both `certificateFile` and `keyFile` are given.
  public func setTLS(authorityFile: String, certificateFile: String?, keyFile: String?) throws(MQTTError) {
    let code = authorityFile.withCString { ca in
      MQTTClient.withOptionalCString(certificateFile) { certificate in
        MQTTClient.withOptionalCString(keyFile) { pl_mqtt_set_tls(client, ca, certificate, $0) }
      }
    }
    try MQTTClient.check(code, "mosquitto_tls_set")
  }

  /// The last will: `payload`, retained, on `topic` when the broker loses the client.
  public func setWill(topic: String, payload: String) throws(MQTTError) {
    let code = topic.withCString { t in payload.withCString { pl_mqtt_set_will(client, t, $0) } }
    try MQTTClient.check(code, "mosquitto_will_set")
  }

  /// Opens the connection and sends CONNECT; the broker's answer comes as a report.
  public func connect(host: String, port: Int, keepaliveSeconds: Int) throws(MQTTError) {
    let code = host.withCString { pl_mqtt_connect(client, $0, Int32(port), Int32(keepaliveSeconds)) }
    guard code == PL_MQTT_SUCCESS else {
      throw .library(call: "connect to \(host):\(port)", code: code, errno: code == PL_MQTT_ERRNO ? Errno.current : nil)
    }
  }

  /// Sends DISCONNECT (the will is then not published).
  public func disconnect() { _ = pl_mqtt_disconnect(client) }

  /// The connection's socket; -1 while there is none.
  public var socket: Int32 { pl_mqtt_socket(client) }

  /// Whether packets are waiting to be written.
  public var wantsWrite: Bool { pl_mqtt_wants_write(client) != 0 }

  /// Reads what arrived; a lost connection is a report, not an error.
  public func read() { _ = pl_mqtt_read(client) }

  /// Writes what waits.
  public func write() { _ = pl_mqtt_write(client) }

  /// The keepalive's pings and the library's own retries.
  public func housekeep() { _ = pl_mqtt_misc(client) }

  /// Publishes `payload` on `topic`.
  ///
  /// - Returns: the message's id (its acknowledgement's, for QoS 1).
  /// - Throws: `.notConnected` while there is no connection, else `.library`.
  @discardableResult
  public func publish(topic: String, payload: String, qos: Int32 = 1, retain: Bool = false) throws(MQTTError) -> Int32 {
    var mid: Int32 = 0
    var bytes = Array(payload.utf8)
    let code = topic.withCString { t in
      bytes.withUnsafeMutableBytes { pl_mqtt_publish(client, &mid, t, $0.baseAddress, Int32($0.count), qos, retain ? 1 : 0) }
    }
    if code == PL_MQTT_NO_CONNECTION || code == PL_MQTT_CONNECTION_LOST { throw .notConnected }
    try MQTTClient.check(code, "mosquitto_publish")
    return mid
  }

  /// Subscribes to `topic` with QoS 1.
  public func subscribe(topic: String) throws(MQTTError) {
    let code = topic.withCString { pl_mqtt_subscribe(client, $0, 1) }
    if code == PL_MQTT_NO_CONNECTION || code == PL_MQTT_CONNECTION_LOST { throw .notConnected }
    try MQTTClient.check(code, "mosquitto_subscribe")
  }

  /// The oldest report not yet taken, or nil.
  public func nextReport() -> MQTTReport? {
    var record = pl_mqtt_record()
    guard pl_mqtt_next(client, &record) != 0 else { return nil }
    switch record.kind {
    case Int32(PL_MQTT_CONNECTED):
      return .connected(code: record.code)
    case Int32(PL_MQTT_DISCONNECTED):
      return .disconnected(code: record.code)
    case Int32(PL_MQTT_PUBLISHED):
      return .acknowledged(messageID: record.mid)
    default:
      let topic = withUnsafeBytes(of: &record.topic) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      let count = Int(record.payload_length)
      // The bytes as sent: a command is matched on them, NUL and all.
      let payload = withUnsafeBytes(of: &record.payload) { raw in Array(raw.prefix(count)) }
      return .message(topic: topic, payload: payload, truncated: record.truncated != 0, retained: record.retained != 0)
    }
  }

  /// libmosquitto's words for a CONNACK code (`Connection Refused: not authorised.`).
  public static func connackText(_ code: Int32) -> String { String(cString: pl_mqtt_connack_text(code)) }

  private static func check(_ code: Int32, _ call: String) throws(MQTTError) {
    guard code == PL_MQTT_SUCCESS else { throw .library(call: call, code: code, errno: code == PL_MQTT_ERRNO ? Errno.current : nil) }
  }

  private static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
  }
}

/// What the client reports after a read, write or housekeeping call.
public enum MQTTReport: Equatable, Sendable {
  /// The broker answered CONNECT (0: accepted).
  case connected(code: Int32)
  /// The connection ended (0: asked for).
  case disconnected(code: Int32)
  /// The broker acknowledged the QoS 1 message with this id.
  case acknowledged(messageID: Int32)
  /// A message on a subscribed topic: its first 64 bytes, `truncated` when longer, and
  /// `retained` when the broker replayed a message it kept (as it does to every new
  /// subscription) rather than relaying one just published.
  case message(topic: String, payload: [UInt8], truncated: Bool, retained: Bool)
}
