import CMosquittoShim
import SystemCalls

/// What went wrong with the MQTT client, in words that say what to check.
public enum MQTTError: Error, Equatable {
  /// There is no connection to the broker (the message waits for the next one).
  case notConnected
  /// A libmosquitto call failed: its MOSQ_ERR_ code, and errno when that is the cause.
  case library(call: String, code: Int32, errno: Errno?)

  public var message: String {
    switch self {
    case .notConnected:
      return "not connected to the MQTT broker"
    case .library(let call, let code, let errno):
      if let errno { return "\(call): \(errno.text)" }
      return "\(call): \(String(cString: pl_mqtt_error_text(code)))"
    }
  }
}
