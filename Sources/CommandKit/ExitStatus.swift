/// What the process's exit status means.
package enum ExitStatus: Int32 {
  /// Done as asked.
  case success = 0
  /// A failure of the environment (device, file system) at run time.
  case failure = 1
  /// Bad input: a command line, a file or a recording that cannot be used.
  case badInput = 2
}
