import CShim
import SystemCalls

/// The GPIO chips of this system (`/dev/gpiochip*`), asked where a configured line is.
/// Looked up once, when the lock starts: chips do not come and go on a door panel,
/// and a line that is missing then is a configuration error said at once.
public enum GPIOChips {
  /// The chip devices in `directory`, in number order.
  public static func paths(in directory: String = "/dev") throws(GPIOError) -> [String] {
    let names: [String]
    do throws(Directory.ListingFailure) {
      names = try Directory.names(in: directory) { $0.hasPrefix("gpiochip") }
    } catch {
      throw .noChips(directory: directory)
    }
    let numbered = names.compactMap { name -> (Int, String)? in
      guard let number = Int(name.dropFirst("gpiochip".count)) else { return nil }
      return (number, directory + "/" + name)
    }
    guard !numbered.isEmpty else { throw .noChips(directory: directory) }
    return numbered.sorted { $0.0 < $1.0 }.map { $0.1 }
  }

  /// The chip device and offset `address` names.
  public static func locate(_ address: GPIOLineAddress, in directory: String = "/dev") throws(GPIOError) -> (chipPath: String, offset: UInt32) {
    switch address {
    case .chipPath(let path, let offset):
      let lines = try info(path).lines
      guard offset < lines else { throw .noSuchOffset(chip: path, offset: offset, lines: lines) }
      return (path, offset)
    case .chipLabel(let label, let offset):
      var labels: [String] = []
      for path in try paths(in: directory) {
        let chip = try info(path)
        if chip.label == label {
          guard offset < chip.lines else { throw .noSuchOffset(chip: label, offset: offset, lines: chip.lines) }
          return (path, offset)
        }
        labels.append(chip.label)
      }
      throw .noChipLabelled(label, labels: labels.joined(separator: ", "))
    case .named(let name):
      var found: [(String, UInt32)] = []
      var names: [String] = []
      for path in try paths(in: directory) {
        let chip = try info(path)
        var offset: UInt32 = 0
        while offset < chip.lines {
          let lineName = try self.name(path, offset)
          if lineName == name { found.append((path, offset)) } else if !lineName.isEmpty, names.count < 8 { names.append(lineName) }
          offset += 1
        }
      }
      if found.count == 1 { return found[0] }
      if found.isEmpty { throw .noLineNamed(name, names: names.joined(separator: ", ")) }
      throw .ambiguousName(name, places: found.map { "\($0.0):\($0.1)" }.joined(separator: ", "))
    }
  }

  private static func info(_ path: String) throws(GPIOError) -> (label: String, lines: UInt32) {
    var label = [CChar](repeating: 0, count: 64)
    var lines: UInt32 = 0
    let result = path.withCString { chip in
      label.withUnsafeMutableBufferPointer { pl_gpio_chip_info(chip, $0.baseAddress, $0.count, &lines) }
    }
    if result != 0 { throw .chip(path: path, Errno.current) }
    return (string(label), lines)
  }

  private static func name(_ path: String, _ offset: UInt32) throws(GPIOError) -> String {
    var name = [CChar](repeating: 0, count: 64)
    let result = path.withCString { chip in
      name.withUnsafeMutableBufferPointer { pl_gpio_line_name(chip, offset, $0.baseAddress, $0.count) }
    }
    if result != 0 { throw .chip(path: path, Errno.current) }
    return string(name)
  }

  private static func string(_ bytes: [CChar]) -> String {
    let end = bytes.firstIndex(of: 0) ?? bytes.count
    return String(decoding: bytes[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
