import CommandKit
import Configuration
import SystemCalls

/// `patternlock-mqtt`, which `patternlock mqtt` runs: the reporter as a program of its
/// own, so that only it loads libmosquitto and its TLS libraries, and it loads no
/// display, input, vault or TPM library.
@main
struct PatternlockReporter {
  static func main() {
    // The broker and the event socket's clients may go at any time: an error for
    // the writer, never the end of the reporter.
    CurrentProcess.ignoreBrokenPipes()
    CommandStart.runOnly(.mqtt) { (options) throws(ReporterFailure) -> ExitStatus in try MQTTCommand.run(options) }
  }
}
