import CShim
import PatternCore
import Recording

/// `patternlock replay FILE [layout options]`: replays a `libinput record` capture
/// through the gesture tracker and prints one JSON line per finished gesture,
/// `{"dots":[1,2,3,6],"result":"complete"}`, in the order the fingers lifted.
///
/// The whole file is parsed and converted before the first line is printed, so a
/// damaged capture gives one error line and exit status 2, never half an output.
enum ReplayCommand {
  static func run(_ arguments: inout Arguments) {
    var layoutArguments = LayoutArguments()
    var path: String?
    var stateDirectory: String?
    while let argument = arguments.next() {
      let (name, inline) = Arguments.split(argument)
      if name == "--state-dir" {
        stateDirectory = arguments.value(for: name, inline: inline)
        continue
      }
      if layoutArguments.parse(name, inline: inline, from: &arguments) { continue }
      guard !argument.hasPrefix("-") || argument == "-" else {
        Console.fail("replay: unknown option '\(argument)' (try 'patternlock --help')")
      }
      guard path == nil else {
        Console.fail("replay: takes one recording file, not also '\(argument)' (try 'patternlock --help')")
      }
      path = argument
    }
    guard let path else {
      Console.fail("replay: no recording file given (usage: patternlock replay FILE [--size WxH] [--rotate DEG] [--grid N])")
    }
    let layout = layoutArguments.makeLayout()

    let events: [TouchEvent]
    do throws(RecordingError) {
      let recording = try Recording(contentsOf: path)
      events = try recording.touchEvents(transform: layout.transform)
    } catch {
      Console.error(error.message)
      pl_exit(exitStatus(for: error).rawValue)
    }

    if let stateDirectory {
      runPolicy(events, layout: layout, stateDirectory: stateDirectory)
      return
    }
    var tracker = GestureTracker(layout: layout)
    for event in events {
      guard let outcome = tracker.handle(event) else { continue }
      var line = JSONObjectWriter()
      line.add("dots", raw: outcome.dots.jsonArray)
      line.add("result", string: outcome.result.name)
      Console.out(line.json)
    }
  }

  /// Bad files are bad input (2); only a read failing part-way is the environment (1).
  static func exitStatus(for error: RecordingError) -> ExitStatus {
    if case .readFailed = error { return .failure }
    return .badInput
  }
}
