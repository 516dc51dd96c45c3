import CShim

/// A user of the system's user database: what a program started as that user runs as.
public struct UserAccount: Hashable, Sendable {
  public var user: UserID
  /// The user's primary group.
  public var group: GroupID

  public init(user: UserID, group: GroupID) {
    self.user = user
    self.group = group
  }

  /// The user called `name` (`pl_user_ids`, getpwnam(3)).
  ///
  /// - Returns: the user, or nil when there is none of that name.
  /// - Throws: the `Errno` of reading the database.
  public static func named(_ name: String) throws(Errno) -> UserAccount? {
    var user: UInt32 = 0
    var group: UInt32 = 0
    guard name.withCString({ pl_user_ids($0, &user, &group) }) == 0 else {
      let error = Errno.current
      // getpwnam(3) leaves errno 0 when it read the database and found no such user.
      if error.rawValue == 0 { return nil }
      throw error
    }
    return UserAccount(user: UserID(rawValue: user), group: GroupID(rawValue: group))
  }
}
