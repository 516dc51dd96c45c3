/// A .po header's `plural=` expression (C syntax over `n`), parsed so that it can be
/// written out as Swift and evaluated here to check it.
///
/// C's values are integers, comparisons and logic give 0 or 1, and `?:` tests for
/// non-zero; the Swift written keeps those meanings with every value an `Int`.
public indirect enum PluralExpression: Equatable, Sendable {
  case n
  case number(Int)
  case not(PluralExpression)
  case binary(String, PluralExpression, PluralExpression)
  case choice(PluralExpression, PluralExpression, PluralExpression)

  /// Parses `(n != 1)`, `0`, `n%10==1 && n%100!=11 ? 0 : 1` and the like.
  public init(parsing text: String) throws(CatalogueError) {
    var parser = Parser(tokens: try Parser.tokens(text, source: text))
    self = try parser.choice()
    guard parser.position == parser.tokens.count else { throw CatalogueError(path: "plural=", "unexpected '\(parser.tokens[parser.position])' in '\(text)'") }
  }

  /// The value for a count (what gettext computes).
  public func evaluate(_ count: Int) -> Int {
    switch self {
    case .n: return count
    case .number(let v): return v
    case .not(let e): return e.evaluate(count) == 0 ? 1 : 0
    case .choice(let c, let a, let b): return c.evaluate(count) != 0 ? a.evaluate(count) : b.evaluate(count)
    case .binary(let op, let l, let r):
      let a = l.evaluate(count)
      if op == "&&" { return a != 0 && r.evaluate(count) != 0 ? 1 : 0 }
      if op == "||" { return a != 0 || r.evaluate(count) != 0 ? 1 : 0 }
      let b = r.evaluate(count)
      switch op {
      case "==": return a == b ? 1 : 0
      case "!=": return a != b ? 1 : 0
      case "<": return a < b ? 1 : 0
      case "<=": return a <= b ? 1 : 0
      case ">": return a > b ? 1 : 0
      case ">=": return a >= b ? 1 : 0
      case "+": return a + b
      case "-": return a - b
      case "*": return a * b
      case "/": return b == 0 ? 0 : a / b
      default: return b == 0 ? 0 : a % b
      }
    }
  }

  /// The expression as Swift over an `Int` named `n`, itself an `Int`.
  public var swift: String {
    switch self {
    case .n: return "n"
    case .number(let v): return String(v)
    case .not(let e): return "(\(e.swift) == 0 ? 1 : 0)"
    case .choice(let c, let a, let b): return "(\(c.swift) != 0 ? \(a.swift) : \(b.swift))"
    case .binary(let op, let l, let r):
      switch op {
      case "&&", "||": return "(\(l.swift) != 0 \(op) \(r.swift) != 0 ? 1 : 0)"
      case "==", "!=", "<", "<=", ">", ">=": return "(\(l.swift) \(op) \(r.swift) ? 1 : 0)"
      default: return "(\(l.swift) \(op) \(r.swift))"
      }
    }
  }

  private struct Parser {
    let tokens: [String]
    var position = 0

    static func tokens(_ text: String, source: String) throws(CatalogueError) -> [String] {
      var tokens: [String] = []
      let chars = Array(text)
      var i = 0
      while i < chars.count {
        let c = chars[i]
        if c == " " { i += 1; continue }
        if c.isNumber {
          var j = i
          while j < chars.count && chars[j].isNumber { j += 1 }
          tokens.append(String(chars[i..<j]))
          i = j
          continue
        }
        let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
        if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
          tokens.append(two)
          i += 2
          continue
        }
        guard "n()!<>+-*/%?:".contains(c) else { throw CatalogueError(path: "plural=", "unexpected '\(c)' in '\(source)'") }
        tokens.append(String(c))
        i += 1
      }
      return tokens
    }

    var next: String? { position < tokens.count ? tokens[position] : nil }

    mutating func take(_ token: String) throws(CatalogueError) {
      guard next == token else { throw CatalogueError(path: "plural=", "expected '\(token)' at token \(position + 1) of '\(tokens.joined(separator: " "))'") }
      position += 1
    }

    mutating func choice() throws(CatalogueError) -> PluralExpression {
      let condition = try binary(level: 0)
      guard next == "?" else { return condition }
      position += 1
      let yes = try choice()
      try take(":")
      return .choice(condition, yes, try choice())
    }

    static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    mutating func binary(level: Int) throws(CatalogueError) -> PluralExpression {
      guard level < Parser.levels.count else { return try unary() }
      var left = try binary(level: level + 1)
      while let op = next, Parser.levels[level].contains(op) {
        position += 1
        left = .binary(op, left, try binary(level: level + 1))
      }
      return left
    }

    mutating func unary() throws(CatalogueError) -> PluralExpression {
      guard let token = next else { throw CatalogueError(path: "plural=", "the expression ends too soon") }
      position += 1
      if token == "!" { return .not(try unary()) }
      if token == "n" { return .n }
      if token == "(" {
        let inner = try choice()
        try take(")")
        return inner
      }
      guard let value = Int(token) else { throw CatalogueError(path: "plural=", "unexpected '\(token)'") }
      return .number(value)
    }
  }
}
