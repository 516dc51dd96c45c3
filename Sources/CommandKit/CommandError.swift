import PatternCore

/// Why a command stopped before its work was done, as `main` reports it: the one line
/// to print (empty when it was already said) and the process's exit status.
package protocol CommandError: DescribedError {
  var status: Int32 { get }
}
