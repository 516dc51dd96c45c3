import Configuration
import SystemCalls
import Vault

/// What every program that may judge a pattern or write the audit log sets up before
/// its command runs (the lock, the session lock, the recordings' program).
package enum ProcessStart {
  package static func prepare() {
    // Sockets and pipes may lose their reader at any time (a judge's client, the
    // compositor, the event link, a pipe into `head`): an error the writer handles,
    // never the end of the process.
    CurrentProcess.ignoreBrokenPipes()
    // Credential hours and expiry are judged in the system's zone: the caller's TZ
    // (which sudo keeps) must not move them, so it is replaced before any time call.
    LocalTime.useSystemZone(root: ConfigurationFiles.rootFromEnvironment())
    // Each audit entry goes on to the event socket's reporter, one connection a line
    // (a running lock sends them on its own connection once it has one).
    EventFeed.carryAuditEntries()
  }
}
