import Foundation

/// The catalogue on disk: reads po/, writes or compares Sources/Scene/Catalogue.
public enum CatalogueFiles {
  /// Where the generated Swift goes, from the package root.
  public static let outputDirectory = "Sources/Scene/Catalogue"

  /// Compiles po/patternlock.pot and every po/*.po under `root`.
  public static func compile(packageRoot root: String) throws(CatalogueError) -> CatalogueSource {
    let po = root + "/po"
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: po).filter { $0.hasSuffix(".po") }.sorted()
    } catch {
      throw CatalogueError(path: po, "cannot list: \(error.localizedDescription)")
    }
    let template = try read(po + "/patternlock.pot")
    var translations: [POFile] = []
    for name in names { translations.append(try read(po + "/" + name)) }
    return try CatalogueSource(template: template, translations: translations)
  }

  static func read(_ path: String) throws(CatalogueError) -> POFile {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
      throw CatalogueError(path: path, "cannot read it as UTF-8")
    }
    return try POFile(path: path, text: text)
  }
}
