import SystemCalls

/// One user's judgement, waiting or running, held by the process that judges it: the
/// byte at the user's uid in the state directory's `judging` file, record-locked. A
/// second judgement for the same user finds the byte taken and is refused at once, so
/// one member of the judge socket's group can never hold more than one judge (and its
/// locked memory) or keep everyone else's waiting. Released when this value goes, or
/// when the process ends however it ends.
public struct JudgementClaim: ~Copyable {
  /// The `judging` file; closing it, when this value goes, drops the record lock.
  private let file: FileDescriptor

  init(file: consuming FileDescriptor) { self.file = file }

  /// Releases the claim now (rather than wherever the compiler ends this value's life).
  public consuming func release() {}
}
