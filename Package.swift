// swift-tools-version:6.0
// ThumbKit: thumbnails, detail images, rating strips and app icons from PNG and JPEG files.
//
// Modules depend one way only:
//   CThumbKit (C shims over libpng / libjpeg-turbo)
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
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .target(name: "ThumbKit", dependencies: ["CThumbKit", "CLCMS2"]),
        .target(name: "ThumbKitCatalog", dependencies: ["ThumbKit", "CSQLite", "CCrypto"]),
        .target(name: "ThumbKitDesktop", dependencies: ["ThumbKit", "CCrypto"]),
        .target(name: "ThumbKitCLI", dependencies: ["ThumbKit", "ThumbKitCatalog", "ThumbKitDesktop"]),
        .executableTarget(name: "thumbkit", dependencies: ["ThumbKitCLI"]),
        .target(name: "ThumbKitTestSupport", dependencies: ["ThumbKit"]),
        .testTarget(name: "ThumbKitTests", dependencies: ["ThumbKit", "ThumbKitTestSupport"]),
        .testTarget(
            name: "ThumbKitCatalogTests",
            dependencies: ["ThumbKitCatalog", "ThumbKitTestSupport"]
        ),
        .testTarget(name: "ThumbKitDesktopTests", dependencies: ["ThumbKitDesktop", "ThumbKitTestSupport"]),
        .testTarget(
            name: "ThumbKitCLITests",
            dependencies: ["ThumbKitCLI", "ThumbKitTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
