// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// The record, kept in the site folder as `.thumbkit-site.json`, of every file `thumbkit site`
/// wrote there: its path relative to the site folder and the SHA-256 of what was written. It is
/// the site's only proof of ownership: a file is removed or overwritten only when the manifest
/// lists it and its content still has a listed hash, so a file a user put there or changed
/// since is never touched.
///
/// A path may list more than one hash: while a run is writing, the manifest (saved before the
/// first write) accepts both the old and the new content, so a run killed half-way leaves
/// nothing that the next run would take for foreign.
struct SiteManifest: Codable, Sendable, Equatable {
    /// The manifest's file name in the site folder.
    static let fileName = ".thumbkit-site.json"
    /// What `format` must say.
    static let formatName = "thumbkit-site"

    /// Always `thumbkit-site`: tells the manifest from any other JSON file of that name.
    var format = Self.formatName
    /// 1.
    var version = 1
    /// A random id given to the site folder on its first run and kept after.
    var id: String
    /// Relative path → SHA-256 (hex) of each content ThumbKit wrote there.
    var files: [String: [String]]

    /// The manifest of the site at `root`, nil when there is none.
    ///
    /// - Throws: `CatalogError.invalidDocument` when the file exists but is not a manifest
    ///   (ownership cannot be proven, so nothing may be touched).
    static func load(siteRoot root: String) throws(CatalogError) -> SiteManifest? {
        let path = root + "/" + fileName
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let reason = "not a thumbkit site manifest; move it away or choose another folder"
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= 64 << 20,
            let bytes = try? FileIO.read(path, maxBytes: 64 << 20),
            let manifest = try? JSONDecoder().decode(SiteManifest.self, from: Data(bytes)),
            manifest.format == formatName, manifest.version == 1
        else { throw CatalogError.invalidDocument(path: path, reason: reason) }
        return manifest
    }

    /// Writes the manifest into `root` atomically (temporary name, flushed, renamed).
    func save(siteRoot root: String) throws(CatalogError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let path = root + "/" + Self.fileName
        do {
            let data = try encoder.encode(self) + Data("\n".utf8)
            try FileIO.writeAtomically(Array(data), to: path)
        } catch let error as EncodeError {
            throw CatalogError.io(path: path, reason: error.reason)
        } catch {
            throw CatalogError.io(path: path, reason: "cannot encode the site manifest")
        }
    }

    /// Whether the file at `relative` is provably ThumbKit's: a safe relative path the manifest
    /// lists, a regular file (not a link, folder or device) inside the site folder, with a
    /// listed hash.
    func owns(_ relative: String, in site: SiteFolder) -> Bool {
        guard let hashes = files[relative], !hashes.isEmpty, let hash = site.hash(relative) else { return false }
        return hashes.contains(hash)
    }
}

/// The site folder on disk, with every path checked before use.
struct SiteFolder: Sendable {
    /// The site folder as given.
    let root: String

    /// `relative` inside the site folder.
    func absolute(_ relative: String) -> String { root + "/" + relative }

    /// The SHA-256 of the regular file at the safe path `relative` when its folder is really
    /// inside the site folder; nil otherwise (missing, a symlink, a FIFO, a folder).
    func hash(_ relative: String) -> String? {
        guard isInside(relative) else { return nil }
        var info = stat()
        guard lstat(absolute(relative), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? ContentHash.sha256(ofFileAt: absolute(relative))
    }

    /// Whether anything (a file, a link, a folder) is at `relative`.
    func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(absolute(relative), &info) == 0
    }

    /// Whether `relative` is a safe relative path (no `..`, not absolute, no hidden or odd
    /// names) whose existing folders resolve, symlinks followed, to the same folders inside
    /// the site folder: no link leads out of it.
    func isInside(_ relative: String) -> Bool {
        guard OutputNaming.isSafeRelativePath(relative), let base = Self.resolved(root) else { return false }
        var folder = (relative as NSString).deletingLastPathComponent
        // Check the deepest folder that exists; those below it will be created as real folders.
        while !folder.isEmpty, !exists(folder) { folder = (folder as NSString).deletingLastPathComponent }
        let expected = folder.isEmpty ? base : base + "/" + folder
        return Self.resolved(folder.isEmpty ? root : absolute(folder)) == expected
    }

    /// Whether the folder is missing or empty (not even hidden files).
    var isEmptyOrMissing: Bool {
        guard let items = try? FileManager.default.contentsOfDirectory(atPath: root) else { return !exists("") }
        return items.isEmpty
    }

    /// Removes the file at `relative` and each folder it leaves empty (never the site folder).
    func remove(_ relative: String) {
        unlink(absolute(relative))
        var folder = (relative as NSString).deletingLastPathComponent
        while !folder.isEmpty, rmdir(absolute(folder)) == 0 {
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// Removes the site's own temporary files left by a killed run: in the folder of each path
    /// of `targets`, only temporaries (``TemporaryFileName``, as `FileIO.writeAtomically` and the
    /// image linking name them) of that path's file name, and only when the writer was a process
    /// of this host that is gone or the file is older than `OutputFolder.staleTempAge`. Returns how many
    /// were removed.
    @discardableResult
    func removeOwnTemporaries(for targets: Set<String>, now: Date = Date()) -> Int {
        var byFolder: [String: Set<String>] = [:]
        for target in targets where target == SiteManifest.fileName || isInside(target) {
            byFolder[(target as NSString).deletingLastPathComponent, default: []]
                .insert((target as NSString).lastPathComponent)
        }
        var count = 0
        for (folder, names) in byFolder {
            let path = folder.isEmpty ? root : absolute(folder)
            guard let items = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
            for item in items {
                guard let temporary = TemporaryFileName(parsing: item), names.contains(temporary.target) else {
                    continue
                }
                let file = path + "/" + item
                var info = stat()
                guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                let age = now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec)
                let writerGone = temporary.writer == .gone
                if writerGone || age > OutputFolder.staleTempAge, unlink(file) == 0 { count += 1 }
            }
        }
        return count
    }

    /// `path` with every symlink resolved, or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
