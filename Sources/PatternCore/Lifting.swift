/// Runs `body` and throws its failure as `lift` turns it into the caller's own: the
/// one way a module or a command lifts another's typed error into the one it throws.
public func lifting<Value: ~Copyable, Failure: Error, Lifted: Error>(
  _ lift: (Failure) -> Lifted, _ body: () throws(Failure) -> Value
) throws(Lifted) -> Value {
  do throws(Failure) {
    return try body()
  } catch {
    throw lift(error)
  }
}
