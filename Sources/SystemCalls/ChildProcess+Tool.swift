import CShim

extension ChildProcess {
  /// Starts a system tool as a command's helper: `arguments[0]` (an absolute path) with
  /// exactly `environment` (never this process's: a root command must not pass on what
  /// its caller set), standard input from /dev/null, standard output into `output`,
  /// standard error into `error`, and `secret` as the tool's descriptor 3 (`/dev/fd/3`),
  /// so a secret reaches it in a file in memory (a memfd), never on its command line.
  ///
  /// - Throws: posix_spawn(3)'s `Errno`.
  public static func spawnTool(
    _ arguments: [String], environment: [String], output: Int32, error: Int32, secret: Int32 = -1
  ) throws(Errno) -> ChildProcess {
    let pid = CStringArray.with(arguments) { argv in
      CStringArray.with(environment) { envp in pl_spawn_tool(argv, envp, output, error, secret) }
    }
    guard pid > 0 else { throw .current }
    return ChildProcess(id: ProcessID(rawValue: pid))
  }
}
