extension PasswordRequest {
  /// Whether the request asks for a PIN, which the pattern may answer, and not for a
  /// passphrase or a recovery key, which it never may: a pattern as a passphrase falls to
  /// an offline search, while as a TPM's PIN every guess is one the TPM counts.
  ///
  /// systemd words its PIN requests "Please enter LUKS2 token PIN:" (a token plugin),
  /// "Please enter TPM2 PIN:" and "Please enter security token PIN:"; its passphrase
  /// requests "Please enter passphrase for disk …" and "… recovery key …".
  public var asksForPIN: Bool {
    var pin = false
    for word in message.utf8.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "\n") }) {
      if word.elementsEqual("PIN".utf8) { pin = true }
      // ASCII letters folded to lower case: systemd's messages are English.
      let folded = word.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
      for refused in ["passphrase", "password", "recovery"] where folded.elementsEqual(refused.utf8) { return false }
    }
    return pin
  }
}
