extension CurrentProcess {
  /// The absolute path of the program this process runs, as the kernel knows it
  /// (`/proc/self/exe`): not argv[0], which whoever starts the process chooses.
  ///
  /// - Throws: readlink(2)'s `Errno`; `ENAMETOOLONG` for a path over 4095 bytes.
  public static func executablePath() throws(Errno) -> String {
    try FileLink.target(of: "/proc/self/exe")
  }
}
