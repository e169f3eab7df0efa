import ThumbKit
import ThumbKitCatalog
#if canImport(Glibc)
    import Glibc
#endif

/// Walks the inbox's watched folders (``InboxLayout/isWatchedFolder(_:)``) with
/// `opendir`/`readdir`, reporting entries one at a time, so a folder of any size is walked in
/// constant memory. Dot-entries are skipped without a word (temporary files, `.rejected`, the
/// lock file).
struct InboxScanner {
    /// The inbox folder.
    let root: String

    /// What the walk found.
    enum Visit {
        /// A folder the layout watches, about to be listed (watch it now, so nothing created
        /// during the listing is missed).
        case folder(String)
        /// A regular file.
        case file(String)
        /// Something left alone: a folder outside the layout, a symbolic link, a device.
        case skipped(String, reason: String)
    }

    /// Walks `folder` ("" for the whole inbox) and the watched folders below it. A dot-folder
    /// (`.rejected`) is not walked and not reported.
    func scan(_ folder: String = "", _ visit: (Visit) -> Void) {
        if folder.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { return }
        guard InboxLayout.isWatchedFolder(folder) else {
            visit(.skipped(folder, reason: "folder is outside the layout (bugs/, foods/<category>/)"))
            return
        }
        visit(.folder(folder))
        let full = folder.isEmpty ? root : root + "/" + folder
        guard let dir = opendir(full) else { return }  // Vanished meanwhile: nothing to report.
        defer { closedir(dir) }
        var subfolders: [String] = []
        while let entry = readdir(dir) {
            let name: String
            switch Self.name(of: entry) {
            case .valid(let valid): name = valid
            case .invalid(let shown):
                // No String path can name this file, so it cannot be processed; say so.
                let path = folder.isEmpty ? shown : folder + "/" + shown
                visit(.skipped(path, reason: "the name is not valid UTF-8; rename it to have it ingested"))
                continue
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder.isEmpty ? name : folder + "/" + name
            switch Self.kind(of: entry, at: full + "/" + name) {
            case .folder:
                if InboxLayout.isWatchedFolder(path) {
                    subfolders.append(path)
                } else {
                    visit(.skipped(path, reason: "folder is outside the layout (bugs/, foods/<category>/)"))
                }
            case .file:
                visit(.file(path))
            case .link:
                visit(.skipped(path, reason: "symbolic links are not followed"))
            case .other:
                visit(.skipped(path, reason: "not a regular file"))
            }
        }
        // Subfolders are few (bugs, foods, one per category), so holding their names is cheap.
        for path in subfolders { scan(path, visit) }
    }

    private enum Kind { case folder, file, link, other }

    private static func kind(of entry: UnsafeMutablePointer<dirent>, at path: String) -> Kind {
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_LNK): return .link
        case Int32(DT_UNKNOWN):
            var info = stat()
            guard lstat(path, &info) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            case S_IFLNK: return .link
            default: return .other
            }
        default: return .other
        }
    }

    private enum Name {
        case valid(String)
        /// Not valid UTF-8 (no Swift path API can open it): the name for display, each byte
        /// that is not part of valid UTF-8 written as `\xNN`.
        case invalid(String)
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> Name {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let bytes = raw.prefix { $0 != 0 }
            if let name = String(validating: bytes, as: UTF8.self) { return .valid(name) }
            return .invalid(escapedName(Array(bytes)))
        }
    }

    /// `bytes` as text: valid UTF-8 as it is, every other byte as `\xNN`.
    static func escapedName(_ bytes: [UInt8]) -> String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] {
                    text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
                offset += length
            case .emptyInput:
                break loop
            }
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
