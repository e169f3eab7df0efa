import Foundation
import Testing

import ThumbKitCatalog

/// A fresh temporary folder per test, removed when the value goes away, with helpers to write
/// small stand-in image files (a real PNG or JPEG signature followed by filler: the catalog only
/// sniffs and hashes them) and to open a store inside it.
public final class TestWorkspace {
    public let root: String

    public init() throws {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("thumbkit-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// `relative` inside the workspace.
    public func path(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    /// Writes `bytes` at `relative` (folders created); returns the absolute path.
    @discardableResult
    public func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
        let full = path(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Writes text at `relative`.
    @discardableResult
    public func write(_ relative: String, text: String) throws -> String { try write(relative, Array(text.utf8)) }

    /// A stand-in PNG whose bytes depend on `seed`.
    @discardableResult
    public func png(_ relative: String, seed: UInt8 = 1) throws -> String {
        try write(relative, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, seed, seed &+ 1, 0, 0])
    }

    /// A stand-in JPEG whose bytes depend on `seed`.
    @discardableResult
    public func jpeg(_ relative: String, seed: UInt8 = 1) throws -> String {
        try write(relative, [0xFF, 0xD8, 0xFF, 0xE0, seed, seed &+ 2, 0xFF, 0xD9])
    }

    /// The catalog at `name` in the workspace.
    public func store(_ name: String = "thumbkit.sqlite", busyTimeout: Duration = .seconds(5)) throws -> CatalogStore {
        try CatalogStore(path: path(name), busyTimeout: busyTimeout)
    }

    /// File names in the workspace root, sorted.
    public func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: root).sorted() }
}

/// The CatalogError a throwing call threw, or nil (an Issue is recorded for any other error).
public func catalogError<T>(_ body: () throws -> T) -> CatalogError? {
    do {
        _ = try body()
        return nil
    } catch let error as CatalogError {
        return error
    } catch {
        Issue.record("expected a CatalogError, got \(error)")
        return nil
    }
}
