import CommandKit
import Configuration
import PatternCore

/// `patternlock layout`: prints the computed layout as one JSON object.
package enum LayoutCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .layout)
      try parsed.refuseOperands(.layout)
      Console.out(try makeLayout(parsed.settings.layout).json)
      return .success
    } catch {
      throw .usage(error)
    }
  }

  /// The layout of options the table has checked one by one, which may still not fit
  /// together (a panel too small for the grid).
  package static func makeLayout(_ options: LayoutOptions) throws(UsageError) -> GridLayout {
    do throws(LayoutError) {
      return try GridLayout(options)
    } catch {
      throw UsageError(error.message)
    }
  }
}
