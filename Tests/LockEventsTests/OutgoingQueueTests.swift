@testable import LockEvents
import XCTest

/// The queue that keeps `patternlock mqtt`'s messages until the broker acknowledges them.
final class OutgoingQueueTests: XCTestCase {
  func message(_ n: Int) -> OutgoingMessage { OutgoingMessage(topic: "t", payload: "\(n)", retain: false) }

  func testMessagesGoInOrderAndStayUntilAcknowledged() {
    var queue = OutgoingQueue(capacity: 10)
    for n in 1...3 { queue.append(message(n)) }
    XCTAssertEqual(queue.next, message(1))
    queue.sent(id: 11)
    XCTAssertEqual(queue.next, message(2))
    queue.sent(id: 12)
    XCTAssertEqual(queue.count, 3)
    queue.acknowledged(12)
    queue.acknowledged(99)
    XCTAssertEqual(queue.count, 2)
    queue.acknowledged(11)
    XCTAssertEqual(queue.count, 1)
    XCTAssertEqual(queue.next, message(3))
  }

  func testALostConnectionSendsWhatWasInFlightAgainFirst() {
    var queue = OutgoingQueue(capacity: 10)
    for n in 1...4 { queue.append(message(n)) }
    queue.sent(id: 1)
    queue.sent(id: 2)
    queue.acknowledged(1)
    queue.requeueAll()
    var order: [OutgoingMessage] = []
    var id: Int32 = 10
    while let next = queue.next {
      order.append(next)
      queue.sent(id: id)
      id += 1
    }
    XCTAssertEqual(order, [message(2), message(3), message(4)])
  }

  func testAFullQueueDropsTheOldestAndCountsThem() {
    var queue = OutgoingQueue(capacity: 3)
    for n in 1...5 { queue.append(message(n)) }
    XCTAssertEqual(queue.count, 3)
    XCTAssertEqual(queue.next, message(3))
    XCTAssertEqual(queue.takeDropped(), 2)
    XCTAssertEqual(queue.takeDropped(), 0)
  }

  func testTheWaitDoublesToAMinuteAndStartsAgainAfterASuccess() {
    var backoff = ReconnectBackoff()
    XCTAssertEqual((0..<8).map { _ in backoff.failed() }, [1, 2, 4, 8, 16, 32, 60, 60])
    backoff.succeeded()
    XCTAssertEqual(backoff.failed(), 1)
  }
}
