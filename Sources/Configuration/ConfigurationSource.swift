/// One configuration file as read: its name, its bytes, and whether it belongs to the
/// trusted system configuration.
struct ConfigurationSource {
  /// The file's path, for messages.
  let path: String
  /// Its whole contents, read from the descriptor that was checked.
  let bytes: [UInt8]
  /// Nil when the file is trusted system configuration; otherwise why not (it ends up
  /// in the message refusing a privileged key: "this file is owned by user 1000, ...").
  let distrust: String?
}
