/// Argon2id's inputs besides the pattern: salt, cost and output length. The software
/// vault keeps them in its `$argon2id$` string beside the tag; a TPM-bound pattern keeps
/// only these, since its output is the TPM index's authValue and must not be on disk.
struct Argon2idSetting: Equatable {
  let memoryKiB: Int
  let passes: Int
  let salt: [UInt8]
  let outputLength: Int
}
