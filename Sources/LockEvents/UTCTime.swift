/// Seconds since 1970 as UTC calendar time (`2026-12-02T20:55:26Z`) and back, without a
/// time-zone database: the audit log's times and `log --since`.
public enum UTCTime {
  /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since 1970 (UTC).
  public static func format(_ seconds: Int64) -> String {
    let days = floorDivide(seconds, 86_400)
    let inDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(inDay / 3600, 2) + ":"
      + digits(inDay / 60 % 60, 2) + ":" + digits(inDay % 60, 2) + "Z"
  }

  /// Seconds since 1970 for `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, read as UTC (a
  /// trailing `Z` is allowed); nil for anything else, an impossible date included.
  public static func parse(_ text: String) -> Int64? {
    var bytes = Array(text.utf8)
    if bytes.last == UInt8(ascii: "Z") { bytes.removeLast() }
    guard bytes.count == 16 || bytes.count == 19 else { return nil }
    let separators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":"))]
      + (bytes.count == 19 ? [(16, UInt8(ascii: ":"))] : [])
    for (index, byte) in separators where bytes[index] != byte { return nil }
    func number(_ from: Int, _ count: Int) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[from..<(from + count)] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2)
    else { return nil }
    let second = bytes.count == 19 ? number(17, 2) : 0
    guard let second, year >= 1970, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    return days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // The Gregorian calendar repeats every 400 years (146097 days); March-based years put
  // the leap day last.
  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  private static func digits(_ value: Int64, _ count: Int) -> String {
    var text = "\(value)"
    while text.utf8.count < count { text = "0" + text }
    return text
  }
}
