/// Who made a TPM, as it says itself (TPM_PT_MANUFACTURER and the vendor strings), and
/// whether it is a program rather than a chip.
///
/// A software TPM (swtpm, the TCG reference simulator) keeps its state, the PIN index
/// and its count included, in a file beside the system: whoever copies the disk copies
/// the TPM, and can rewind its count as often as they like. Bound to one, a pattern is
/// no harder to guess offline than a hashed one, and `status` says so.
public struct TPMVendor: Equatable, Sendable {
  /// The manufacturer's four characters, trailing spaces dropped ("IBM", "IFX", "STM").
  public let manufacturer: String
  /// The vendor strings joined, trailing spaces dropped ("SW   TPM" for swtpm).
  public let vendorString: String

  public init(manufacturer: String, vendorString: String) {
    self.manufacturer = TPMVendor.trimmed(manufacturer)
    self.vendorString = TPMVendor.trimmed(vendorString)
  }

  /// Which software TPM this is, reached through `tcti`: "swtpm" or "simulator";
  /// nil for anything else (a chip, firmware, or a TPM this cannot tell).
  ///
  /// libtpms, which swtpm runs, reports the manufacturer "IBM" with the vendor strings
  /// "SW  " and " TPM", as IBM's own simulator does; no chip calls itself that. The
  /// TCTIs `swtpm:` and `mssim:` reach only simulators, whatever they report.
  public func softwareKind(tcti: String) -> String? {
    if tcti.hasPrefix("swtpm") { return "swtpm" }
    if tcti.hasPrefix("mssim") { return "simulator" }
    if manufacturer == "IBM" && vendorString.hasPrefix("SW") { return "swtpm" }
    return nil
  }

  /// What `status` says of a software TPM, from `softwareKind(tcti:)`.
  public static func warning(kind: String) -> String {
    "software TPM (\(kind)): its state is a file; copied with the disk it bounds nothing"
  }

  private static func trimmed(_ text: String) -> String {
    var characters = Array(text)
    while let last = characters.last, last == " " { characters.removeLast() }
    return String(characters)
  }
}
