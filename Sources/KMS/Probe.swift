import SystemCalls
import CDRM

/// The kernel's view of a card, copied out of libdrm's structures (which are freed at
/// once) into plain values. Used at start-up and on hotplug only, so it may allocate.
enum Probe {
  /// The IDs of a card's connectors, encoders and CRTCs (`drmModeGetResources`).
  struct Resources {
    var connectors: [ConnectorID] = []
    var encoders: [UInt32] = []
    var crtcs: [CRTCID] = []
  }

  /// One connector and what it offers (`drmModeGetConnector`).
  struct Connector {
    var id: ConnectorID
    var name: ConnectorName
    var isConnected: Bool
    var modes: [DisplayMode]
    /// The kernel's timings, index for index with `modes`.
    var timings: [drmModeModeInfo]
    /// The encoder currently attached, or 0.
    var currentEncoder: UInt32
    var encoders: [UInt32]
    var widthMillimetres: Int
    var heightMillimetres: Int
  }

  static func resources(of device: borrowing DrmDevice) throws(KMSError) -> Resources {
    guard let res = drmModeGetResources(device.descriptor) else {
      let errno = Errno.current
      // EOPNOTSUPP/EINVAL: a render-only node (v3d, panfrost) with no modesetting.
      if errno == .notSupported || errno == .invalid { throw .notModesetting(path: device.path) }
      if errno == .permissionDenied { throw .permissionDenied(path: device.path) }
      throw .callFailed(call: "drmModeGetResources", path: device.path, errno: errno)
    }
    defer { drmModeFreeResources(res) }
    var result = Resources()
    result.connectors = ids(res.pointee.connectors, res.pointee.count_connectors).map(ConnectorID.init)
    result.encoders = ids(res.pointee.encoders, res.pointee.count_encoders)
    result.crtcs = ids(res.pointee.crtcs, res.pointee.count_crtcs).map(CRTCID.init)
    if result.connectors.isEmpty || result.crtcs.isEmpty { throw .notModesetting(path: device.path) }
    return result
  }

  static func connectors(of device: borrowing DrmDevice, _ resources: Resources) -> [Connector] {
    var result: [Connector] = []
    for id in resources.connectors {
      if let connector = connector(id, of: device) { result.append(connector) }
    }
    return result
  }

  /// One connector's state, or nil when it vanished (a DP-MST connector can).
  static func connector(_ id: ConnectorID, of device: borrowing DrmDevice) -> Connector? {
    guard let c = drmModeGetConnector(device.descriptor, id.rawValue) else { return nil }
    defer { drmModeFreeConnector(c) }
    let info = c.pointee
    var timings: [drmModeModeInfo] = []
    var modes: [DisplayMode] = []
    for i in 0..<Int(max(info.count_modes, 0)) {
      let m = info.modes[i]
      timings.append(m)
      modes.append(
        DisplayMode(
          width: Int(m.hdisplay), height: Int(m.vdisplay), refresh: Int(m.vrefresh),
          isPreferred: m.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0))
    }
    return Connector(
      id: id, name: ConnectorName(type: info.connector_type, typeIndex: info.connector_type_id),
      isConnected: info.connection == DRM_MODE_CONNECTED, modes: modes, timings: timings,
      currentEncoder: info.encoder_id, encoders: ids(info.encoders, info.count_encoders),
      widthMillimetres: Int(info.mmWidth), heightMillimetres: Int(info.mmHeight))
  }

  /// The connected connector named `name` (the one `CardChoice` chose), or the first
  /// connected one.
  ///
  /// - Throws: `unknownOutput` or `noConnectedOutput`, listing the outputs.
  static func connectedConnector(
    of device: borrowing DrmDevice, _ resources: Resources, named name: String?
  ) throws(KMSError) -> Connector {
    let all = connectors(of: device, resources)
    let connected = all.filter { $0.isConnected && !$0.modes.isEmpty }
    if let name {
      if let match = connected.first(where: { $0.name.matches(name) }) { return match }
      throw .unknownOutput(path: device.path, name: name, outputs: list(connected))
    }
    guard let first = connected.first else { throw .noConnectedOutput(path: device.path, outputs: list(all)) }
    return first
  }

  /// The CRTC to drive `connector` with.
  ///
  /// The one already driving it when there is one (no flicker, no stealing another
  /// output's CRTC); otherwise the first CRTC any of its encoders can reach. An
  /// encoder's `possible_crtcs` is a bit mask over the *index* of each CRTC in the
  /// resources, not over CRTC IDs (see kmscube's drm-common.c, `get_crtc_for_encoder`).
  static func crtc(for connector: Connector, _ resources: Resources, of device: borrowing DrmDevice) throws(KMSError) -> CRTCID {
    if connector.currentEncoder != 0, let encoder = drmModeGetEncoder(device.descriptor, connector.currentEncoder) {
      let crtc = encoder.pointee.crtc_id
      drmModeFreeEncoder(encoder)
      if crtc != 0 { return CRTCID(crtc) }
    }
    for encoderID in connector.encoders {
      guard let encoder = drmModeGetEncoder(device.descriptor, encoderID) else { continue }
      let possible = encoder.pointee.possible_crtcs
      drmModeFreeEncoder(encoder)
      if let index = resources.crtcs.indices.first(where: { $0 < 32 && possible & (1 << UInt32($0)) != 0 }) {
        return resources.crtcs[index]
      }
    }
    throw .noCrtc(path: device.path, output: connector.name.text)
  }

