// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// Small real images for build tests (the stand-ins of `TestWorkspace` only sniff and hash).
extension TestWorkspace {
    /// A `width`×`height` image whose colours depend on `seed`, encoded as `format`, at
    /// `relative`; returns the absolute path.
    @discardableResult
    public func image(_ relative: String, width: Int = 64, height: Int = 48, seed: Int = 1, format: ImageFormat = .png)
        throws
        -> String
    {
        var buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                buffer[x, y] = RGBA(
                    UInt8((x * 255 / max(1, width - 1) + seed * 40) % 256), UInt8((y * 255 / max(1, height - 1)) % 256),
                    UInt8((seed * 77) % 256))
            }
        }
        return try write(relative, try ImageEncoders.encode(buffer, options: EncodeOptions(format: format)))
    }

    /// A `side`×`side` PNG icon: a disc of `color` on transparency.
    @discardableResult
    public func icon(_ relative: String, side: Int = 16, color: RGBA) throws -> String {
        var buffer = PixelBuffer(width: side, height: side)
        let centre = Double(side) / 2
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) + 0.5 - centre
                let dy = Double(y) + 0.5 - centre
                if dx * dx + dy * dy <= centre * centre { buffer[x, y] = color }
            }
        }
        return try write(relative, try ImageEncoders.encode(buffer, options: EncodeOptions(format: .png)))
    }

    /// Sets the catalog's rating icons (empty grey, full gold) and, with `logo`, a logo (its 1024 px
    /// icon is the slowest output: only the app icon tests ask for it).
    public func addAssets(to store: CatalogStore, logo: Bool = false) throws {
        let empty = try icon("icons/empty.png", color: RGBA(180, 180, 180))
        let full = try icon("icons/full.png", color: RGBA(250, 190, 20))
        let logoPath = logo ? try image("logo.png", width: 120, height: 120, seed: 9) : nil
        try store.write { tx in
            var assets = try tx.assets()
            assets.ratingEmpty = empty
            assets.ratingFull = full
            assets.logo = logoPath
            try tx.setAssets(assets)
        }
    }
}

/// Checks that every output row's file exists with its recorded size and pixel size, that no
/// two rows of one record share a key, and that no temporary file is left. Returns the problems.
public func consistencyProblems(store: CatalogStore, outputDirectory: String) throws -> [String] {
    var problems: [String] = []
    let rows = try store.read { try $0.outputs() }
    var keys = Set<OutputKey>()
    for row in rows {
        if !keys.insert(row.values.key).inserted { problems.append("duplicate key \(row.values.key)") }
        let path = outputDirectory + "/" + row.path
        guard let data = FileManager.default.contents(atPath: path) else {
            problems.append("\(row.path): missing")
            continue
        }
        if data.count != row.bytes { problems.append("\(row.path): \(data.count) bytes, row says \(row.bytes)") }
        if let header = try? ImageDecoders.readHeader([UInt8](data), path: path),
            header.width != row.width || header.height != row.height
        {
            problems.append("\(row.path): \(header.width)x\(header.height), row says \(row.width)x\(row.height)")
        }
    }
    let walker = FileManager.default.enumerator(atPath: outputDirectory)
    while let item = walker?.nextObject() as? String {
        if (item as NSString).lastPathComponent.contains(".tmp-") { problems.append("\(item): temporary file left") }
    }
    return problems
}
