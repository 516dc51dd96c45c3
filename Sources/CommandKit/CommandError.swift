import PatternCore

/// Why a command stopped before its work was done, as `main` reports it: the one line
/// to print (empty when it was already said) and the process's exit status.
package protocol CommandError: DescribedError {
  var status: Int32 { get }
}

/// Runs `body` and throws its failure as `lift` turns it into the caller's own: the
/// one way a command lifts a module's typed error into the error it throws.
package func lifting<Value: ~Copyable, Failure: Error, Lifted: Error>(
  _ lift: (Failure) -> Lifted, _ body: () throws(Failure) -> Value
) throws(Lifted) -> Value {
  do throws(Failure) {
    return try body()
  } catch {
    throw lift(error)
  }
}
