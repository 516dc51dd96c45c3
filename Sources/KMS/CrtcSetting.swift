import CDRM

/// `drmModeSetCrtc`: `framebuffer` shown from its top left on `connector` with `timing`.
/// The legacy path's modeset, and on either path how the CRTC is set again after a
/// reconnect or a kiosk (legacy SetCrtc works over atomic drivers too).
func setCrtc(
  _ descriptor: Int32, path: String, crtc: CRTCID, framebuffer: FramebufferID, connector: ConnectorID, timing: drmModeModeInfo
) throws(KMSError) {
  var connector = connector.rawValue
  var timing = timing
  try systemCall("drmModeSetCrtc", on: path) {
    drmModeSetCrtc(descriptor, crtc.rawValue, framebuffer.rawValue, 0, 0, &connector, 1, &timing)
  }
}
