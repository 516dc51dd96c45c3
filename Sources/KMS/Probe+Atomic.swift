import CDRM

/// The atomic step of the modesetting sequence: what the driver offers for atomic
/// commits on the chosen CRTC, or nil, which means "use legacy SetCrtc + PageFlip".
extension Probe {
  /// A KMS object's properties by name (`drmModeObjectGetProperties`).
  struct ObjectProperties {
    var entries: [(name: String, id: UInt32, value: UInt64)] = []

    func id(_ name: String) -> UInt32? { entries.first { $0.name == name }?.id }
    func value(_ name: String) -> UInt64? { entries.first { $0.name == name }?.value }
  }

  /// The atomic pipeline for `crtc` driving `connector` with `timing`, or nil when any
  /// piece is missing: the driver refuses the universal-planes or atomic client cap,
  /// the CRTC has no primary plane, a property is absent, or the mode blob is refused.
  static func atomicPipeline(
    crtc: CRTCID, connector: ConnectorID, timing: drmModeModeInfo, _ resources: Resources, of device: borrowing DrmDevice
  ) -> AtomicPipeline? {
    let fd = device.descriptor
    guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
      drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
    else { return nil }
    guard let index = resources.crtcs.firstIndex(of: crtc), index < 32,
      let plane = primaryPlane(forCrtcIndex: index, of: device)
    else { return nil }
    let c = objectProperties(connector.rawValue, type: objectConnector, of: device)
    let r = objectProperties(crtc.rawValue, type: objectCrtc, of: device)
    let p = objectProperties(plane.rawValue, type: objectPlane, of: device)
    guard let ids = AtomicPipeline.PropertyIDs(connector: c, crtc: r, plane: p) else { return nil }
    return AtomicPipeline(device: device, connector: connector, crtc: crtc, plane: plane, properties: ids, timing: timing)
  }

  // The object-type tags drm_mode.h defines (DRM_MODE_OBJECT_*).
  static let objectConnector = UInt32(DRM_MODE_OBJECT_CONNECTOR)
  static let objectCrtc = UInt32(DRM_MODE_OBJECT_CRTC)
  static let objectPlane = UInt32(DRM_MODE_OBJECT_PLANE)

  /// The first plane that can show on the CRTC at `index` (a bit in `possible_crtcs`,
  /// by index like an encoder's) and whose `type` is primary.
  static func primaryPlane(forCrtcIndex index: Int, of device: borrowing DrmDevice) -> PlaneID? {
    guard let planes = drmModeGetPlaneResources(device.descriptor) else { return nil }
    defer { drmModeFreePlaneResources(planes) }
    for i in 0..<Int(planes.pointee.count_planes) {
      let id = planes.pointee.planes[i]
      guard let plane = drmModeGetPlane(device.descriptor, id) else { continue }
      let possible = plane.pointee.possible_crtcs
      drmModeFreePlane(plane)
      guard possible & (1 << UInt32(index)) != 0 else { continue }
      if objectProperties(id, type: objectPlane, of: device).value("type") == UInt64(DRM_PLANE_TYPE_PRIMARY) { return PlaneID(id) }
    }
    return nil
  }

  /// Every property of one object with its current value; empty when it has none.
  static func objectProperties(_ object: UInt32, type: UInt32, of device: borrowing DrmDevice) -> ObjectProperties {
    var result = ObjectProperties()
    guard let props = drmModeObjectGetProperties(device.descriptor, object, type) else { return result }
    defer { drmModeFreeObjectProperties(props) }
    for i in 0..<Int(props.pointee.count_props) {
      guard let property = drmModeGetProperty(device.descriptor, props.pointee.props[i]) else { continue }
      defer { drmModeFreeProperty(property) }
      let name = withUnsafeBytes(of: property.pointee.name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      result.entries.append((name, property.pointee.prop_id, props.pointee.prop_values[i]))
    }
    return result
  }
}
