// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The folder `thumbkit demo` writes into, and the proof of which files in it are the demo's.
///
/// The demo writes only into a folder that is new, empty, or marked as its own: the marker
/// `.thumbkit-demo` lists the SHA-256 of every file the demo wrote there (`<sha256> <path>`
/// lines). A file is replaced only when its bytes are ones the demo wrote, so a picture or
/// `catalog.json` the user put there or edited is never overwritten; the run is then refused
/// before anything is written. The marker is written before the files, with their new hashes,
/// so a run killed half-way leaves a folder the next run still recognises.
struct DemoFolder {
    /// The marker's file name.
    static let markerName = ".thumbkit-demo"
    /// The marker's first line.
    static let markerHeader = "thumbkit demo: files written here, by SHA-256"

    let folder: String

    var marker: String { (folder as NSString).appendingPathComponent(Self.markerName) }

    func path(_ relative: String) -> String { (folder as NSString).appendingPathComponent(relative) }

    /// Refuses, before anything is drawn, a path that is a file, and an unmarked, non-empty
    /// folder holding anything but the demo's `names` (`claim` then compares their bytes).
    func precheck(_ names: [String]) throws(CatalogError) {
        var info = stat()
        guard lstat(folder, &info) == 0 else { return }
        guard Self.isFolder(folder) else {
            throw CatalogError.invalidRecord(path: folder, reason: "is a file, not a folder")
        }
        guard Self.readMarker(marker) == nil else { return }
        let allowed = Set(names).union(names.map { ($0 as NSString).deletingLastPathComponent })
        let entries = (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [""]
        if !entries.allSatisfy(allowed.contains) { throw notTheDemos }
    }

    private var notTheDemos: CatalogError {
        CatalogError.invalidRecord(
            path: folder,
            reason: "refusing to write the demo into a folder that is not empty and was not made by "
                + "'thumbkit demo' (no \(Self.markerName)): give a new or empty folder")
    }

    /// Checks that every file of `files` (relative path → bytes) may be written, creates the
    /// folder if needed, and records the new hashes in the marker.
    ///
    /// - Throws: `CatalogError.invalidRecord` naming the folder or file that is not the demo's,
    ///   `.io` when the folder cannot be made.
    func claim(_ files: [(String, [UInt8])]) throws(CatalogError) {
        var info = stat()
        var known: [String: Set<String>] = [:]
        if lstat(folder, &info) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CatalogError.io(path: folder, reason: "cannot create the folder")
            }
        } else if !Self.isFolder(folder) {
            throw CatalogError.invalidRecord(path: folder, reason: "is a file, not a folder")
        } else if let recorded = Self.readMarker(marker) {
            known = recorded
        } else if !((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [""]).isEmpty,
            !holdsOnlyIdenticalCopies(of: files)
        {
            throw notTheDemos
        }
        for (relative, bytes) in files {
            let parent = (relative as NSString).deletingLastPathComponent
            if !parent.isEmpty, lstat(path(parent), &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                throw CatalogError.invalidRecord(
                    path: path(parent), reason: "refusing to write the demo here: not a folder the demo made")
            }
            guard lstat(path(relative), &info) == 0 else { continue }
            let current = (info.st_mode & S_IFMT) == S_IFREG ? Self.hash(path(relative)) : nil
            guard let current, current == ContentHash.sha256(of: bytes) || known[relative]?.contains(current) == true
            else {
                throw CatalogError.invalidRecord(
                    path: path(relative), reason: "refusing to replace a file 'thumbkit demo' did not write")
            }
        }
        for (relative, bytes) in files { known[relative, default: []].insert(ContentHash.sha256(of: bytes)) }
        let lines = known.keys.sorted().flatMap { name in known[name]!.sorted().map { "\($0) \(name)" } }
        try write(Self.markerName, Array(([Self.markerHeader] + lines).joined(separator: "\n").utf8) + [10])
    }

    /// Whether the folder holds nothing but demo files with exactly `files`' bytes (and their
    /// folders): an unmarked demo folder from before the marker existed, which writing changes
    /// in nothing but the marker.
    func holdsOnlyIdenticalCopies(of files: [(String, [UInt8])]) -> Bool {
        let wanted = Dictionary(files, uniquingKeysWith: { a, _ in a })
        let folders = Set(files.map { ($0.0 as NSString).deletingLastPathComponent }.filter { !$0.isEmpty })
        guard let entries = try? FileManager.default.subpathsOfDirectory(atPath: folder) else { return false }
        var info = stat()
        return entries.allSatisfy { entry in
            guard lstat(path(entry), &info) == 0 else { return false }
            if (info.st_mode & S_IFMT) == S_IFDIR { return folders.contains(entry) }
            guard (info.st_mode & S_IFMT) == S_IFREG, let bytes = wanted[entry] else { return false }
            return Self.hash(path(entry)) == ContentHash.sha256(of: bytes)
        }
    }

    /// Writes `bytes` at `relative` unless the file already holds them.
    func write(_ relative: String, _ bytes: [UInt8]) throws(CatalogError) {
        let target = path(relative)
        if let existing = FileManager.default.contents(atPath: target), [UInt8](existing) == bytes { return }
        do {
            try FileIO.writeAtomically(bytes, to: target)
        } catch {
            throw CatalogError.io(path: target, reason: error.reason)
        }
    }

    /// The marker's hashes by path, nil when there is no marker (or it is not a regular file
    /// that starts with the header).
    static func readMarker(_ path: String) -> [String: Set<String>]? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            let bytes = try? FileIO.read(path, maxBytes: 1 << 20)
        else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(markerHeader) else { return nil }
        var known: [String: Set<String>] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { known[String(parts[1]), default: []].insert(String(parts[0])) }
        }
        return known
    }

    /// The SHA-256 of a regular file, nil when it cannot be read.
    static func hash(_ path: String) -> String? {
        (try? FileIO.read(path)).map { ContentHash.sha256(of: $0) }
    }

    /// Whether `path` is a folder (following a link).
    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
