import CShim
import Configuration
import PatternCore
import Vault

/// `patternlock set-pattern [--state-dir DIR] [--grid N] [--min-dots N]
/// [--argon-passes N] [--argon-memory-mib N]`: reads `1-2-3-6-9` from standard input
/// (never argv, which every user can read) and stores its Argon2id hash.
///
/// For provisioning scripts; the on-screen `enroll` is the interactive way. Creates
/// the state directory (0700) when missing; an existing attempts file is kept.
enum SetPatternCommand {
  static let help = """
    set-pattern options (the pattern comes from standard input, such as: echo 1-2-3-6-9 | patternlock set-pattern):
    \(VaultCommandSupport.stateDirectoryHelp)
      --grid N          dots per side, 3 to 7 (default 3)
      --min-dots N      shorter patterns are refused now and not counted later (default 4)
      --argon-passes N  Argon2id passes (default \(HashCost.standard.passes))
      --argon-memory-mib N  Argon2id memory in MiB (default \(HashCost.standard.memoryBytes >> 20))
    """

  static func run(_ arguments: inout Arguments) {
    // Patterns are held in memory from here on (drawn, typed or replayed).
    VaultCommandSupport.protectSecretsInMemory()
    let settings = ConfiguredSettings.load(&arguments)
    var directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    var gridSize = settings.layout.gridSize
    var minimumDots = settings.minimumDots
    var passes = settings.argonPasses ?? HashCost.standard.passes
    var memoryMiB = settings.argonMemoryMiB ?? (HashCost.standard.memoryBytes >> 20)
    while let argument = arguments.next() {
      let (name, inline) = Arguments.split(argument)
      switch name {
      case "--state-dir": directoryPath = arguments.value(for: name, inline: inline)
      case "--grid": gridSize = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
      case "--min-dots": minimumDots = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
      case "--argon-passes": passes = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
      case "--argon-memory-mib": memoryMiB = OptionValue.integer(arguments.value(for: name, inline: inline), option: name)
      default:
        guard argument.hasPrefix("-") else { VaultCommandSupport.refusePatternArgument(command: "set-pattern") }
        Console.fail("set-pattern: unknown option '\(argument)' (try 'patternlock --help')")
      }
    }
    guard gridSize >= 3 && gridSize <= 7 else { Console.fail("set-pattern: --grid takes 3 to 7, not \(gridSize)") }
    guard minimumDots >= 1 && minimumDots <= gridSize * gridSize else {
      Console.fail("set-pattern: --min-dots takes 1 to \(gridSize * gridSize) for a \(gridSize)x\(gridSize) grid, not \(minimumDots)")
    }
    guard memoryMiB >= 1 && memoryMiB <= 4096 else { Console.fail("set-pattern: --argon-memory-mib takes 1 to 4096, not \(memoryMiB)") }

    do throws(VaultError) {
      let cost = try HashCost(passes: passes, memoryBytes: memoryMiB << 20)
      let text = try PatternText.readStandardInput()
      let dots = try PatternText.parse(text, gridSize: gridSize)
      guard dots.count >= minimumDots else { throw .patternTooShort(dots: dots.count, minimum: minimumDots) }
      let directory = try StateDirectory(opening: directoryPath, creating: true)
      let enrolled = try EnrolledPattern(dots: dots, gridSize: gridSize, minimumDots: minimumDots, cost: cost)
      try enrolled.save(to: directory)
      Console.out("pattern set in \(directory.path) (\(gridSize)x\(gridSize) grid, at least \(minimumDots) dots)")
    } catch {
      VaultCommandSupport.fail(error)
    }
  }
}