  /// The connector's `panel orientation` property, or `.normal` when it has none.
  static func panelOrientation(of connector: ConnectorID, device: borrowing DrmDevice) -> PanelOrientation {
    guard let props = drmModeObjectGetProperties(device.descriptor, connector.rawValue, objectConnector) else {
      return .normal
    }
    defer { drmModeFreeObjectProperties(props) }
    for i in 0..<Int(props.pointee.count_props) {
      guard let property = drmModeGetProperty(device.descriptor, props.pointee.props[i]) else { continue }
      defer { drmModeFreeProperty(property) }
      guard name(property.pointee.name) == "panel orientation" else { continue }
      let value = props.pointee.prop_values[i]
      for e in 0..<Int(max(property.pointee.count_enums, 0)) where property.pointee.enums[e].value == value {
        return PanelOrientation(propertyValue: name(property.pointee.enums[e].name)) ?? .normal
      }
    }
    return .normal
  }

  /// The CRTC's state before we change it (`drmModeGetCrtc`), to put back on exit.
  static func savedCrtc(_ crtc: CRTCID, connector: ConnectorID, of device: borrowing DrmDevice) -> SavedCrtc? {
    guard let saved = drmModeGetCrtc(device.descriptor, crtc.rawValue) else { return nil }
    defer { drmModeFreeCrtc(saved) }
    return SavedCrtc(
      crtc: crtc, connector: connector, framebuffer: FramebufferID(saved.pointee.buffer_id), x: saved.pointee.x,
      y: saved.pointee.y, mode: saved.pointee.mode_valid != 0 ? saved.pointee.mode : nil)
  }

  /// What `path` shows of itself for choosing among cards; a card that cannot be
  /// opened or read carries its failure (a render-only card's is `notModesetting`).
  static func card(at path: String) -> CardProbe {
    let device: DrmDevice
    do throws(KMSError) {
      device = try DrmDevice(path: path)
    } catch {
      return CardProbe(path: path, driver: "", outputs: [], failure: error)
    }
    let resources: Resources
    do throws(KMSError) {
      resources = try Probe.resources(of: device)
    } catch {
      return CardProbe(path: path, driver: device.driverName, outputs: [], failure: error)
    }
    let outputs = connectors(of: device, resources).map { c in
      OutputProbe(name: c.name, isConnected: c.isConnected, modeCount: c.modes.count)
    }
    return CardProbe(path: path, driver: device.driverName, outputs: outputs)
  }

  /// Card nodes in `directory`, in numeric order (`card0` before `card10`).
  static func cardPaths(in directory: String) throws(KMSError) -> [String] {
    // Only cardN: connectors also appear as card0-HDMI-A-1 under /sys, never here,
    // but a test directory may hold anything.
    let names: [String]
    do throws(Directory.ListingFailure) {
      names = try Directory.names(in: directory) { name in
        name.hasPrefix("card") && name.count > 4
          && name.utf8.dropFirst(4).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      }
    } catch {
      if error == .cannotOpen(.noEntry) { throw .noDevice(directory: directory) }
      throw .callFailed(call: error.call, path: directory, errno: error.errno)
    }
    if names.isEmpty { throw .noDevice(directory: directory) }
    let sorted = names.sorted { a, b in (Int(a.dropFirst(4)) ?? 0) < (Int(b.dropFirst(4)) ?? 0) }
    return sorted.map { directory + "/" + $0 }
  }

  private static func ids(_ pointer: UnsafeMutablePointer<UInt32>?, _ count: Int32) -> [UInt32] {
    guard let pointer, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
  }

  /// The text of a fixed-size C name field (a tuple of CChar).
  private static func name<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { bytes in
      String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
  }

  private static func list(_ connectors: [Connector]) -> String {
    var text = ""
    for c in connectors {
      if !text.isEmpty { text += ", " }
      text += c.name.text + (c.isConnected ? "" : " (disconnected)")
    }
    return text
  }
}

/// A CRTC's configuration before patternlock took it over.
struct SavedCrtc {
  var crtc: CRTCID
  var connector: ConnectorID
  var framebuffer: FramebufferID
  var x: UInt32
  var y: UInt32
  /// The mode, or nil when the CRTC was off.
  var mode: drmModeModeInfo?
}
