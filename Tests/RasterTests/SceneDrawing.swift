import PatternCore

@testable import Raster

/// A small lock-screen-like scene used by the clipping, format and damage tests:
/// gradient background, translucent and opaque circles and rings, a translucent
/// self-crossing polyline and a glyph-like mask.
struct TestScene {
  var trail: [Point] = [Point(10.3, 12.6), Point(50.5, 40.25), Point(52.2, 8.1), Point(12.4, 44.9)]
  var ringColor = Color(40, 200, 255, 180)
  var dotCenter = Point(30.4, 27.7)

  static let mask: [UInt8] = (0..<(9 * 7)).map { UInt8(($0 * 37) % 256) }

  func draw<S: PixelStorage>(on canvas: Canvas<S>, clip: Rect) {
    canvas.fillVerticalGradient(canvas.bounds, top: Color(10, 20, 40), bottom: Color(60, 10, 90), clip: clip)
    canvas.fillCircle(center: dotCenter, radius: Fixed16(6.3), color: Color(250, 250, 250), clip: clip)
    canvas.strokeCircle(
      center: Point(20.7, 20.2), radius: Fixed16(11.4), strokeWidth: Fixed16(1.7), color: ringColor, clip: clip)
    canvas.fill(Rect(x: 40, y: 44, width: 15, height: 9), color: Color(200, 30, 30, 120), clip: clip)
    canvas.strokePolyline(trail, width: Fixed16(5.2), color: Color(255, 255, 255, 140), clip: clip)
    canvas.blitMask(TestScene.mask, width: 9, height: 7, stride: 9, x: 3, y: 48, color: Color(240, 230, 0), clip: clip)
  }

  /// Everything that differs between this scene and another, as damage.
  func damage(comparedWith other: TestScene) -> DamageList {
    var list = DamageList()
    if trail != other.trail {
      list.add(ShapeBounds.polyline(trail, width: Fixed16(5.2)))
      list.add(ShapeBounds.polyline(other.trail, width: Fixed16(5.2)))
    }
    if ringColor != other.ringColor {
      list.add(ShapeBounds.ring(center: Point(20.7, 20.2), radius: Fixed16(11.4), strokeWidth: Fixed16(1.7)))
    }
    if dotCenter != other.dotCenter {
      list.add(ShapeBounds.circle(center: dotCenter, radius: Fixed16(6.3)))
      list.add(ShapeBounds.circle(center: other.dotCenter, radius: Fixed16(6.3)))
    }
    return list
  }
}
