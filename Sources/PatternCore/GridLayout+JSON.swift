extension GridLayout {
  /// The layout as one JSON object, positions in panel pixels.
  ///
  /// Rectangles and dot centres are mapped through the rotation, so tools that draw
  /// or touch the panel can use them directly; `view` gives the upright size.
  public var json: String {
    var object = JSONObjectWriter()
    object.add("panel", raw: "{\"width\":\(options.panelWidth),\"height\":\(options.panelHeight)}")
    object.add("rotate", options.rotation.degrees)
    object.add("view", raw: "{\"width\":\(transform.viewWidth),\"height\":\(transform.viewHeight)}")
    object.add("grid_size", gridSize)
    if let dpi = options.dotsPerInch { object.add("dpi", dpi) }
    object.add("grid", raw: GridLayout.rectJSON(panelRect(fromView: gridRect)))
    object.add("prompt", raw: GridLayout.rectJSON(panelRect(fromView: promptRect)))
    if !messageRect.isEmpty { object.add("message", raw: GridLayout.rectJSON(panelRect(fromView: messageRect))) }
    if !powerButtonRect.isEmpty { object.add("power_button", raw: GridLayout.rectJSON(panelRect(fromView: powerButtonRect))) }
    object.add("font_px", fontPixels)
    object.add("cell", cell)
    object.add("margin", margin)
    object.add("hit_radius", hitRadius)
    object.add("dot_radius", dotRadius)
    object.add("ring_radius", ringRadius)
    object.add("ring_stroke", ringStroke)
    object.add("line_width", lineWidth)
    var dots = "["
    for dot in 1...dotCount {
      let p = transform.panelPoint(fromView: centre(of: dot))
      if dot > 1 { dots += "," }
      dots += "{\"n\":\(dot),\"x\":\(p.x.decimalString),\"y\":\(p.y.decimalString)}"
    }
    object.add("dots", raw: dots + "]")
    return object.json
  }

  /// A view rectangle as the panel rectangle it covers.
  public func panelRect(fromView r: Rect) -> Rect {
    let a = transform.panelPoint(fromView: Point(x: r.x, y: r.y))
    let b = transform.panelPoint(fromView: Point(x: r.maxX, y: r.maxY))
    let x0 = min(a.x.floor, b.x.floor), y0 = min(a.y.floor, b.y.floor)
    return Rect(x: x0, y: y0, width: max(a.x.floor, b.x.floor) - x0, height: max(a.y.floor, b.y.floor) - y0)
  }

  private static func rectJSON(_ r: Rect) -> String {
    "{\"x\":\(r.x),\"y\":\(r.y),\"width\":\(r.width),\"height\":\(r.height)}"
  }
}
