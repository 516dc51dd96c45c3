import Input
import PatternCore
import Screen

/// libinput as the device's input source: events arrive when its descriptor is
/// readable, each already in view pixels.
extension InputContext: InputSource {
  public typealias Failure = InputError
  public var nextEventTime: UInt64? { nil }

  public mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(InputError) {
    try drain(handle)
  }
}
