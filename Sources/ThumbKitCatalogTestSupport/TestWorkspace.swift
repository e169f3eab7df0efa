// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog

/// A fresh temporary folder per test, removed when the value goes away, with helpers to write
/// small real image files (4×4 pixels whose colour depends on a seed: an import decodes every
/// picture it records) and to open a store inside it.
public final class TestWorkspace {
    public let root: String
    /// The PostgreSQL catalogs made for this workspace, by name (see `CatalogBackend`).
    var postgresCatalogs: [String: String] = [:]
    /// What `deinit` undoes besides the folder (PostgreSQL schemas), last first.
    private var cleanups: [() -> Void] = []

    public init() throws {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("thumbkit-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
        cleanups.reversed().forEach { $0() }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Runs `cleanup` when the workspace goes away.
    public func onRemove(_ cleanup: @escaping () -> Void) { cleanups.append(cleanup) }

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

    /// A 4×4 PNG whose bytes depend on `seed`.
    @discardableResult
    public func png(_ relative: String, seed: UInt8 = 1) throws -> String {
        try write(relative, try Self.picture(seed: seed, format: .png))
    }

    /// A 4×4 JPEG whose bytes depend on `seed`.
    @discardableResult
    public func jpeg(_ relative: String, seed: UInt8 = 1) throws -> String {
        try write(relative, try Self.picture(seed: seed, format: .jpeg))
    }

    public static func picture(seed: UInt8, format: ImageFormat) throws -> [UInt8] {
        var buffer = PixelBuffer(width: 4, height: 4)
        for y in 0..<4 {
            for x in 0..<4 { buffer[x, y] = RGBA(seed &* 40, UInt8(x * 60), UInt8(y * 60)) }
        }
        return try ImageEncoders.encode(buffer, options: EncodeOptions(format: format))
    }

    /// The catalog at `name` in the workspace.
    public func store(_ name: String = "thumbkit.sqlite", busyTimeout: Duration = .seconds(5)) throws -> CatalogStore {
        try CatalogStore(path: path(name), busyTimeout: busyTimeout)
    }

    /// File names in the workspace root, sorted.
    public func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: root).sorted() }

    /// `listing()` without the WAL files of a database in WAL mode when they hold nothing: an
    /// empty `-wal` and the `-shm` beside it, which a read-only SQLite connection creates to
    /// read such a database and may not remove. A `-wal` that holds anything stays listed.
    public func listingApartFromEmptyWAL() throws -> [String] {
        func isEmptyWAL(_ name: String) -> Bool {
            let size = try? FileManager.default.attributesOfItem(atPath: path(name))[.size] as? Int
            return size == 0
        }
        return try listing().filter { name in
            if name.hasSuffix("-wal") { return !isEmptyWAL(name) }
            if name.hasSuffix("-shm") { return !isEmptyWAL(String(name.dropLast(4)) + "-wal") }
            return true
        }
    }
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
