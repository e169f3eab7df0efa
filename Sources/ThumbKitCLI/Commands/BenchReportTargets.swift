// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitBench

/// Where `bench run --json FILE` and `--html FILE` may write. Both replace their file (through
/// `FileIO.writeAtomically`: a temporary name, then a rename), so a file that must not be
/// replaced is refused before the benchmark runs:
///
/// - the benchmark history (`--history`, and its `-wal`, `-shm` and `-journal` companions),
///   which the same run saves into;
/// - any SQLite database (a catalog, another history), known by its 16-byte header;
/// - every picture of the corpus being benchmarked;
/// - the other report (`--json` and `--html` naming one file).
///
/// Files are compared by device and inode, not by name, so another spelling, a symbolic link
/// or a hard link is refused as well. A file that does not exist yet is compared by its folder
/// (device and inode) and its name: `--history new.sqlite --json ./new.sqlite` is refused too.
enum BenchReportTargets {
    /// The first 16 bytes of every SQLite 3 database file.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Refuses a `--json` or `--html` target that names one of the files above.
    static func check(json: String?, html: String?, history: String, corpus: BenchCorpus) throws(UsageError) {
        let pictures = BenchImageSet.allCases.flatMap { corpus.files($0) }.compactMap { Place($0.path) }
        let histories = ["", "-wal", "-shm", "-journal"].compactMap { Place(history + $0) }
        for (option, path) in [("--json", json), ("--html", html)] {
            guard let path, let place = Place(path) else { continue }
            func refuse(_ reason: String) -> UsageError { .invalidValue(option: option, value: path, reason: reason) }
            if histories.contains(place) {
                throw refuse("it is the benchmark history (--history), which this run saves into")
            }
            if isSQLiteDatabase(path) { throw refuse("it is an SQLite database (a catalog or a benchmark history)") }
            if let picture = pictures.firstIndex(of: place) {
                let name = BenchImageSet.allCases.flatMap { corpus.files($0) }[picture].path
                throw refuse("it is a picture of the corpus being benchmarked (\(name))")
            }
            if option == "--html", let json, Place(json) == place { throw refuse("it is also the --json file") }
        }
    }

    /// Whether `path` is a regular file that starts with the SQLite header (nothing else is
    /// opened: reading a FIFO or a terminal would block).
    static func isSQLiteDatabase(_ path: String) -> Bool {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: sqliteHeader.count)).map { Array($0) == sqliteHeader } ?? false
    }

    /// A file, by device and inode; or, for a name that does not exist yet, its folder's device
    /// and inode and its name.
    struct Place: Hashable {
        let device: UInt64
        let inode: UInt64
        let name: String?

        /// Nil when neither the file nor its folder can be looked up.
        init?(_ path: String) {
            var info = stat()
            if PathBytes.withCString(path, { stat($0, &info) }) == 0 {
                (device, inode, name) = (UInt64(info.st_dev), UInt64(info.st_ino), nil)
                return
            }
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            guard PathBytes.withCString(folder, { stat($0, &info) }) == 0 else { return nil }
            (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
            name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        }
    }
}
