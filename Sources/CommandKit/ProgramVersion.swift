/// The version every patternlock program prints (`--version`) and the reporter gives
/// Home Assistant; scripts/package-deb reads the package's version from this line.
package enum ProgramVersion {
  package static let text = "0.1.0"
}
