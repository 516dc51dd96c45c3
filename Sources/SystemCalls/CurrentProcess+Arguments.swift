import CShim

extension CurrentProcess {
  /// The process's arguments, the program's name first (`pl_argument`: Embedded
  /// Swift has no `CommandLine`).
  public static var arguments: [String] {
    var result: [String] = []
    var index: Int32 = 0
    while index < pl_argument_count(), let argument = pl_argument(index) {
      result.append(String(cString: argument))
      index += 1
    }
    return result
  }
}
