// swift-tools-version:6.0
// ThumbKit: thumbnails, detail images, rating strips and app icons from PNG and JPEG files.
//
// Modules depend one way only:
//   CThumbKit (C shims over libpng / libjpeg-turbo / libwebp / libheif)
//     -> ThumbKit (pure-Swift image core: decode, process, encode, batch)
//       -> ThumbKitCatalog (SQLite records, recipes, rating strips, app icons, site, bench history)
//         -> ThumbKitCLI (hand-written argument parser and commands)
//           -> thumbkit (executable: main.swift only)
import PackageDescription

let package = Package(
    name: "ThumbKit",
    products: [
        .library(name: "ThumbKit", targets: ["ThumbKit", "ThumbKitCatalog"]),
        .executable(name: "thumbkit", targets: ["thumbkit"]),
    ],
    targets: [
        .target(
            name: "CThumbKit",
            dependencies: ["CWebP", "CHeif"],
            // webpmux: a C target gets its system libraries' pkg-config flags (libwebpdemux,
            // libheif) but not their module maps' `link` lines.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("webpmux")]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .target(name: "ThumbKit", dependencies: ["CThumbKit", "CLCMS2"]),
        .target(name: "ThumbKitCatalog", dependencies: ["ThumbKit", "CSQLite", "CCrypto"]),
        .target(name: "ThumbKitCLI", dependencies: ["ThumbKit", "ThumbKitCatalog"]),
        .executableTarget(name: "thumbkit", dependencies: ["ThumbKitCLI"]),
        .target(name: "ThumbKitTestSupport", dependencies: ["ThumbKit"]),
        .testTarget(name: "ThumbKitTests", dependencies: ["ThumbKit", "ThumbKitTestSupport"]),
        .testTarget(
            name: "ThumbKitCatalogTests",
            dependencies: ["ThumbKitCatalog", "ThumbKitTestSupport"]
        ),
        .testTarget(
            name: "ThumbKitCLITests",
            dependencies: ["ThumbKitCLI", "ThumbKitTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
