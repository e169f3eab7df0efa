// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The name a file has while ThumbKit writes it, before it is renamed or linked into place:
/// `.<name>.tmp-<host>-<pid>-<n>`, in the same folder as `<name>`. `<host>` is 8 hex digits
/// of the writer's host name (``localHost``), `<pid>` its process id and `<n>` a random number.
///
/// The name is how a later run tells a temporary whose writer died (SIGKILL, power loss) from
/// one still being written. A process id only means something on the host that issued it, so
/// on shared storage (NFS, CephFS) a temporary from another host is never judged by its pid:
/// ``writer`` says `.elsewhere` and only its age can mark it stale. Names written before the
/// host was recorded (`.<name>.tmp-<pid>-<n>`) are read as this host's.
package struct TemporaryFileName: Sendable, Equatable {
    /// The file name the temporary becomes.
    package let target: String
    /// The writer's host tag, nil for a name without one (written by an older ThumbKit).
    package let host: String?
    /// The writer's process id on its host (0, never a writer, reads as gone).
    package let pid: pid_t

    /// The longest addition to a name: `.` + `.tmp-` + 8 + `-` + 7 (pid) + `-` + 10 digits.
    package static let maxAddedBytes = 33

    /// This host's tag: FNV-1a of its host name, 8 hex digits (the same for every process).
    package static let localHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count) == 0 ? String(cString: buffer) : ""
        return String(format: "%08x", UInt32(truncatingIfNeeded: FNV1a.hash64(name.utf8)))
    }()

    /// A fresh temporary name for `target` (a file name, no folder) in this process.
    package static func make(for target: String) -> String {
        ".\(target).tmp-\(localHost)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Reads `name` as a temporary's name; nil for any other name.
    package init?(parsing name: String) {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards),
            marker.lowerBound > name.index(after: name.startIndex)
        else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let numbers = parts.suffix(2)
        guard numbers.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let pid = pid_t(numbers[numbers.startIndex]), UInt32(numbers[numbers.startIndex + 1]) != nil
        else { return nil }
        if parts.count == 3 {
            let tag = parts[0]
            guard tag.utf8.count == 8, tag.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            else { return nil }
            host = String(tag)
        } else {
            host = nil
        }
        target = String(name[name.index(after: name.startIndex)..<marker.lowerBound])
        self.pid = pid
    }

    /// What can be known about the writer from here.
    package enum Writer: Sendable, Equatable {
        /// This process: the caller's own file in flight.
        case thisProcess
        /// Another process on this host that still exists (or whose pid was reused).
        case running
        /// No process of that id exists on this host: the writer is gone.
        case gone
        /// Another host wrote it; its pid cannot be checked from here.
        case elsewhere
    }

    /// The writer's state, probed with signal 0 when it is this host's.
    package var writer: Writer {
        if let host, host != Self.localHost { return .elsewhere }
        if pid == 0 { return .gone }
        if pid == getpid() { return .thisProcess }
        // Signal 0 probes without sending anything; EPERM means it exists but is someone else's.
        return kill(pid, 0) == 0 || errno == EPERM ? .running : .gone
    }
}
