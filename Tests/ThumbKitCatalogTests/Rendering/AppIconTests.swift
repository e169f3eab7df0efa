// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct AppIconTests {
    @Test func theSetHasTheFoodAppsIconAndXcodesSizes() {
        let pixels = Set(AppIcon.entries.map { "\($0.idiom) \($0.sizeText) @\($0.scale)x = \($0.pixels)" })
        for expected in [
            "iphone 52x52 @1x = 52", "iphone 52x52 @2x = 104", "iphone 20x20 @3x = 60", "iphone 29x29 @1x = 29",
            "iphone 57x57 @1x = 57",
            "iphone 60x60 @3x = 180", "ipad 76x76 @2x = 152", "ipad 83.5x83.5 @2x = 167",
            "ios-marketing 1024x1024 @1x = 1024",
        ] {
            #expect(pixels.contains(expected), "\(expected)")
        }
        let points = Set(AppIcon.entries.map(\.points))
        #expect(points == [20, 29, 40, 52, 57, 60, 76, 83.5, 1024])
        // One file per (points, scale), shared across idioms.
        #expect(AppIcon.files.count == Set(AppIcon.entries.map(\.file)).count)
        #expect(AppIcon.files.map(\.baseName).contains("icon-83-5pt"))
    }

    @Test func aFullBuildWritesAValidContentsJSONWithEveryFileAtItsPixelSize() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let logo = try workspace.image("logo.png", width: 90, height: 60, seed: 4)
        try store.write { tx in
            var assets = try tx.assets()
            assets.logo = logo
            try tx.setAssets(assets)
        }
        let out = workspace.path("out")
        let report = CatalogBuilder(store: store, outputDirectory: out).build()
        #expect(report.failures == [] && report.made == AppIcon.files.count)

        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/" + AppIcon.contentsPath))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let info = try #require(json["info"] as? [String: Any])
        #expect(info["version"] as? Int == 1)
        let images = try #require(json["images"] as? [[String: String]])
        #expect(images.count == AppIcon.entries.count)
        for image in images {
            let name = try #require(image["filename"])
            let size = try #require(image["size"]).split(separator: "x").compactMap { Double($0) }
            let scaleText = try #require(image["scale"])
            let scale = try #require(Double(scaleText.dropLast()))
            #expect(size.count == 2 && ["iphone", "ipad", "ios-marketing"].contains(image["idiom"] ?? ""))
            let path = out + "/" + AppIcon.folder + "/" + name
            let decoded = try ImageDecoders.decodeFile(atPath: path)
            let expected = Int((size[0] * scale).rounded())
            #expect(decoded.buffer.width == expected && decoded.buffer.height == expected, "\(name)")
            #expect(!decoded.buffer.hasTransparency, "\(name) must be opaque")
        }
        let rows = try store.outputs(for: .app)
        #expect(rows.count == AppIcon.files.count && rows.allSatisfy { $0.kind == .icon })
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
        #expect(CatalogBuilder(store: store, outputDirectory: out).build().made == 0)
    }

    @Test func removingTheLogoRemovesTheIconsAndContentsJSON() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try workspace.addAssets(to: store, logo: true)
        let out = workspace.path("out")
        _ = CatalogBuilder(store: store, outputDirectory: out).build()
        #expect(FileManager.default.fileExists(atPath: out + "/" + AppIcon.contentsPath))
        try store.write { tx in
            var assets = try tx.assets()
            assets.logo = nil
            try tx.setAssets(assets)
        }
        let report = CatalogBuilder(store: store, outputDirectory: out).build()
        #expect(report.removed == AppIcon.files.count)
        #expect(try store.outputs(for: .app).allSatisfy { $0.kind == .rating })
        #expect(!FileManager.default.fileExists(atPath: out + "/app"))
    }
}

extension AppIconTests {
    /// The Food app's icon is a 52×52-pixel PNG: the set has it at @1x next to @2x and @3x.
    @Test func theFoodAppsIconIs52PixelsAt1x() throws {
        let food = AppIcon.entries.filter { $0.points == 52 }.map(\.pixels)
        #expect(food == [52, 104, 156])
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try workspace.addAssets(to: store, logo: true)
        let out = workspace.path("out")
        #expect(CatalogBuilder(store: store, outputDirectory: out).build().failures == [])
        let row = try #require(
            try store.outputs(for: .app).first { $0.kind == .icon && $0.recipe.contains("pt=52,") && $0.scale == 1 })
        let decoded = try ImageDecoders.decodeFile(atPath: out + "/" + row.path)
        #expect(decoded.buffer.width == 52 && decoded.buffer.height == 52 && row.format == .png)
        let contents = try String(contentsOfFile: out + "/" + AppIcon.contentsPath, encoding: .utf8)
        #expect(contents.contains("\"filename\" : \"\((row.path as NSString).lastPathComponent)\""))
    }
}
