// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// One generated file, as the catalog remembers it. Unique per (record, recipe, scale).
public struct OutputRecord: Sendable, Hashable, Codable, Identifiable {
    /// Row id.
    public let id: Int
    /// Everything that describes the file.
    public var values: OutputValues
    /// When the row was written (or last replaced).
    public var createdAt: Date

    public init(id: Int, values: OutputValues, createdAt: Date) {
        self.id = id
        self.values = values
        self.createdAt = createdAt
    }

    /// The record the output belongs to.
    public var record: RecordRef { values.record }
    /// The recipe identifier it was made with.
    public var recipe: String { values.recipe }
    /// What it is for.
    public var kind: OutputKind { values.kind }
    /// 1, 2 or 3 (for @1x, @2x, @3x).
    public var scale: Int { values.scale }
    /// Path relative to the output folder.
    public var path: String { values.path }
    /// Pixel width.
    public var width: Int { values.width }
    /// Pixel height.
    public var height: Int { values.height }
    /// Container format.
    public var format: ImageFormat { values.format }
    /// File size in bytes.
    public var bytes: Int { values.bytes }
    /// SHA-256 of the source it was made from.
    public var sourceSHA256: String { values.sourceSHA256 }
}

/// The values of an output row, as a build step upserts them.
public struct OutputValues: Sendable, Hashable, Codable {
    /// The record the output belongs to.
    public var record: RecordRef
    /// The recipe identifier (`Recipe.identifier`, or any stable key for rating strips and icons).
    public var recipe: String
    /// What it is for.
    public var kind: OutputKind
    /// 1, 2 or 3 (for @1x, @2x, @3x); at least 1.
    public var scale: Int
    /// Path relative to the output folder; must pass `OutputNaming.isSafeRelativePath`.
    public var path: String
    /// Pixel width (at least 1).
    public var width: Int
    /// Pixel height (at least 1).
    public var height: Int
    /// Container format.
    public var format: ImageFormat
    /// File size in bytes.
    public var bytes: Int
    /// SHA-256 of the source it was made from.
    public var sourceSHA256: String

    public init(
        record: RecordRef, recipe: String, kind: OutputKind, scale: Int, path: String, width: Int,
        height: Int, format: ImageFormat, bytes: Int, sourceSHA256: String
    ) {
        self.record = record
        self.recipe = recipe
        self.kind = kind
        self.scale = scale
        self.path = path
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
        self.sourceSHA256 = sourceSHA256
    }

    /// The output's unique key.
    public var key: OutputKey { OutputKey(record: record, recipe: recipe, scale: scale) }
}

/// What makes an output unique: (record, recipe identifier, scale).
public struct OutputKey: Sendable, Hashable, Codable {
    /// The record the output belongs to.
    public var record: RecordRef
    /// The recipe identifier.
    public var recipe: String
    /// The scale factor.
    public var scale: Int

    public init(record: RecordRef, recipe: String, scale: Int) {
        self.record = record
        self.recipe = recipe
        self.scale = scale
    }
}
