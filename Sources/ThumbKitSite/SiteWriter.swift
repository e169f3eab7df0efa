// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one run of the site into its folder under the rules of `SiteManifest`: refuses a
/// non-empty folder it cannot prove is a site (unless told to write into it), overwrites only
/// its own unchanged files, removes only its own unchanged files that are no longer wanted, and
/// keeps the manifest saved before the first write and after the last.
struct SiteWriter {
    /// The site folder.
    let site: SiteFolder
    /// The manifest as the run found it: the proof of what was ThumbKit's before this run.
    private let previous: SiteManifest
    /// Relative path → hash of what this run means to write.
    private var planned: [String: String] = [:]
    /// Relative path → hash of what this run wrote, or found already in place and ThumbKit's.
    private var written: [String: String] = [:]
    /// Failures (one line each): foreign files in the way, unsafe paths, write errors.
    private(set) var problems: [String] = []
    /// Files of an earlier run that changed since and were kept.
    private(set) var kept: [String] = []

    /// Opens the site folder `root`, creating it when missing.
    ///
    /// - Throws: `CatalogError.io` when `root` is not empty and has no manifest and
    ///   `intoExisting` is false, or when it cannot be created; `CatalogError.invalidDocument`
    ///   when its manifest is not one.
    init(root: String, intoExisting: Bool) throws(CatalogError) {
        site = SiteFolder(root: root)
        let loaded = try SiteManifest.load(siteRoot: root)
        if loaded == nil, !site.isEmptyOrMissing, !intoExisting {
            throw CatalogError.io(
                path: root,
                reason: "folder is not empty and is not a thumbkit site (no \(SiteManifest.fileName)); "
                    + "choose an empty folder, or pass --into-existing to add the site and leave the files there alone")
        }
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw CatalogError.io(path: root, reason: "cannot create the site folder")
        }
        previous = loaded ?? SiteManifest(id: UUID().uuidString.lowercased(), files: [:])
    }

    /// Plans the run: the hashes of every file to write, removal of the site's own temporaries
    /// left by a killed run, and the manifest saved with both the old and the new contents, so
    /// a run killed from here on leaves only files the next run can prove are its own.
    mutating func begin(texts: [(String, [UInt8])], images: [(String, String)]) throws(CatalogError) {
        for (relative, bytes) in texts { planned[relative] = ContentHash.sha256(of: bytes) }
        for (relative, source) in images {
            do {
                planned[relative] = try ContentHash.sha256(ofFileAt: source)
            } catch {
                problems.append("\(error.description); not put in the site")
            }
        }
        site.removeOwnTemporaries(
            for: Set(planned.keys).union(previous.files.keys).union([SiteManifest.fileName]))
        var provisional = previous
        for (relative, hash) in planned where !(provisional.files[relative] ?? []).contains(hash) {
            provisional.files[relative, default: []].append(hash)
        }
        try provisional.save(siteRoot: site.root)
    }

    /// Whether `relative` must be written for content `hash`: it is missing, or it is ThumbKit's
    /// own earlier file. A file already holding exactly `hash` needs no write; anything else
    /// there (a user's file, a link, a folder) is left alone and reported.
    private mutating func claim(_ relative: String, hash: String) -> Bool {
        guard site.isInside(relative) else {
            problems.append("\(site.absolute(relative)): leads outside the site folder (a symlink); skipped")
            return false
        }
        guard site.exists(relative) else { return true }
        let current = site.hash(relative)
        let ours = current.map { (previous.files[relative] ?? []).contains($0) } ?? false
        if current == hash {
            // Already right. Recorded only when it was ThumbKit's: a user's identical copy stays theirs.
            if ours { written[relative] = hash }
            return false
        }
        if ours { return true }
        problems.append(
            "\(site.absolute(relative)): already there and not written by thumbkit site; left alone")
        return false
    }

    /// Puts the output file `source` at `relative`: a hard link renamed into place, else a copy
    /// written atomically.
    mutating func placeImage(_ relative: String, from source: String) {
        guard let hash = planned[relative], claim(relative, hash: hash) else { return }
        let target = site.absolute(relative)
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            problems.append("\(folder): cannot create folder; \(relative) skipped")
            return
        }
        guard site.isInside(relative) else {
            problems.append("\(target): leads outside the site folder (a symlink); skipped")
            return
        }
        let name = (target as NSString).lastPathComponent
        let temp = folder + "/" + TemporaryFileName.make(for: name)
        if link(source, temp) == 0 {
            if rename(temp, target) == 0 {
                written[relative] = hash
            } else {
                unlink(temp)
                problems.append("\(target): cannot write (\(String(cString: strerror(errno))))")
            }
            return
        }
        do {
            let bytes = try FileIO.read(source)
            try FileIO.writeAtomically(bytes, to: target)
            written[relative] = ContentHash.sha256(of: bytes)
        } catch let error as DecodeError {
            problems.append("\(source): \(error.reason)")
        } catch let error as EncodeError {
            problems.append("\(target): \(error.reason)")
        } catch {
            problems.append("\(target): cannot write")
        }
    }

    /// Writes a page or other text file at `relative`, atomically.
    mutating func writeText(_ relative: String, _ bytes: [UInt8]) {
        guard let hash = planned[relative], claim(relative, hash: hash) else { return }
        do {
            try FileIO.writeAtomically(bytes, to: site.absolute(relative))
            written[relative] = hash
        } catch {
            problems.append("\(site.absolute(relative)): \(error.reason)")
        }
    }

    /// Removes the earlier run's files that this run did not write, when they are provably
    /// ThumbKit's and unchanged, and saves the manifest of what the site now holds.
    mutating func finish() throws(CatalogError) {
        var final = SiteManifest(id: previous.id, files: written.mapValues { [$0] })
        for relative in previous.files.keys.sorted() where written[relative] == nil {
            guard site.isInside(relative) else {
                kept.append("\(SiteGenerator.shown(relative)): not a path inside the site folder; ignored")
                continue
            }
            guard previous.owns(relative, in: site) else {
                if site.exists(relative) {
                    kept.append("\(site.absolute(relative)): changed since thumbkit site wrote it; kept")
                }
                continue
            }
            if planned[relative] != nil {
                // Wanted but not rewritten (a write failed): it is still ThumbKit's.
                final.files[relative] = previous.files[relative]
            } else {
                site.remove(relative)
            }
        }
        try final.save(siteRoot: site.root)
    }
}
