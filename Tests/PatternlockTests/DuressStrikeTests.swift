@testable import LockProgram
import Vault
import XCTest

/// Whether an unlock releases the door strike: always, but a duress credential's only
/// with duress-opens = yes.
final class DuressStrikeTests: XCTestCase {
  func testOnlyADuressCredentialCanLeaveTheDoorShut() {
    let duress = JudgedCredential(name: "panic", role: .duress)
    XCTAssertTrue(UnlockActions.opensStrike(after: duress, duressOpens: true))
    XCTAssertFalse(UnlockActions.opensStrike(after: duress, duressOpens: false))
    for role in [CredentialRole.admin, .user, .guest] {
      XCTAssertTrue(UnlockActions.opensStrike(after: JudgedCredential(name: "x", role: role), duressOpens: false), role.rawValue)
    }
    XCTAssertTrue(UnlockActions.opensStrike(after: .owner, duressOpens: false))
  }
}
