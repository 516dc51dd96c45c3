/// An error that carries its own one-line message for the user: what was wrong and
/// what to do.
///
/// Generic code that only passes errors up (the event loop over any display and any
/// input source) constrains its error types to this, so `main` can print them without
/// knowing which back-end failed, and the error stays typed until then.
public protocol DescribedError: Error {
  var message: String { get }
}
