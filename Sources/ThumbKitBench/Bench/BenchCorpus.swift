// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// A benchmark corpus on disk: `DIR/jpeg/*.jpg` and `DIR/png/*.png` (what `scripts/bench-corpus`
/// writes; any folder with that layout works). The headers are read, for sizes, and every file
/// is hashed, for the corpus identity the history compares runs by.
package struct BenchCorpus: Sendable, Hashable {
    /// One input picture.
    package struct File: Sendable, Hashable {
        /// Absolute path.
        package let path: String
        /// The file name without its extension (the `%s` of every tool's output name).
        package let stem: String
        /// The header: stored size and orientation.
        package let header: ImageHeader
        /// The file's length in bytes (0 when not read from disk).
        package let byteCount: Int
        /// The SHA-256 of the file's bytes, lower-case hex (empty when not read from disk).
        package let contentHash: String

        /// Stored megapixels (width × height / 10⁶).
        package var megapixels: Double { Double(header.width * header.height) / 1e6 }

        package init(path: String, header: ImageHeader, byteCount: Int = 0, contentHash: String = "") {
            self.path = path
            self.stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            self.header = header
            self.byteCount = byteCount
            self.contentHash = contentHash
        }
    }

    /// One digest naming exactly the pictures of `set`: SHA-256 over one line per file, in name
    /// order, `name<TAB>byte count<TAB>SHA-256 of the bytes`. Two runs are comparable only on
    /// the same digest. Empty when the set has no files.
    package func identity(of set: BenchImageSet) -> String {
        let files = self.files(set)
        guard !files.isEmpty else { return "" }
        return Self.identity(of: files)
    }

    /// The digest of ``identity(of:)`` over `files`.
    package static func identity(of files: [File]) -> String {
        let lines = files.sorted { $0.path < $1.path }.map {
            "\(($0.path as NSString).lastPathComponent)\t\($0.byteCount)\t\($0.contentHash)\n"
        }
        return ContentHash.sha256(of: Array(lines.joined().utf8))
    }

    /// The corpus folder (absolute).
    package let root: String
    /// The files of each set that has any, sorted by name.
    package let sets: [BenchImageSet: [File]]

    package init(root: String, sets: [BenchImageSet: [File]]) {
        self.root = root
        self.sets = sets
    }

    /// The files of `set` (empty when the corpus has none).
    package func files(_ set: BenchImageSet) -> [File] { sets[set] ?? [] }

    /// The folder of `set`.
    package func folder(_ set: BenchImageSet) -> String { (root as NSString).appendingPathComponent(set.folder) }

    /// Reads the headers of `root/jpeg/*.jpg|*.jpeg` and `root/png/*.png`.
    ///
    /// - Throws: ``BenchError/corpus(path:reason:)`` when the folder is missing, holds neither
    ///   set, or a file cannot be read as the format of its set (a benchmark on a broken corpus
    ///   would measure error paths).
    package static func load(root: String) throws(BenchError) -> BenchCorpus {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        let base = URL(fileURLWithPath: absolute).standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base, isDirectory: &isFolder), isFolder.boolValue else {
            throw .corpus(path: root, reason: "no such folder (build one with scripts/bench-corpus DIR)")
        }
        var sets: [BenchImageSet: [File]] = [:]
        for set in BenchImageSet.allCases {
            let folder = (base as NSString).appendingPathComponent(set.folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let wanted: Set<String> = set == .jpeg ? ["jpg", "jpeg"] : ["png"]
            var files: [File] = []
            for name in names.sorted() where !name.hasPrefix(".") {
                guard wanted.contains((name as NSString).pathExtension.lowercased()) else { continue }
                let path = (folder as NSString).appendingPathComponent(name)
                let header: ImageHeader
                let bytes: [UInt8]
                do throws(DecodeError) {
                    bytes = try FileIO.read(path)
                    header = try ImageDecoders.readHeader(bytes, path: path)
                } catch {
                    throw .corpus(path: path, reason: error.reason)
                }
                guard header.format == set.format else {
                    throw .corpus(path: path, reason: "is not a \(set.rawValue.uppercased()) file")
                }
                files.append(
                    File(
                        path: path, header: header, byteCount: bytes.count,
                        contentHash: ContentHash.sha256(of: bytes)))
            }
            if !files.isEmpty { sets[set] = files }
        }
        guard !sets.isEmpty else {
            throw .corpus(path: root, reason: "holds no jpeg/*.jpg or png/*.png files")
        }
        return BenchCorpus(root: base, sets: sets)
    }
}
