// swift-tools-version:6.0
// patternlock: a 3x3 pattern-unlock screen for embedded Linux (DRM/KMS, libinput).
//
// Modules import only those below them: PatternCore <- Raster <- Scene <- Screen, the
// pure core (PatternChoice beside it); SystemCalls over CShim; one module per C library
// or device (KMS, Input, Vault, Configuration, ...), which use each other only along the
// sideways edges docs/architecture.md names (Vault -> TPM, Vault -> Systemd,
// Configuration -> GPIO); the executable patternlock on top of them all.
// Each C library is a system-library target found with pkg-config. Embedded Swift emits
// no autolink entries, so every C library is also named in linkerSettings.
import PackageDescription

// What the lock links (Embedded Swift names each C library itself); the session lock
// adds Wayland's, the recordings' program libyaml's and libpng's, and the reporter links
// none of these but inih and mosquitto. Not tpm2-tss: CTPMShim opens it at the first TPM
// call (see there), as ESAPI brings libcrypto, whose loading every start paid for.
// libm: Embedded Swift's Dictionary growth calls ceil.
let lockLibraries: [LinkerSetting] = [
  .linkedLibrary("drm"), .linkedLibrary("input"), .linkedLibrary("udev"), .linkedLibrary("m"), .linkedLibrary("freetype"),
  .linkedLibrary("sodium"), .linkedLibrary("inih"),
]

