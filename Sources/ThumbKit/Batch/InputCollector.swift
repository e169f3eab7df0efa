// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns command-line arguments (files and folders) into the list of files to process.
///
/// A file named explicitly is always attempted (its bytes decide whether it is an image), and
/// `-` stands for the standard input. In a folder, files without an image extension are skipped
/// with a notice; hidden entries are ignored. Names are bytes (see ``PathBytes``): a name that is
/// not valid UTF-8 is walked and opened like any other. With `recursive`, every folder is entered
/// once (by device and inode), so symbolic-link loops end, and the `excludedFolders` (the run's
/// own output folders) are left out with a notice. An argument that yields nothing (missing
/// path, a folder with no images) is a failure for that argument.
package struct InputCollector: Sendable {
    /// Extensions treated as images when walking folders.
    package static var imageExtensions: Set<String> { Set(ImageFormat.fileExtensions.keys) }

    /// Walk sub-folders too.
    package var recursive: Bool
    /// Folders never walked into (compared by device and inode), such as the output folders
    /// of the run, so a second run does not take its own earlier outputs as inputs.
    package var excludedFolders: [String]
    package init(recursive: Bool = false, excludedFolders: [String] = []) {
        self.recursive = recursive
        self.excludedFolders = excludedFolders
    }

    /// The outcome: files in argument order (each folder's files sorted by name), notices about
    /// skipped files, and failures for arguments that yielded nothing.
    package struct Result: Sendable {
        package var files: [String] = []
        /// For each of `files`, its folder relative to the folder argument it was found in
        /// (`a/b`), or empty for a file at the top of a folder argument or named explicitly.
        package var subfolders: [String] = []
        package var notices: [String] = []
        package var failures: [DecodeError] = []
    }

    /// A folder's identity on disk.
    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ st: stat) {
            (device, inode) = (UInt64(st.st_dev), UInt64(st.st_ino))
        }
    }

    /// `stat` of the path the string stands for (following links).
    static func status(_ path: String) -> stat? {
        var st = stat()
        let ok = PathBytes.withCString(path) { stat($0, &st) } == 0
        return ok ? st : nil
    }

    package func collect(_ arguments: [String]) -> Result {
        var result = Result()
        let excluded = Set(excludedFolders.compactMap(Self.status).map(FileID.init))
        for argument in arguments {
            if argument == "-" {
                result.add("-", subfolder: "")
                continue
            }
            guard let st = Self.status(argument) else {
                let reason = String(cString: strerror(errno)).lowercased()
                result.failures.append(.unreadable(path: argument, reason: reason))
                continue
            }
            if (st.st_mode & S_IFMT) != S_IFDIR {
                result.add(argument, subfolder: "")
                continue
            }
            let before = result.files.count
            var visited: Set<FileID> = [FileID(st)]
            let subfolderCount = walk(argument, relative: "", visited: &visited, excluded: excluded, into: &result)
            if result.files.count == before {
                let hint = !recursive && subfolderCount > 0 ? " (it has sub-folders: walk them with -r)" : ""
                let reason = "folder has no \(ImageFormat.readableNames()) files" + hint
                result.failures.append(.notAnImage(path: argument, reason: reason))
            }
        }
        return result
    }

    /// Adds the files of `dir` (and, when recursive, of its sub-folders); returns how many
    /// sub-folders `dir` has.
    private func walk(
        _ dir: String, relative: String, visited: inout Set<FileID>, excluded: Set<FileID>,
        into result: inout Result
    ) -> Int {
        guard let names = Self.names(in: dir) else {
            let reason = String(cString: strerror(errno)).lowercased()
            result.failures.append(.unreadable(path: dir, reason: "cannot list folder: \(reason)"))
            return 0
        }
        let base = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        var subfolders = 0
        for name in names where !name.hasPrefix(".") {
            let path = base + "/" + name
            guard let st = Self.status(path) else {
                let reason = String(cString: strerror(errno)).lowercased()
                result.notices.append("\(path): skipped, \(reason)")
                continue
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                subfolders += 1
                guard recursive else { continue }
                let id = FileID(st)
                if excluded.contains(id) {
                    result.notices.append("\(path): skipped, it is an output folder of this run")
                } else if !visited.insert(id).inserted {
                    result.notices.append("\(path): skipped, a folder already walked (a link loop)")
                } else {
                    _ = walk(
                        path, relative: relative.isEmpty ? name : relative + "/" + name, visited: &visited,
                        excluded: excluded, into: &result)
                }
                continue
            }
            let ext = OutputTemplate.splitExtension(name).ext.lowercased()
            if Self.imageExtensions.contains(ext) {
                result.add(path, subfolder: relative)
            } else {
                result.notices.append("\(path): skipped, not an image extension")
            }
        }
        return subfolders
    }

    /// The entries of a folder (without `.` and `..`), sorted by their bytes; nil when it
    /// cannot be listed (`errno` says why). Uses `readdir`, which gives names as bytes.
    package static func names(in dir: String) -> [String]? {
        guard let handle = PathBytes.withCString(dir, { opendir($0) }) else { return nil }
        defer { closedir(handle) }
        var entries: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            entries.append(name)
        }
        return entries.sorted { $0.lexicographicallyPrecedes($1) }.map { PathBytes.string($0) }
    }
}

extension InputCollector.Result {
    /// Adds `file`, found `subfolder` below its folder argument.
    fileprivate mutating func add(_ file: String, subfolder: String) {
        files.append(file)
        subfolders.append(subfolder)
    }
}
