/// When in the week a credential may unlock: days and a daily time window in local
/// time, such as `Mon-Fri 08:00-18:00`. A window that ends before it starts runs past
/// midnight (`Fri-Sat 22:00-02:00` is Friday and Saturday nights, into the next
/// morning); the days name where the window starts.
///
/// Days are a day (`Mon`), a range (`Mon-Fri`, `Sat-Sun`, `Fri-Mon`), several joined
/// by commas (`Mon,Wed,Fri`), or `daily`. Stored and listed in the canonical form
/// this type writes back, which parses to the same hours.
public struct CredentialHours: Equatable, Sendable {
  static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  /// The form `--hours` takes, for messages.
  public static let accepted = "DAYS HH:MM-HH:MM, such as \"Mon-Fri 08:00-18:00\", \"Sat,Sun 10:00-14:00\" or \"daily 22:00-06:00\""

  /// Bit d set: the window starts on day d (0 Monday ... 6 Sunday).
  let days: UInt8
  /// Minutes after midnight: the window is [start, end), past midnight when end <= start.
  let startMinute: Int
  let endMinute: Int

  /// The hours `text` says; nil for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2, let days = CredentialHours.days(parts[0]) else { return nil }
    let times = parts[1].split(separator: "-", omittingEmptySubsequences: false)
    guard times.count == 2, let start = CredentialHours.minute(times[0]), let end = CredentialHours.minute(times[1]),
      start != end, start < 24 * 60
    else { return nil }
    self.days = days
    startMinute = start
    endMinute = end
  }

  /// The canonical text: the days as given bits (`Mon-Fri`, `Mon,Wed`), the window.
  public var text: String {
    var runs: [String] = []
    var day = 0
    if days == 0x7f {
      runs = ["daily"]
    } else {
      while day < 7 {
        guard days & (1 << day) != 0 else {
          day += 1
          continue
        }
        var last = day
        while last + 1 < 7, days & (1 << (last + 1)) != 0 { last += 1 }
        runs.append(last == day ? CredentialHours.dayNames[day] : CredentialHours.dayNames[day] + "-" + CredentialHours.dayNames[last])
        day = last + 1
      }
    }
    return runs.joined(separator: ",") + " " + CredentialHours.clock(startMinute) + "-" + CredentialHours.clock(endMinute)
  }

  /// Whether `local` (local seconds since 1970, as `LocalTime` gives) is within the hours.
  public func allows(local: Int64) -> Bool {
    let dayNumber = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    // 1970-01-01 was a Thursday (3 counting from Monday).
    let weekday = Int((dayNumber % 7 + 7 + 3) % 7)
    let minute = Int((local - dayNumber * 86_400) / 60)
    let yesterday = (weekday + 6) % 7
    if startMinute < endMinute {
      return days & (1 << weekday) != 0 && minute >= startMinute && minute < endMinute
    }
    // Past midnight: the evening part today, or the morning part of a window begun yesterday.
    return (days & (1 << weekday) != 0 && minute >= startMinute) || (days & (1 << yesterday) != 0 && minute < endMinute)
  }

  private static func days(_ text: Substring) -> UInt8? {
    if text == "daily" { return 0x7f }
    var bits: UInt8 = 0
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let ends = item.split(separator: "-", omittingEmptySubsequences: false)
      guard ends.count == 1 || ends.count == 2, let first = dayNames.firstIndex(of: String(ends[0])),
        let last = dayNames.firstIndex(of: String(ends[ends.count - 1]))
      else { return nil }
      var day = first
      while true {
        bits |= 1 << day
        if day == last { break }
        day = (day + 1) % 7
      }
    }
    return bits
  }

  private static func minute(_ text: Substring) -> Int? {
    let bytes = Array(text.utf8)
    guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
    var digits: [Int] = []
    for index in [0, 1, 3, 4] {
      guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
      digits.append(Int(bytes[index] - UInt8(ascii: "0")))
    }
    let hour = digits[0] * 10 + digits[1]
    let minute = digits[2] * 10 + digits[3]
    // 24:00 ends a window at midnight.
    guard (hour < 24 && minute < 60) || (hour == 24 && minute == 0) else { return nil }
    return hour * 60 + minute
  }

  private static func clock(_ minute: Int) -> String {
    let hour = minute / 60
    let rest = minute % 60
    return (hour < 10 ? "0" : "") + "\(hour):" + (rest < 10 ? "0" : "") + "\(rest)"
  }
}
