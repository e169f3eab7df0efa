import Foundation

/// Turns command-line arguments (files and folders) into the list of files to process.
///
/// A file named explicitly is always attempted (its bytes decide whether it is an image). In a
/// folder, files without an image extension are skipped with a notice; hidden entries are
/// ignored. An argument that yields nothing (missing path, a folder with no images) is a failure
/// for that argument.
public struct InputCollector: Sendable {
    /// Extensions treated as images when walking folders.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe"]

    /// Walk sub-folders too.
    public var recursive: Bool

    public init(recursive: Bool = false) {
        self.recursive = recursive
    }

    /// The outcome: files in argument order (each folder's files sorted by name), notices about
    /// skipped files, and failures for arguments that yielded nothing.
    public struct Result: Sendable {
        public var files: [String] = []
        public var notices: [String] = []
        public var failures: [DecodeError] = []
    }

    public func collect(_ arguments: [String]) -> Result {
        var result = Result()
        let fm = FileManager.default
        for argument in arguments {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDir) else {
                result.failures.append(.unreadable(path: argument, reason: "no such file or directory"))
                continue
            }
            if !isDir.boolValue {
                result.files.append(argument)
                continue
            }
            let before = result.files.count
            walk(argument, into: &result)
            if result.files.count == before {
                result.failures.append(.notAnImage(path: argument, reason: "folder has no PNG or JPEG files"))
            }
        }
        return result
    }

    private func walk(_ dir: String, into result: inout Result) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: dir) else {
            result.failures.append(.unreadable(path: dir, reason: "cannot list folder"))
            return
        }
        let base = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = base + "/" + name
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                if recursive { walk(path, into: &result) }
                continue
            }
            let ext = (name as NSString).pathExtension.lowercased()
            if Self.imageExtensions.contains(ext) {
                result.files.append(path)
            } else {
                result.notices.append("\(path): skipped, not an image extension")
            }
        }
    }
}
