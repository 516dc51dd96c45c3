import CommandKit
import LockEvents
import MQTT
import PatternCore
import SystemCalls

/// `patternlock mqtt`'s loop: one poll over the signalfd, the event socket and its
/// connections, and the broker's socket. Lines from the lock become messages
/// (`LockReport`) in the queue (`OutgoingQueue`), sent while the broker is there and
/// kept while it is not; the connection comes back with a growing wait
/// (`ReconnectBackoff`); the broker's LOCK, UNLOCK and brightness go to the running
/// lock, which decides (UNLOCK only with `remote-unlock = yes` in its own
/// configuration; a brightness within its own `brightness-min` and `brightness-max`).
struct MQTTBridge: ~Copyable {
  struct Broker {
    var host: String
    var port: Int
    var username: String?
    var password: String?
    var authorityFile: String?
    var certificateFile: String?
    var keyFile: String?
  }

  static let keepaliveSeconds = 30

  private let broker: Broker
  private let device: HomeAssistantDevice
  private var client: MQTTClient
  private var links: LockLinks
  private var report: LockReport
  private var queue = OutgoingQueue()
  private var backoff = ReconnectBackoff()
  /// Connected, with the broker's CONNACK accepted.
  private var online = false
  /// A TCP connection is up (CONNACK may still be to come).
  private var linked = false
  private var reconnectAt: UInt64 = 0
  /// The last connection problem said, so a broker that stays away is not said every try.
  private var lastProblem: String?

  /// `identifier`: the client id, new at each start (`MQTTClientIdentifier`).
  init(broker: Broker, device: HomeAssistantDevice, identifier: String, listening: consuming FileDescriptor) throws(MQTTError) {
    let made = try MQTTClient(identifier: identifier)
    try made.setLogin(username: broker.username, password: broker.password)
    if let ca = broker.authorityFile {
      try made.setTLS(authorityFile: ca, certificateFile: broker.certificateFile, keyFile: broker.keyFile)
    }
    try made.setWill(topic: device.availabilityTopic, payload: HomeAssistantDevice.offline)
    self.broker = broker
    self.device = device
    client = made
    links = LockLinks(listening: listening)
    report = LockReport(device: device)
  }

  /// Runs until SIGINT or SIGTERM: then says it is offline and disconnects.
  mutating func run() throws(ReporterFailure) -> ExitStatus {
    let signals: SignalDescriptor
    do throws(Errno) {
      signals = try SignalDescriptor()
    } catch {
      throw .stopped("mqtt: cannot create a signalfd: \(error.text)")
    }
    Console.out("patternlock mqtt: reporting to \(broker.host):\(broker.port) as \(device.base) (discovery under \(device.discoveryPrefix)/)")
    var set = PollSet(capacity: LockLinks.maximumConnections + 3)
    while true {
      let now = MonotonicClock.microseconds()
      if !linked && now >= reconnectAt { connect(at: now) }
      set.removeAll()
      let signalled = set.add("signalfd", descriptor: signals.rawValue)
      let listening = set.add("event-socket", descriptor: links.isFull ? -1 : links.listeningDescriptor)
      let brokerSocket = set.add("broker", descriptor: linked ? client.socket : -1)
      var linkSources: [PollSet.Source] = []
      for index in 0..<links.count { linkSources.append(set.add("event-link", descriptor: links.descriptor(at: index))) }
      var timeout: Int32 = 1000
      if !linked { timeout = Int32(min(UInt64(1000), (reconnectAt > now ? reconnectAt - now : 0) / 1000 + 1)) }
      let ready: Bool?
      do throws(Errno) {
        ready = try set.wait(milliseconds: timeout)
      } catch {
        throw .stopped("mqtt: poll failed: \(error.text)")
      }
      if ready == true {
        if set.isReady(signalled), let signal = (try? signals.next()) ?? nil, signal == .interrupt || signal == .terminate {
          stop()
          return .success
        }
        if set.isReady(brokerSocket) { client.read() }
        // Links are read last to first, so a link removed on the way moves none unread.
        for index in stride(from: linkSources.count - 1, through: 0, by: -1) where set.isReady(linkSources[index]) {
          let (lines, ended) = links.read(at: index)
          for text in lines where take(Substring(text)) && !ended { links.markLock(at: index) }
        }
        if set.isReady(listening) { links.acceptWaiting() }
      }
      if linked { client.housekeep() }
      handleReports()
      queue.append(contentsOf: report.tick(at: MonotonicClock.microseconds()))
      flush()
    }
  }

  private mutating func connect(at now: UInt64) {
    do throws(MQTTError) {
      try client.connect(host: broker.host, port: broker.port, keepaliveSeconds: MQTTBridge.keepaliveSeconds)
      linked = true
    } catch {
      retryLater("cannot connect to \(broker.host):\(broker.port): \(error.message)", at: now)
    }
  }

  private mutating func retryLater(_ problem: String, at now: UInt64) {
    let wait = backoff.failed()
    reconnectAt = now + UInt64(wait) * 1_000_000
    if problem != lastProblem {
      Console.error("mqtt: \(problem); trying again in \(wait) s, and on (the lock is not affected; \(queue.count) messages kept)")
      lastProblem = problem
    }
  }

