// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// Which catalog an output folder belongs to, recorded in a marker file at its top:
/// `OUT/.thumbkit-catalog` holds the id (`CatalogTransaction.catalogID()`) of the catalog whose
/// build first claimed the folder. Only that catalog's builds remove anything there; another
/// catalog's build is refused before it writes.
extension OutputFolder {
    /// The marker's file name.
    package static let markerName = ".thumbkit-catalog"

    /// Who owns the folder, as the marker says.
    enum Ownership: Sendable, Equatable {
        /// The marker names this catalog.
        case own
        /// There is no marker.
        case unclaimed
        /// The marker names another catalog (or cannot be read: `id` is then a reason).
        case other(id: String)
    }

    /// The marker's contents for catalog `id`.
    static func markerText(_ id: String) -> String { "thumbkit-catalog \(id)\n" }

    /// The ownership of the folder for the catalog with id `catalogID`.
    func ownership(catalogID: String) -> Ownership {
        let path = absolute(Self.markerName)
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? .unclaimed : .other(id: "unreadable marker") }
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_size < 4096,
            let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { return .other(id: "unreadable marker") }
        if text == Self.markerText(catalogID) { return .own }
        let id =
            text.hasPrefix("thumbkit-catalog ")
            ? text.dropFirst(17).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        return .other(id: id.isEmpty ? "unreadable marker" : id)
    }

    /// Claims an unclaimed folder for `catalogID`: writes the marker under a temporary name and
    /// links it into place, which fails rather than replaces when a marker appeared meanwhile
    /// (a concurrent build). Returns the ownership afterwards.
    func claim(catalogID: String) throws(CatalogError) -> Ownership {
        let current = ownership(catalogID: catalogID)
        guard current == .unclaimed else { return current }
        let temp = absolute(TemporaryFileName.make(for: String(Self.markerName.dropFirst())))
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CatalogError.io(path: temp, reason: "cannot write the output folder's marker") }
        let bytes = Array(Self.markerText(catalogID).utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        defer { unlink(temp) }
        guard written == bytes.count, synced else {
            throw CatalogError.io(path: temp, reason: "cannot write the output folder's marker")
        }
        if link(temp, absolute(Self.markerName)) != 0, errno != EEXIST {
            throw CatalogError.io(path: absolute(Self.markerName), reason: "cannot write the output folder's marker")
        }
        return ownership(catalogID: catalogID)
    }

    /// Whether a file at `relative` is named as the build names its outputs (so that a sweep
    /// may take it): `ratings/rating-<value>-stars.<tag>[@Nx].png`,
    /// `app/AppIcon.appiconset/icon-<pt>pt.<tag>[@Nx].png`, or
    /// `bugs|foods|app/<id>-<slug>/<recipe>.<tag>[@Nx].jpg|png`, the tag being
    /// `OutputNaming.tagLength` lower-case hex digits.
    static func isBuiltOutputPath(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.last, let base = builtBaseName(name) else { return false }
        if parts.count == 2, parts[0] == "ratings" { return base.hasPrefix("rating-") }
        guard parts.count == 3 else { return false }
        if parts[0] == "app", parts[1] == "AppIcon.appiconset" { return base.hasPrefix("icon-") }
        guard ["bugs", "foods", "app"].contains(parts[0]) else { return false }
        let folder = Array(parts[1].utf8)
        guard let dash = folder.firstIndex(of: UInt8(ascii: "-")), dash > 0,
            folder[..<dash].allSatisfy({ (48...57).contains($0) }),
            OutputNaming.slug(String(parts[1].dropFirst(dash + 1))) == String(parts[1].dropFirst(dash + 1))
        else { return false }
        return OutputNaming.slug(base) == base
    }

    /// The `<base>` of a file named `<base>.<tag>[@<n>x].<jpg|png>`, or nil.
    private static func builtBaseName(_ name: String) -> String? {
        var rest = Substring(name)
        if rest.hasSuffix(".jpg") || rest.hasSuffix(".png") { rest = rest.dropLast(4) } else { return nil }
        if let at = rest.lastIndex(of: "@") {
            let scale = rest[rest.index(after: at)...]
            guard scale.count == 2, scale.last == "x", let digit = scale.first, ("1"..."9").contains(digit) else {
                return nil
            }
            rest = rest[..<at]
        }
        guard let dot = rest.lastIndex(of: ".") else { return nil }
        let tag = rest[rest.index(after: dot)...]
        let base = rest[..<dot]
        guard tag.count == OutputNaming.tagLength,
            tag.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
            let first = base.utf8.first, (48...57).contains(first) || (97...122).contains(first),
            base.utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 46 })
        else { return nil }
        return String(base)
    }
}
