// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// ThumbKit: thumbnails, detail images, rating strips and app icons from PNG, JPEG, WebP, HEIC and AVIF
// files.
//
// Modules by responsibility, depending one way only:
//   CThumbKit (thin C shims over libpng, libjpeg-turbo, libwebp and libheif; CDeflate: libdeflate)
//     -> ThumbKit (the image core: decode, process, encode, the pipeline; no SQLite, no OpenSSL)
//       -> ThumbKitQuality (SSIM, PSNR, ΔE2000 and the independent reference resampler)
//       -> ThumbKitCatalog (records, the store, recipes, the build, rating strips, app icons)
//         -> ThumbKitWatch (the watch folder), ThumbKitSite (the static site)
//         -> ThumbKitBench (the benchmark and the demo painter; in no library product)
//       -> ThumbKitDesktop (the freedesktop.org thumbnail cache and the desktop's thumbnailer)
//       -> ThumbKitServe (`thumbkit serve`: images on demand over HTTP and the catalog's web app,
//          on libmicrohttpd through CThumbKitServe)
//           -> ThumbKitCLI (the argument parser and the commands) -> thumbkit (main.swift only)
import PackageDescription

let package = Package(
    name: "ThumbKit",
    products: [
        // The image core alone: no SQLite, no OpenSSL (Examples/ThumbnailFromData proves it).
        .library(name: "ThumbKit", targets: ["ThumbKit"]),
        .library(name: "ThumbKitQuality", targets: ["ThumbKitQuality"]),
        .library(name: "ThumbKitCatalog", targets: ["ThumbKitCatalog"]),
        .library(name: "ThumbKitWatch", targets: ["ThumbKitWatch"]),
        .library(name: "ThumbKitSite", targets: ["ThumbKitSite"]),
        .library(name: "ThumbKitDesktop", targets: ["ThumbKitDesktop"]),
        .library(name: "ThumbKitServe", targets: ["ThumbKitServe"]),
        .executable(name: "thumbkit", targets: ["thumbkit"]),
    ],
    targets: [
        .target(
            name: "CThumbKit",
            dependencies: ["CWebP"],
            // webpmux: a C target gets its system libraries' pkg-config flags (libwebpdemux) but
            // not their module maps' `link` lines. libheif is not linked at all: heif_shim.c loads
            // it at the first HEIF file (dynamic_library.h), so start-up does not pay for it.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("webpmux")]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // libpq's header, and forwarders that open libpq at the first PostgreSQL catalog: not
        // linked, so no other command pays for it (libpq_loader.c).
        .target(name: "CPostgres", dependencies: ["CThumbKit"]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // Thin glue over libmicrohttpd's variadic calls, which Swift cannot make, and the loader
        // that opens libmicrohttpd when a server starts: not linked, so no other command pays
        // for it and the GnuTLS stack behind it (http_shim.c).
        .target(name: "CThumbKitServe", dependencies: ["CThumbKit"]),
        .target(name: "ThumbKit", dependencies: ["CThumbKit", "CLCMS2", "CDeflate"]),
        .target(name: "ThumbKitQuality", dependencies: ["ThumbKit"]),
        .target(name: "ThumbKitCatalog", dependencies: ["ThumbKit", "CSQLite", "CCrypto", "CPostgres"]),
        .target(name: "ThumbKitWatch", dependencies: ["ThumbKit", "ThumbKitCatalog"]),
        .target(name: "ThumbKitSite", dependencies: ["ThumbKit", "ThumbKitCatalog"]),
        .target(name: "ThumbKitBench", dependencies: ["ThumbKit", "ThumbKitQuality", "ThumbKitCatalog"]),
        .target(name: "ThumbKitDesktop", dependencies: ["ThumbKit", "CCrypto"]),
        .target(
            name: "ThumbKitServe",
            dependencies: ["ThumbKit", "ThumbKitCatalog", "ThumbKitSite", "CCrypto", "CThumbKitServe"]
        ),
        .target(
            name: "ThumbKitCLI",
            dependencies: [
                "ThumbKit", "ThumbKitQuality", "ThumbKitCatalog", "ThumbKitWatch", "ThumbKitSite", "ThumbKitBench",
                "ThumbKitDesktop", "ThumbKitServe",
            ]
        ),
        .executableTarget(name: "thumbkit", dependencies: ["ThumbKitCLI"]),
        // The README's library example, compiled by every build so that it cannot rot.
        .executableTarget(
            name: "thumbnail-example", dependencies: ["ThumbKit"], path: "Examples/ThumbnailFromData"),
        .target(name: "ThumbKitTestSupport", dependencies: ["ThumbKit"]),
        .target(
            name: "ThumbKitCatalogTestSupport", dependencies: ["ThumbKit", "ThumbKitCatalog", "ThumbKitTestSupport"]),
        // Every target names each module of this package it imports, not only the ones it
        // reaches through others: SwiftPM recompiles a target when the modules it names change
        // (scripts/check-target-imports, run by scripts/test).
        .testTarget(
            name: "ThumbKitTests",
            dependencies: ["ThumbKit", "CThumbKit", "CLCMS2", "ThumbKitQuality", "ThumbKitTestSupport"]
        ),
        .testTarget(
            name: "ThumbKitQualityTests", dependencies: ["ThumbKit", "ThumbKitQuality", "ThumbKitTestSupport"]),
        .testTarget(
            name: "ThumbKitCatalogTests",
            dependencies: [
                "ThumbKit", "CSQLite", "CPostgres", "ThumbKitCatalog", "ThumbKitWatch", "ThumbKitTestSupport",
                "ThumbKitCatalogTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbKitWatchTests",
            dependencies: [
                "ThumbKit", "ThumbKitCatalog", "ThumbKitWatch", "ThumbKitTestSupport", "ThumbKitCatalogTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbKitSiteTests",
            dependencies: [
                "ThumbKit", "ThumbKitCatalog", "ThumbKitSite", "ThumbKitTestSupport", "ThumbKitCatalogTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbKitBenchTests",
            dependencies: [
                "ThumbKit", "ThumbKitQuality", "ThumbKitCatalog", "ThumbKitBench", "ThumbKitTestSupport",
                "ThumbKitCatalogTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbKitDesktopTests", dependencies: ["ThumbKit", "ThumbKitDesktop", "ThumbKitTestSupport"]),
        .testTarget(
            name: "ThumbKitServeTests",
            dependencies: [
                "ThumbKit", "CThumbKit", "CThumbKitServe", "CPostgres", "ThumbKitCatalog", "ThumbKitServe",
                "ThumbKitTestSupport", "ThumbKitCatalogTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbKitCLITests",
            dependencies: [
                "ThumbKit", "ThumbKitCatalog", "ThumbKitServe", "ThumbKitCLI", "ThumbKitQuality", "ThumbKitBench",
                "ThumbKitWatch", "ThumbKitSite", "ThumbKitTestSupport",
                "ThumbKitCatalogTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