  private mutating func handleReports() {
    while let report = client.nextReport() {
      switch report {
      case .connected(let code):
        guard code == 0 else {
          let hint = code == 4 || code == 5 ? " (check username and password-file in [mqtt], and the broker's password file)" : ""
          client.disconnect()
          linked = false
          online = false
          retryLater("the broker refused the connection: \(MQTTClient.connackText(code))\(hint)", at: MonotonicClock.microseconds())
          continue
        }
        becameOnline()
      case .disconnected:
        let wasOnline = online
        online = false
        if linked {
          linked = false
          queue.requeueAll()
          if wasOnline {
            // A connection that worked waits the shortest time before the next.
            backoff.succeeded()
            lastProblem = nil
          }
          retryLater("lost the connection to \(broker.host):\(broker.port)", at: MonotonicClock.microseconds())
        }
      case .acknowledged(let id):
        queue.acknowledged(id)
      case .message(let topic, let payload, let truncated, let retained):
        let verdict: RemoteCommand.Verdict
        if topic == device.commandTopic {
          verdict = RemoteCommand.from(payload: payload, truncated: truncated, retained: retained)
        } else if topic == device.brightnessCommandTopic {
          verdict = RemoteCommand.brightness(payload: payload, truncated: truncated, retained: retained)
        } else {
          continue
        }
        switch verdict {
        case .take(let command): pass(command)
        case .ignore(let refusal): ignore(payload, on: topic, truncated: truncated, because: refusal)
        }
      }
    }
  }

  private mutating func becameOnline() {
    online = true
    backoff.succeeded()
    if lastProblem != nil { Console.error("mqtt: connected to \(broker.host):\(broker.port) again") }
    lastProblem = nil
    do throws(MQTTError) {
      try client.publish(topic: device.availabilityTopic, payload: HomeAssistantDevice.online, retain: true)
      for message in device.discoveryMessages { try client.publish(topic: message.topic, payload: message.payload, retain: true) }
      try client.subscribe(topic: device.commandTopic)
      try client.subscribe(topic: device.brightnessCommandTopic)
    } catch {
      Console.error("mqtt: \(error.message)")
    }
    let dropped = queue.takeDropped()
    if dropped > 0 { Console.error("mqtt: \(dropped) messages were dropped while the broker was away (the queue keeps \(queue.capacity))") }
    queue.append(contentsOf: report.snapshot(at: MonotonicClock.microseconds()))
  }

  /// The broker's command: LOCK, UNLOCK and a brightness go to the running lock,
  /// which decides.
  private mutating func pass(_ command: RemoteCommand) {
    let taken = links.sendToLocks(command.line)
    let named = command.journalName
    Console.out("mqtt: \(named) from the broker passed to \(taken) running lock\(taken == 1 ? "" : "s")")
    if case .brightness = command, taken > 0 { report.awaitBrightness() }
    if taken == 0 {
      Console.error("mqtt: \(named) from the broker: no running lock is connected to the event socket to take it")
      // The state stands as it was; Home Assistant is told so again.
      queue.append(contentsOf: report.snapshot(at: MonotonicClock.microseconds()))
    }
  }

  /// Says, escaped and bounded, what came on the command topic and was not taken.
  private func ignore(_ payload: [UInt8], on topic: String, truncated: Bool, because refusal: RemoteCommand.Refusal) {
    let shown = EscapedPayload.text(payload, truncated: truncated)
    let takes =
      topic == device.brightnessCommandTopic
      ? "a whole percent from \(RemoteCommand.brightnessRange.lowerBound) to \(RemoteCommand.brightnessRange.upperBound), digits only, such as 40"
      : "LOCK or UNLOCK, exactly"
    switch refusal {
    case .retained:
      Console.error(
        "mqtt: ignored a retained '\(shown)' on \(topic): commands are taken only as they are published, never replayed from what the broker keeps (clear it: mosquitto_pub -r -n -t \(topic); and let only Home Assistant's user write that topic)"
      )
    case .truncated, .unknown, .notAPercent:
      Console.error("mqtt: ignored '\(shown)' on \(topic) (it takes \(takes))")
    }
  }

  /// A line from the event socket.
  ///
  /// - Returns: whether it was the running lock's state line.
  private mutating func take(_ text: Substring) -> Bool {
    guard let line = LockEventLine(text) else {
      Console.error("mqtt: ignored a line on the event socket that is not an event: \(text.prefix(80))")
      return false
    }
    queue.append(contentsOf: report.take(line, at: MonotonicClock.microseconds()))
    if case .state = line { return true }
    return false
  }

  private mutating func flush() {
    while online, let message = queue.next {
      do throws(MQTTError) {
        let id = try client.publish(topic: message.topic, payload: message.payload, retain: message.retain)
        queue.sent(id: id)
      } catch {
        if error == .notConnected { break }
        // A message the library refuses outright would block all behind it.
        Console.error("mqtt: cannot publish on \(message.topic): \(error.message); dropping it")
        queue.discardNext()
      }
    }
    if linked && client.wantsWrite { client.write() }
  }

  private mutating func stop() {
    if online {
      _ = try? client.publish(topic: device.availabilityTopic, payload: HomeAssistantDevice.offline, retain: true)
      client.write()
      client.disconnect()
      client.write()
    }
    Console.out("patternlock mqtt: stopped (\(queue.count) messages not delivered)")
  }
}
