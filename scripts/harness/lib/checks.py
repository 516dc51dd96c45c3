"""Failed checks, skipped steps and the counters the harnesses print."""


class Failure(Exception):
    """A check failed; the message says which and why."""


class Skip(Exception):
    """A check that the steps after it build on failed (and was counted): they are skipped."""


def expect(condition, message):
    """For one-line checks: a Failure with `message` unless `condition` holds."""
    if not condition:
        raise Failure(message)


def expect_status(status, want):
    """For checks of a command's exit status."""
    expect(status == want, f"exit status {status}")


class Checks:
    """Counts and prints checks: "ok   NAME[: detail]" or "FAIL NAME: why"."""

    def __init__(self):
        self.passed = self.failed = 0

    def ok(self, message):
        self.passed += 1
        print("ok   " + message, flush=True)

    def fail(self, message):
        self.failed += 1
        print("FAIL " + message, flush=True)

    def check(self, name, body):
        """Runs one check; a Failure fails it and the test goes on."""
        try:
            detail = body()
            self.ok(name + (f": {detail}" if detail else ""))
            return True
        except Failure as failure:
            self.fail(f"{name}: {failure}")
            return False

    def require(self, name, body):
        """A check that the steps after it build on: when it fails, they are skipped."""
        if not self.check(name, body):
            raise Skip(name)