let package = Package(
  name: "patternlock",
  products: [
    .executable(name: "patternlock", targets: ["patternlock"]),
    .executable(name: "patternlock-session-lock", targets: ["patternlock-session-lock"]),
    .executable(name: "patternlock-recording", targets: ["patternlock-recording"]),
    .executable(name: "patternlock-mqtt", targets: ["patternlock-mqtt"]),
    .library(name: "PatternCore", targets: ["PatternCore"]),
  ],
  targets: [
    // Pure Swift: fixed-point maths, layout, gestures. No C, no I/O.
    .target(name: "PatternCore"),

    // How people choose patterns: the attacker's order, the enrolment blocklist and
    // the guess estimate. Pure Swift.
    .target(name: "PatternChoice", dependencies: ["PatternCore"]),

    // The lock's events as lines: the audit entry as the log stores it, the running
    // lock's state line, and the reporter's pure logic (Home Assistant's discovery and
    // messages, the outgoing queue, the reconnect back-off, remote commands). Pure Swift.
    .target(name: "LockEvents", dependencies: ["PatternCore"]),

    // Pure Swift software rasteriser: pixel formats, coverage, blending, and the damage
    // copy every display back-end shares. No C.
    .target(name: "Raster", dependencies: ["PatternCore"]),

    // The lock screen: gesture state to drawing and damage. Pure Swift.
    .target(name: "Scene", dependencies: ["PatternCore", "Raster"]),

    // The lock screen as a whole: state, drawing and rotation stepped by input and
    // time, behind the Display and InputSource seams. Knows no DRM, no libinput.
    .target(name: "Screen", dependencies: ["PatternCore", "Raster", "Scene"]),

    // The system-call layer over CShim: errno as a type, the EINTR-retrying call helper,
    // owned file descriptors, whole-file reads and directory listings; poll sets, signal
    // and timer descriptors; the clocks; this process (arguments, environment, users,
    // exit, exec, memory protections); child processes started, detached or waited for.
    .target(name: "SystemCalls", dependencies: ["CShim"]),

    // libc functions and macros that Swift cannot import directly, behind prefixed names.
    .target(name: "CShim"),

    // C libraries from Debian's -dev packages, found with pkg-config.
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
    .systemLibrary(name: "CInput", pkgConfig: "libinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(name: "CINIH", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
    .systemLibrary(name: "CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
    .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
    .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

    // libpng behind setjmp-safe C calls (Swift cannot survive libpng's longjmp).
    .target(
      name: "CPNGShim",
      dependencies: ["CPNG"],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    // Frame dumps as PNG files, PNG reading for golden tests, contact sheets.
    .target(
      name: "PNGImage",
      dependencies: ["Raster", "CPNGShim", "SystemCalls"],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    // FreeType glyphs rendered once at start-up into Raster's GlyphAtlas.
    .target(
      name: "Typeface",
      dependencies: ["Raster", "CFreeType", "SystemCalls"],
      linkerSettings: [.linkedLibrary("freetype")]
    ),

    // Reads `libinput record` YAML captures (libyaml's event parser) into evdev rows and
    // converts them to TouchEvents, so gestures can be replayed without a touchscreen.
    .target(
      name: "Recording",
      dependencies: ["PatternCore", "CYAML", "SystemCalls"],
      // libm: Embedded Swift's Dictionary growth calls ceil (device codes and absinfo).
      linkerSettings: [.linkedLibrary("yaml"), .linkedLibrary("m")]
    ),

    // DRM/KMS modesetting over libdrm: card and connector choice, dumb buffers, page flips
    // (damage copied into them with Raster's DamageCopy), and the lock screen's panel on
    // them behind Screen's Display (its output's comings and goings watched through
    // Screen's OutputWatch, which the program fills with udev's events).
    .target(
      name: "KMS",
      dependencies: ["PatternCore", "Raster", "Screen", "CDRM", "CShim", "SystemCalls"],
      linkerSettings: [.linkedLibrary("drm")]
    ),
    // The fbdev display back-end (/dev/fbN, for boards without a DRM driver), a peer of
    // KMS: each display back-end is a module of its own behind Screen's Display.
    .target(name: "FBDev", dependencies: ["PatternCore", "Raster", "Screen", "CShim", "SystemCalls"]),
    // The Wayland listeners of the session lock in C (events copied into a fixed ring
    // that Swift drains) and the protocols' code wayland-scanner wrote from
    // wayland-protocols' XML (checked in: scripts/wayland-protocols).
    .target(
      name: "CWaylandShim",
      dependencies: ["CWayland", "CXKBCommon"],
      linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]
    ),
    // The ext-session-lock-v1 display and input back-end (`session-lock`), a peer of KMS
    // and FBDev: one lock surface per output, shared-memory frames, the seat's input.
    .target(
      name: "Wayland",
      dependencies: ["PatternCore", "Raster", "Scene", "Screen", "CWayland", "CWaylandShim", "SystemCalls"],
      linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]
    ),
    // libmosquitto driven from the caller's poll loop, its callbacks copied into a ring
    // (no C callback into Swift); and the typed MQTT client over it (`patternlock mqtt`).
    .target(name: "CMosquittoShim", dependencies: ["CMosquitto"], linkerSettings: [.linkedLibrary("mosquitto")]),
    .target(name: "MQTT", dependencies: ["CMosquittoShim", "SystemCalls"], linkerSettings: [.linkedLibrary("mosquitto")]),
    // A panel's backlight through sysfs, and the panel whose blanking switches it off
    // instead of the display (BacklitPanel, over Screen's PanelDisplay).
    .target(name: "Backlight", dependencies: ["PatternCore", "Raster", "Scene", "Screen", "SystemCalls"]),
    // The virtual terminals: VT numbers, switching, and the console's display and
    // keyboard modes (the lock's own VT, the kiosk's).
    .target(name: "Terminal", dependencies: ["CShim", "SystemCalls"]),
    // A GPIO chip's lines through the kernel's character device (the door strike out,
    // the door contact and exit button in).
    .target(name: "GPIO", dependencies: ["CShim", "SystemCalls"]),
    // systemd spoken directly (no libsystemd): sd_notify's socket, the watchdog's
    // variables, the journal's stream socket.
    .target(name: "Systemd", dependencies: ["PatternCore", "CShim", "SystemCalls"]),
    // libinput (touch, pointers, keys) and libudev (display hotplug), plus uinput devices.
    .target(
      name: "Input",
      dependencies: ["PatternCore", "CInput", "CShim", "SystemCalls"],
      linkerSettings: [.linkedLibrary("input"), .linkedLibrary("udev")]
    ),
    // tpm2-tss's ESAPI command sequences for a TPM-bound pattern (PIN Fail index, sealed
    // secret, recovery object, salted sessions), in C because ESAPI's TPM2B structures
    // are tuples in Swift; and their typed Swift wrapper.
    // tpm2-tss (ESAPI, the TCTI loader, response-code text; libtss2-dev's headers in
    // /usr/include) is not linked: CTPMShim opens it with dlopen at the first TPM call,
    // since ESAPI brings libcrypto and most locks never use a TPM. No system-library
    // target either: pkg-config's tss2-esys would add -ltss2-esys to every program.
    // dlopen is in glibc's libc since 2.34 (Debian 12 has 2.36), so no libdl. Not
    // libtss2-mu: CTPMShim writes the saved objects' wire form itself, as that library's
    // structures changed size under one soname.
    .target(name: "CTPMShim"),
    .target(name: "TPM", dependencies: ["CTPMShim"]),

    // The secret store over libsodium: Argon2id pattern hash, attempts file, crash-safe
    // writes in a 0700 state directory, fail-closed loading, and the one judging path
    // (UnlockSession.judge). Policy maths is PatternCore's; the enrolment guard's list is
    // PatternChoice's; a TPM-bound pattern is judged through TPM; the audit log sends
    // each entry to the journal too (Systemd).
    .target(
      name: "Vault",
      dependencies: ["PatternCore", "PatternChoice", "LockEvents", "CSodium", "CShim", "SystemCalls", "TPM", "Systemd"],
      linkerSettings: [.linkedLibrary("sodium")]
    ),

    // The settings table: patternlock.conf (INI files read with libinih, layered:
    // /usr/share, /etc, conf.d, --config) and every command's options, parsed into one
    // Settings value; the options override the files. Raster for the pixel format names and
    // colours, Scene for the theme presets.
    .target(
      name: "Configuration",
      dependencies: ["PatternCore", "PatternChoice", "Raster", "Scene", "CINIH", "CShim", "SystemCalls", "GPIO"],
      linkerSettings: [.linkedLibrary("inih")]
    ),

    // What every patternlock program starts and ends with: the command line read
    // against the settings table, console output, exit statuses, a failure reported
    // once, the version and the event socket's path.
    .target(name: "CommandKit", dependencies: ["PatternCore", "Configuration", "SystemCalls"]),

    // The lock and its commands (run, check, judge, replay, the vault's and the
    // door's), the event loop and the display back-end choice: everything the
    // programs share but Wayland and MQTT.
    .target(
      name: "LockProgram",
      dependencies: ["CommandKit", "PatternCore", "PatternChoice", "LockEvents", "Raster", "Scene", "Screen", "CShim", "SystemCalls", "Typeface", "Vault", "KMS", "FBDev", "Backlight", "Input", "Configuration", "TPM", "GPIO", "Systemd", "Terminal"],
      linkerSettings: lockLibraries
    ),

    // The programs, each linking only what it uses: the lock and its commands; the
    // Wayland session lock (`patternlock session-lock` runs it); recordings replayed and
    // injected (`patternlock replay`, `patternlock inject`); the MQTT reporter
    // (`patternlock mqtt` runs it), which loads no display, input, vault or TPM library.
    .executableTarget(name: "patternlock", dependencies: ["CommandKit", "LockProgram", "Configuration", "SystemCalls", "Vault"], linkerSettings: lockLibraries),
    .executableTarget(
      name: "patternlock-session-lock",
      dependencies: ["CommandKit", "LockProgram", "Wayland", "Configuration", "PatternCore", "Raster", "Scene", "Screen", "SystemCalls", "Typeface", "Vault"],
      linkerSettings: lockLibraries + [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]
    ),
    .executableTarget(
      name: "patternlock-recording",
      dependencies: ["CommandKit", "LockProgram", "Recording", "PNGImage", "Configuration", "Input", "PatternCore", "Raster", "Scene", "Screen", "SystemCalls", "Typeface", "Vault"],
      linkerSettings: lockLibraries + [.linkedLibrary("yaml"), .linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    .executableTarget(
      name: "patternlock-mqtt",
      dependencies: ["CommandKit", "Configuration", "LockEvents", "MQTT", "PatternCore", "SystemCalls"],
      linkerSettings: [.linkedLibrary("inih"), .linkedLibrary("mosquitto"), .linkedLibrary("m")]
    ),

    // The message catalogue's compiler: po/*.po to the Swift tables in Sources/Scene/Catalogue
    // (`swift run patternlock-catalogue`). A development tool: never a product, never built
    // as Embedded Swift; CatalogueTests checks the tables against the .po files with it.
    .target(name: "CatalogueCompiler", path: "Tools/CatalogueCompiler"),
    .executableTarget(name: "patternlock-catalogue", dependencies: ["CatalogueCompiler"], path: "Tools/patternlock-catalogue"),

    // Test support: counts heap allocations so tests can prove hot paths make none.
    .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
    // Test support: runs the built patternlock binary, finds the package root and the
    // shipped captures, makes temporary directories (Foundation and XCTest allowed;
    // never a product dependency, never built as Embedded Swift).
    .target(name: "CommandTestSupport", dependencies: ["CShim"], path: "Tests/CommandTestSupport"),

    // The rendering benchmark (scripts/bench): not a product, never built as Embedded
    // Swift; it links AllocationCounter to report allocations per frame.
    .executableTarget(
      name: "patternlock-bench",
      dependencies: ["Scene", "Raster", "PatternCore", "CShim", "SystemCalls", "AllocationCounter", "PNGImage"],
      path: "Benchmarks/patternlock-bench",
      // libm: Double rounding in the report and the finger path's set-up.
      linkerSettings: [.linkedLibrary("m")]
    ),

    // Test support: the in-memory display back-end and a recording played onto it.
    .target(name: "ScreenTestSupport", dependencies: ["Screen", "Scene", "Raster", "PatternCore"], path: "Tests/ScreenTestSupport"),
    // Scene: golden frames of shipped captures, damage-equals-full-redraw, allocation counts.
    .testTarget(
      name: "SceneTests",
      dependencies: ["Scene", "Screen", "ScreenTestSupport", "Raster", "PatternCore", "Recording", "Typeface", "GoldenSupport", "AllocationCounter", "CommandTestSupport"]
    ),
    // The executable's own parts (the live lock screen over a headless display).
    .testTarget(
      name: "PatternlockTests",
      dependencies: ["LockProgram", "CommandKit", "CShim", "SystemCalls", "Input", "PatternCore", "Raster", "Recording", "Scene", "Screen", "ScreenTestSupport", "AllocationCounter", "CommandTestSupport", "Typeface", "Configuration", "FBDev", "Vault", "VaultTestSupport", "PatternChoice", "LockEvents"]
    ),
    .testTarget(name: "PatternCoreTests", dependencies: ["PatternCore", "AllocationCounter"]),
    .testTarget(name: "PatternChoiceTests", dependencies: ["PatternChoice", "PatternCore", "CommandTestSupport"]),
    // Screen: the lock screen stepped and presented over memory displays (idle blanking,
    // the live driver's rules).
    .testTarget(
      name: "ScreenTests",
      dependencies: ["Screen", "Scene", "Raster", "PatternCore", "ScreenTestSupport", "Recording", "CommandTestSupport", "AllocationCounter"]
    ),
    // SystemCalls: descriptors closed once, EINTR retried, whole-file limits, listings,
    // the loop's poll, signal and timer descriptors (allocation-free), this process and
    // its children.
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "CShim", "CommandTestSupport", "AllocationCounter"]),
    // Terminal: what runs without a VT (typed errors on a descriptor that is none).
    .testTarget(name: "GPIOTests", dependencies: ["GPIO"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal", "SystemCalls"]),
    // Systemd: the notify socket and the watchdog's variables.
    .testTarget(name: "SystemdTests", dependencies: ["Systemd", "SystemCalls", "CommandTestSupport"]),
    // Recording: converter and parser unit tests, plus ReplayCommandTests, which run the
    // built patternlock binary on Tests/Captures.
    .testTarget(name: "RecordingTests", dependencies: ["Recording", "PatternCore", "PNGImage", "SystemCalls", "CommandTestSupport"]),
    // KMS and Input: everything that runs without a display or touchscreen (parsing,
    // damage copies, key mapping), libinput on a uinput device where /dev/uinput
    // exists, and `patternlock run` without DRM.
    .testTarget(name: "KMSTests", dependencies: ["KMS", "PatternCore", "Raster", "CommandTestSupport"]),
    .testTarget(name: "InputTests", dependencies: ["Input", "PatternCore"]),
    .testTarget(
      name: "BacklightTests",
      dependencies: ["Backlight", "Screen", "ScreenTestSupport", "Scene", "Raster", "PatternCore", "CommandTestSupport", "AllocationCounter"]),
    // Wayland: the seat's events as input, the buffers' damage, the listeners' ring,
    // the checked-in protocol code against wayland-scanner (scripts/test-wayland runs
    // the back-end under a real compositor).
    .testTarget(
      name: "WaylandTests",
      dependencies: ["Wayland", "CWaylandShim", "PatternCore", "Raster", "Scene", "Screen", "ScreenTestSupport", "Typeface", "CommandTestSupport", "AllocationCounter"]
    ),
    // Vault: hashing, file formats, corruption and crash safety; CLI tests run the built binary.
    // Test support: a cheap hash cost, clock values and enrolment for the vault's tests.
    .target(name: "VaultTestSupport", dependencies: ["Vault", "PatternCore", "LockEvents"], path: "Tests/VaultTestSupport"),
    .testTarget(name: "LockEventsTests", dependencies: ["LockEvents", "PatternCore"]),
    .testTarget(name: "VaultTests", dependencies: ["Vault", "PatternCore", "PatternChoice", "LockEvents", "CShim", "CommandTestSupport", "VaultTestSupport"]),
    // Configuration: layering, every key, every error with file:line; the man pages
    // against --help and the key table (runs the built binary).
    .testTarget(name: "ConfigurationTests", dependencies: ["Configuration", "PatternCore", "PatternChoice", "Raster", "Scene", "Vault", "SystemCalls", "CommandTestSupport", "GPIO"]),

    // Test support: golden-image comparison (Foundation allowed; never a product dependency).
    .target(name: "GoldenSupport", dependencies: ["PNGImage", "Raster", "CommandTestSupport"], path: "Tests/GoldenSupport"),
    .testTarget(name: "PNGImageTests", dependencies: ["PNGImage", "GoldenSupport", "Raster", "CommandTestSupport"]),
    .testTarget(name: "TypefaceTests", dependencies: ["Typeface", "Raster", "CommandTestSupport"]),
    .testTarget(name: "RasterTests", dependencies: ["Raster", "PatternCore", "AllocationCounter"]),

    // Test support: what each fuzz harness does with one input (Fuzz/Harnesses), shared by
    // the libFuzzer entry points below and FuzzRegressionTests.
    .target(
      name: "FuzzHarnesses",
      dependencies: ["Recording", "Configuration", "Vault", "PatternCore", "CSodium"],
      path: "Fuzz/Harnesses",
      linkerSettings: [.linkedLibrary("sodium")]
    ),
    // Replays every committed crash input under Fuzz/Regressions through its harness.
    // Every test that runs the built patternlock binary, in one target: the commands'
    // output, exit statuses and files, as a user or a script sees them.
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["CommandTestSupport", "VaultTestSupport", "Configuration", "PatternCore", "PatternChoice", "PNGImage", "Recording", "Vault", "CShim", "LockEvents"]
    ),
    // The catalogue: the checked-in tables are what po/ gives, every language is complete,
    // msgfmt accepts the .po files.
    .testTarget(name: "CatalogueTests", dependencies: ["CatalogueCompiler", "Scene", "CommandTestSupport"]),
    .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzHarnesses", "Vault", "CommandTestSupport"]),
  ]
)

// The libFuzzer entry points (LLVMFuzzerTestOneInput; libFuzzer supplies main), declared
// only for scripts/fuzz, which sets PATTERNLOCK_FUZZ=1 and builds with
// `-sanitize=fuzzer,address` in its own scratch directory. Without libFuzzer they would
// not link, so the normal build, the tests and the Embedded build never see them.
if Context.environment["PATTERNLOCK_FUZZ"] == "1" {
  for harness in ["recording", "configuration", "state-files"] {
    package.targets.append(
      .executableTarget(name: "fuzz-\(harness)", dependencies: ["FuzzHarnesses"], path: "Fuzz/Entry/\(harness)"))
  }
}
