import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// A benchmark corpus on disk: `DIR/jpeg/*.jpg` and `DIR/png/*.png` (what `scripts/bench-corpus`
/// writes; any folder with that layout works). Only the headers are read, for sizes.
public struct BenchCorpus: Sendable, Hashable {
    /// One input picture.
    public struct File: Sendable, Hashable {
        /// Absolute path.
        public let path: String
        /// The file name without its extension (the `%s` of every tool's output name).
        public let stem: String
        /// The header: stored size and orientation.
        public let header: ImageHeader

        /// Stored megapixels (width × height / 10⁶).
        public var megapixels: Double { Double(header.width * header.height) / 1e6 }

        public init(path: String, header: ImageHeader) {
            self.path = path
            self.stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            self.header = header
        }
    }

    /// The corpus folder (absolute).
    public let root: String
    /// The files of each set that has any, sorted by name.
    public let sets: [BenchImageSet: [File]]

    public init(root: String, sets: [BenchImageSet: [File]]) {
        self.root = root
        self.sets = sets
    }

    /// The files of `set` (empty when the corpus has none).
    public func files(_ set: BenchImageSet) -> [File] { sets[set] ?? [] }

    /// The folder of `set`.
    public func folder(_ set: BenchImageSet) -> String { (root as NSString).appendingPathComponent(set.folder) }

    /// Reads the headers of `root/jpeg/*.jpg|*.jpeg` and `root/png/*.png`.
    ///
    /// - Throws: ``BenchError/corpus(path:reason:)`` when the folder is missing, holds neither
    ///   set, or a file cannot be read as the format of its set (a benchmark on a broken corpus
    ///   would measure error paths).
    public static func load(root: String) throws(BenchError) -> BenchCorpus {
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
                do throws(DecodeError) {
                    header = try ImageDecoders.readHeader(try FileIO.read(path), path: path)
                } catch {
                    throw .corpus(path: path, reason: error.reason)
                }
                guard header.format == set.format else {
                    throw .corpus(path: path, reason: "is not a \(set.rawValue.uppercased()) file")
                }
                files.append(File(path: path, header: header))
            }
            if !files.isEmpty { sets[set] = files }
        }
        guard !sets.isEmpty else {
            throw .corpus(path: root, reason: "holds no jpeg/*.jpg or png/*.png files")
        }
        return BenchCorpus(root: base, sets: sets)
    }
}
