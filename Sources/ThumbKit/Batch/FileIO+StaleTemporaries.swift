import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileIO {
    /// Removes the temporary files that writers killed part-way (SIGKILL, power loss, a crash)
    /// left in `folder`: the dot-files `writeAtomically` names `.<name>.tmp-<pid>-<random>`,
    /// when process `<pid>` no longer exists on this machine. Temporaries of live writers
    /// (another thumbkit working in the same folder) are left alone; a pid that has been reused
    /// keeps its file until a later sweep. Nothing else is ever touched.
    ///
    /// - Returns: the paths removed (empty when the folder does not exist).
    @discardableResult
    public static func removeStaleTemporaries(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = temporaryWriterPID(name), pid != getpid(), !isAlive(pid) else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            var st = stat()
            // Only regular files: a folder that happens to match the pattern is not ours.
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The writer's pid when `name` is a `writeAtomically` temporary (`.<name>.tmp-<pid>-<n>`).
    /// Needs to be in sync with the temporary name `writeAtomically` makes.
    static func temporaryWriterPID(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards),
            marker.lowerBound > name.index(after: name.startIndex)
        else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil
        else { return nil }
        return pid
    }

    /// True when a process with this pid exists (signal 0 probes without sending anything;
    /// EPERM means it exists but belongs to someone else).
    private static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
