extension RecordedDevice {
  /// What the device is, as udev's `input_id` builtin decides it (systemd
  /// `src/udev/udev-builtin-input_id.c`, `test_pointers`), in its order: a pen makes
  /// a tablet whatever else it has; a finger tool without `INPUT_PROP_DIRECT` a
  /// touchpad; ABS_X/Y with mouse buttons an absolute pointer (udev says mouse);
  /// `BTN_TOUCH` or `INPUT_PROP_DIRECT` a touchscreen.
  public var kind: DeviceKind {
    let abs = EvdevCode.eventAbs, key = EvdevCode.eventKey
    let hasXY = supports(type: abs, code: EvdevCode.absX) && supports(type: abs, code: EvdevCode.absY)
    let hasMTXY = supports(type: abs, code: EvdevCode.absMTPositionX) && supports(type: abs, code: EvdevCode.absMTPositionY)
    let stylus = supports(type: key, code: EvdevCode.buttonStylus)
    let pen = supports(type: key, code: EvdevCode.buttonToolPen)
    let direct = properties.contains(EvdevCode.propertyDirect)
    let mouseButton = codes[key]?.contains { $0 >= EvdevCode.buttonLeft && $0 < EvdevCode.buttonJoystick } ?? false
    if hasXY || hasMTXY {
      if stylus || pen {
        return supports(type: key, code: EvdevCode.button0) && !pen ? .tabletPad : .tablet
      }
      if supports(type: key, code: EvdevCode.buttonToolFinger) && !direct { return .touchpad }
      // udev asks this only of ABS_X/Y devices: "VMware's USB mouse, which has
      // absolute axes, but no touch/pressure button".
      if hasXY && mouseButton { return .absolutePointer }
      if supports(type: key, code: EvdevCode.buttonTouch) || direct { return .touchscreen }
    }
    if supports(type: EvdevCode.eventRel, code: EvdevCode.relX) && supports(type: EvdevCode.eventRel, code: EvdevCode.relY) {
      return .mouse
    }
    if codes[key]?.isEmpty == false { return .keys }
    return .other
  }
}
