import PatternCore

/// What an unattended lock did by itself, as `replay` reports it: the timeout ran
/// out, or the power button was held long enough.
public enum UnattendedEvent: Sendable, Equatable {
  case timeout(TimeoutAction)
  case powerButton
}
