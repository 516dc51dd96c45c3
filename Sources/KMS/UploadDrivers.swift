/// Drivers whose scan-out buffer is not read by the display itself but copied by the
/// driver, on each commit, over a link: to the host (virtio-gpu, vmwgfx, qxl,
/// hyperv), over USB (gud, udl), over SPI or a slow parallel bus (the mipi-dbi panel
/// drivers and the older tinydrm ones), or into a server chip's memory (ast, mgag200,
/// cirrus, bochs). For them a commit of the same framebuffer with `FB_DAMAGE_CLIPS`
/// copies only the damage, while a flip to another framebuffer makes the kernel's
/// damage helper copy the whole frame; and the buffer being "on screen" is never read
/// while it is written, so there is no tearing to avoid. They get one buffer, updated
/// in place. Every other driver (vc4 on a Raspberry Pi among them) scans out of the
/// buffer directly and gets two, flipped on vblank.
enum UploadDrivers {
  static let names: Set<String> = [
    "virtio_gpu", "vmwgfx", "qxl", "hyperv_drm", "gud", "udl", "ast", "mgag200", "cirrus", "bochs-drm", "bochs",
    "panel-mipi-dbi", "ili9163", "ili9225", "ili9341", "ili9486", "hx8357d", "mi0283qt", "st7586", "st7735r", "repaper",
    "gm12u320", "simpledrm",
  ]

  /// Whether `driver` copies its buffer over a link (see the type).
  static func copiesOverALink(_ driver: String) -> Bool { names.contains(driver) }
}
