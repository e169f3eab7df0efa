// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// One output a build wants: its row key, where its file goes and how it is made.
struct PlannedOutput: Sendable {
    /// How the file comes about.
    enum Maker: Sendable {
        /// Resized from the group's decoded source and encoded; `opaque` flattens it onto the
        /// encode options' background first (app icons).
        case resize(ResizeOptions, EncodeOptions, opaque: Bool)
        /// A rating strip drawn from the rating icons.
        case strip(Rating)
        /// A file another unit makes (the shared rating strip a bug points at); only its row
        /// is written here.
        case attached
    }

    let key: OutputKey
    let kind: OutputKind
    let path: String
    let width: Int?
    let height: Int?
    let format: ImageFormat
    let sourceSHA256: String
    let maker: Maker

    /// Whether `row` (the stored row with this key, if any) already describes this output and
    /// its file is in `folder` with the recorded size.
    func isCurrent(_ row: OutputRecord?, in folder: OutputFolder) -> Bool {
        guard let row, row.path == path, row.sourceSHA256 == sourceSHA256, row.kind == kind, row.format == format
        else { return false }
        if let width, let height, row.width != width || row.height != height { return false }
        return folder.fileSize(path) == row.bytes
    }
}

/// Outputs made from one source: a record's image, the logo, the rating icons, or nothing
/// (attached files).
struct OutputGroup: Sendable {
    enum Source: Sendable {
        /// An image file, read, checked against its recorded hash, decoded once.
        case image(path: String, sha256: String)
        /// The rating icons (already read and hashed while planning).
        case ratingIcons(RatingIconSources)
        /// Nothing to read: the files are made elsewhere.
        case none
        /// The source is set but could not be read while planning (the failure is already
        /// reported): nothing is made and the group's old rows are kept.
        case unavailable
    }

    let source: Source
    /// Every key this group wants, whatever the source's content (a failed group keeps its
    /// old rows under these keys).
    let keys: Set<OutputKey>
    /// The outputs for a source with the given hash (the paths carry a content tag).
    let plan: @Sendable (_ sourceSHA256: String) -> [PlannedOutput]
}

/// Everything one record (or the app's shared files) needs, made and committed together.
struct BuildUnit: Sendable {
    let record: RecordRef
    /// The record's image when planned: the commit skips the record if it changed meanwhile.
    let image: ImageRef?
    /// The record's title or name when planned (its outputs' folder is named after it): the
    /// commit skips the record if it was retitled meanwhile. Nil for the app.
    var title: String? = nil
    let groups: [OutputGroup]
    /// Whether rows of this record under other keys are removed (with their files).
    let removesUnwanted: Bool
    /// Writes the app icon set's `Contents.json` after the icons.
    let writesIconContents: Bool
    /// Whether its current outputs count as "up to date" in the report (not for the strips a
    /// build of some records only checks on the side).
    var countsUpToDate = true

    /// Every key the unit wants.
    var wantedKeys: Set<OutputKey> { groups.reduce(into: []) { $0.formUnion($1.keys) } }

    /// Whether nothing needs doing: every output is current (planned with the recorded hashes),
    /// when the unit removes unwanted rows there are none, and when it writes the icon set's
    /// `Contents.json` that file has the very bytes these icons call for (not merely exists: a
    /// stale one names icons that may be gone).
    func isCurrent(rows: [OutputRecord], folder: OutputFolder) -> (current: Bool, outputs: Int) {
        let byKey = Dictionary(rows.map { ($0.values.key, $0) }, uniquingKeysWith: { first, _ in first })
        var count = 0
        var planned: [PlannedOutput] = []
        for group in groups {
            guard let outputs = group.planned else { return (false, 0) }
            for output in outputs {
                guard output.isCurrent(byKey[output.key], in: folder) else { return (false, 0) }
                count += 1
            }
            planned += outputs
        }
        if removesUnwanted, rows.contains(where: { !wantedKeys.contains($0.values.key) }) { return (false, 0) }
        if writesIconContents, let expected = Self.iconContents(planned), !Self.hasIconContents(expected, in: folder) {
            return (false, 0)
        }
        return (true, count)
    }

    /// The icon set's `Contents.json` naming the icon files among `outputs`, or nil when there
    /// are none. The one place its bytes are worked out, for the build that writes it and the
    /// check that it is current.
    static func iconContents(_ outputs: [PlannedOutput]) -> Data? {
        var names: [AppIcon.File: String] = [:]
        for output in outputs where output.kind == .icon {
            if let file = AppIcon.files.first(where: {
                $0.identifier == output.key.recipe && $0.scale == output.key.scale
            }) {
                names[file] = (output.path as NSString).lastPathComponent
            }
        }
        guard !names.isEmpty else { return nil }
        return AppIcon.contentsJSON(fileNames: names)
    }

    /// Whether `folder`'s `Contents.json` holds exactly `contents`.
    static func hasIconContents(_ contents: Data, in folder: OutputFolder) -> Bool {
        guard let existing = try? FileIO.read(folder.absolute(AppIcon.contentsPath), maxBytes: contents.count + 1)
        else { return false }
        return existing.elementsEqual(contents)
    }
}

extension OutputGroup {
    /// The outputs planned with the hash known before reading anything (nil when the source
    /// has none yet).
    var planned: [PlannedOutput]? {
        switch source {
        case .image(_, let sha256): return plan(sha256)
        case .ratingIcons(let icons): return plan(icons.sha256)
        case .none: return plan("")
        case .unavailable: return nil
        }
    }
}
