import Input
import Screen

/// udev's `drm` events are what tell the KMS panel its output came or went.
extension UdevMonitor: OutputWatch {}
