// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// ThumbKit's libFuzzer targets, kept out of the main package so that its release build and
// `swift test` never see the fuzzing flags. Build and run them through `scripts/fuzz` (which
// passes `-sanitize=fuzzer,address` and uses its own scratch folder).
//
// Each executable target is one fuzz target: a `main.swift` with the target function (exported
// as `LLVMFuzzerTestOneInput`, so other drivers can call it too) whose top-level code hands it to
// libFuzzer's `LLVMFuzzerRunDriver` (see CFuzzDriver.h for why libFuzzer's own `main` is not used).
import PackageDescription

let package = Package(
    name: "ThumbKitFuzz",
    dependencies: [.package(name: "ThumbKit", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver", .product(name: "ThumbKit", package: "ThumbKit")]),
        .executableTarget(name: "FuzzHeader", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzExif", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPNGFast", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzBaselineDC", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "FuzzCatalogImport",
            dependencies: ["FuzzSupport", .product(name: "ThumbKitCatalog", package: "ThumbKit")]),
        .executableTarget(
            name: "FuzzServeURL",
            dependencies: ["FuzzSupport", .product(name: "ThumbKitServe", package: "ThumbKit")]),
    ],
    swiftLanguageModes: [.v6]
)
