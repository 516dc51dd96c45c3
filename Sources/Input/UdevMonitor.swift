import CInput

/// A udev monitor for one subsystem: tells the event loop that a display was plugged
/// in or out (udev sends a `change` event on the card for connector hotplug).
public struct UdevMonitor: ~Copyable {
  private let udev: OpaquePointer
  private let monitor: OpaquePointer
  /// The subsystem watched, for messages.
  public let subsystem: String

  /// Starts listening (`udev_monitor_new_from_netlink`, filtered to `subsystem`).
  ///
  /// - Parameter subsystem: `drm` for displays.
  /// - Throws: `InputError.noUdev` when udev or its netlink socket is unavailable.
  public init(subsystem: String) throws(InputError) {
    guard let udev = udev_new() else { throw .noUdev }
    guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
      udev_unref(udev)
      throw .noUdev
    }
    if udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil) < 0
      || udev_monitor_enable_receiving(monitor) < 0
    {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      throw .noUdev
    }
    self.udev = udev
    self.monitor = monitor
    self.subsystem = subsystem
  }

  deinit {
    udev_monitor_unref(monitor)
    udev_unref(udev)
  }

  /// The descriptor to `poll`.
  public var pollDescriptor: Int32 { udev_monitor_get_fd(monitor) }

  /// Reads every queued event.
  ///
  /// - Returns: whether any was a `change` (or `add`/`remove`) of a device.
  public func drain() -> Bool {
    var changed = false
    while let device = udev_monitor_receive_device(monitor) {
      if let action = udev_device_get_action(device) {
        let text = String(cString: action)
        if text == "change" || text == "add" || text == "remove" { changed = true }
      }
      udev_device_unref(device)
    }
    return changed
  }
}
