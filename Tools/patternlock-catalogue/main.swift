// Writes Sources/Scene/Catalogue from po/ (run from the package root, or pass it):
//   swift run patternlock-catalogue [PACKAGE_ROOT]
import CatalogueCompiler
import Foundation

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : FileManager.default.currentDirectoryPath
do {
  let source = try CatalogueFiles.compile(packageRoot: root)
  let directory = root + "/" + CatalogueFiles.outputDirectory
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  for file in source.files {
    try file.text.write(toFile: directory + "/" + file.name, atomically: true, encoding: .utf8)
  }
  for missing in source.untranslated { print("untranslated (shown in English): \(missing)") }
  print("patternlock-catalogue: wrote \(source.files.map(\.name).joined(separator: ", ")) in \(CatalogueFiles.outputDirectory)")
} catch {
  FileHandle.standardError.write(Data("patternlock-catalogue: \(error)\n".utf8))
  exit(1)
}
