import PatternCore

/// The options every command that lays out a grid shares.
struct LayoutArguments {
  var options = LayoutOptions()

  /// Consumes one layout option if `name` is one; returns false otherwise.
  mutating func parse(_ name: String, inline: String?, from arguments: inout Arguments) -> Bool {
    switch name {
    case "--size":
      let size = OptionValue.size(arguments.value(for: name, inline: inline), option: name)
      options.panelWidth = size.width
      options.panelHeight = size.height
    case "--rotate":
      options.rotation = OptionValue.rotation(arguments.value(for: name, inline: inline), option: name)
    case "--grid":
      options.gridSize = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
    case "--dpi":
      options.dotsPerInch = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
    case "--hit-radius":
      options.hitRadiusPerMille = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
    default:
      return false
    }
    return true
  }

  /// The layout, or exit with a message naming the bad option.
  func makeLayout() -> GridLayout {
    do throws(LayoutError) {
      return try GridLayout(options)
    } catch {
      Console.fail(error.message)
    }
  }

  static let help = """
      --size WxH        panel size in pixels (default 800x480)
      --rotate DEG      0, 90, 180 or 270: the view turned clockwise on the panel
      --grid N          dots per side, 3 to 7 (default 3)
      --dpi D           pixels per inch, 50 to 1000 (default: scale with the panel)
      --hit-radius M    hit radius in thousandths of half a cell, 100 to 1000 (default 600)
    """
}
