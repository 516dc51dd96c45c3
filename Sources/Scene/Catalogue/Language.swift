// Generated from po/patternlock.pot and po/*.po by `swift run patternlock-catalogue`:
// do not edit. CatalogueTests fails when this file is not what the .po files give.

/// A language of the lock screen: English (the template's msgids) and one per po/LANG.po.
public enum Language: CaseIterable, Sendable {
  /// English: the texts of po/patternlock.pot.
  case en
  /// po/de.po: German.
  case de
  /// po/zh_CN.po: Chinese (simplified).
  case zhCN

  /// The language's code, as `language =` and a locale name write it.
  public var code: String {
    switch self {
    case .en: return "en"
    case .de: return "de"
    case .zhCN: return "zh_CN"
    }
  }
}
