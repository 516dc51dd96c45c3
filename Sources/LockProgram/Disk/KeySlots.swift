/// A LUKS2 volume's key slots as `systemd-cryptenroll DEVICE` lists them:
///
///     SLOT TYPE
///        0 password
///        1 tpm2
///
/// The types are systemd's: `password`, `recovery`, `tpm2`, `fido2`, `pkcs11` (and
/// `other` for a slot systemd did not make and cannot tell).
package struct KeySlots: Equatable {
  package struct Slot: Equatable {
    package var number: Int
    package var type: String
  }

  package var slots: [Slot]

  /// The listing in `text`; nil when it is not one (the tool said something else).
  package init?(listing text: String) {
    var lines = text.split(separator: "\n").map { $0.split(separator: " ") }
    guard let header = lines.first, header.map(String.init) == ["SLOT", "TYPE"] else { return nil }
    lines.removeFirst()
    var slots: [Slot] = []
    for words in lines {
      guard words.count == 2, let number = Int(words[0]), number >= 0 else { return nil }
      slots.append(Slot(number: number, type: String(words[1])))
    }
    self.slots = slots
  }

  /// A slot the pattern is bound in: a TPM2 slot (sealed with a PIN or not: systemd's
  /// listing does not say, and only `disk enroll` makes one here).
  package var hasTPM: Bool { slots.contains { $0.type == "tpm2" } }

  /// A slot a keyboard opens: a passphrase or a recovery key, the way back in when the
  /// TPM refuses (its lockout, a changed PCR, the disk in another machine).
  package var hasKeyboardWayIn: Bool { slots.contains { $0.type == "password" || $0.type == "recovery" } }

  /// `{"slot":0,"type":"password"},...` for `disk status`.
  package var jsonArray: String {
    "[" + slots.map { "{\"slot\":\($0.number),\"type\":\"\($0.type)\"}" }.joined(separator: ",") + "]"
  }
}
