// swift-tools-version:6.0
// patternlock: a 3x3 pattern-unlock screen for embedded Linux (DRM/KMS, libinput).
//
// Modules import only those before them: PatternCore <- Raster <- Scene <- patternlock.
// Each C library is a system-library target found with pkg-config; modules that wrap
// one (Recording) are imported only by the executable. Embedded Swift emits no
// autolink entries, so every C library is also named in linkerSettings.
import PackageDescription

let package = Package(
  name: "patternlock",
  products: [
    .executable(name: "patternlock", targets: ["patternlock"]),
    .library(name: "PatternCore", targets: ["PatternCore"]),
  ],
  targets: [
    // Pure Swift: fixed-point maths, layout, gestures. No C, no I/O.
    .target(name: "PatternCore"),

    // Pure Swift software rasteriser: pixel formats, coverage, blending. No C.
    .target(name: "Raster", dependencies: ["PatternCore"]),

    // libc functions and macros that Swift cannot import directly, behind prefixed names.
    .target(name: "CShim"),

    // C libraries from Debian's -dev packages, found with pkg-config.
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),

    // libpng behind setjmp-safe C calls (Swift cannot survive libpng's longjmp).
    .target(
      name: "CPNGShim",
      dependencies: ["CPNG"],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    // Frame dumps as PNG files, PNG reading for golden tests, contact sheets.
    .target(
      name: "PNGImage",
      dependencies: ["Raster", "CPNGShim"],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    // FreeType glyphs rendered once at start-up into Raster's GlyphAtlas.
    .target(
      name: "Typeface",
      dependencies: ["Raster", "CFreeType", "CShim"],
      linkerSettings: [.linkedLibrary("freetype")]
    ),

    .executableTarget(
      name: "patternlock",
      dependencies: ["PatternCore", "CShim"]
    ),

    .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
    .testTarget(name: "PatternCoreTests", dependencies: ["PatternCore", "AllocationCounter"]),

    // Test support: golden-image comparison (Foundation allowed; never a product dependency).
    .target(name: "GoldenSupport", dependencies: ["PNGImage", "Raster"], path: "Tests/GoldenSupport"),
    .testTarget(name: "PNGImageTests", dependencies: ["PNGImage", "GoldenSupport", "Raster"]),
    .testTarget(name: "TypefaceTests", dependencies: ["Typeface", "Raster"]),
  ]
)
