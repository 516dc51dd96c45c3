import PatternCore

/// `patternlock layout`: prints the computed layout as one JSON object.
enum LayoutCommand {
  static func run(_ arguments: inout Arguments) {
    var layout = LayoutArguments()
    while let argument = arguments.next() {
      let (name, inline) = Arguments.split(argument)
      guard layout.parse(name, inline: inline, from: &arguments) else {
        Console.fail("layout: unknown option '\(argument)' (try 'patternlock --help')")
      }
    }
    Console.out(layout.makeLayout().json)
  }
}
