// SPDX-License-Identifier: Apache-2.0
import ThumbKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes text: a file descriptor (stdout, stderr) or an in-memory buffer that
/// tests read back with ``text``. Commands write only through ``CommandContext``'s outputs, never
/// with `print`, so tests can capture and split stdout from stderr.
///
/// Writes are unbuffered (one `write(2)` per call) and serialised by a lock, so lines written
/// from concurrent tasks do not interleave mid-line.
final class TextOutput: Sendable, TextOutputStream {
    /// The process's standard output (fd 1).
    static let standardOutput = TextOutput(fileDescriptor: 1)
    /// The process's standard error (fd 2).
    static let standardError = TextOutput(fileDescriptor: 2)

    /// The descriptor written to, or nil for a capturing buffer.
    let fileDescriptor: Int32?
    /// Whether the output is a terminal (decides colour and progress lines).
    let isTerminal: Bool
    /// Captured text (buffers only); also serialises descriptor writes.
    private let buffer = Locked("")

    /// Writes to `fileDescriptor`; `isTerminal` comes from `isatty`.
    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        self.isTerminal = Terminal.isTTY(fileDescriptor)
    }

    /// Captures everything written, for tests. `isTerminal` pretends to be (or not to be) a TTY.
    init(capturingAsTerminal isTerminal: Bool = false) {
        self.fileDescriptor = nil
        self.isTerminal = isTerminal
    }

    /// Everything written so far (always empty for a descriptor).
    var text: String { buffer.withLock { $0 } }

    /// Writes `string` as is (add your own newline).
    func write(_ string: String) {
        buffer.withLock { captured in
            guard let fileDescriptor else {
                captured += string
                return
            }
            Self.writeAll(string, to: fileDescriptor)
        }
    }

    /// Writes `line` and a newline.
    func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Loops over short writes and EINTR; other errors (a closed pipe) drop the text, as
    /// there is nowhere left to report them.
    private static func writeAll(_ string: String, to fd: Int32) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Self.systemWrite(fd, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    private static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(fd, pointer, count)
        #elseif canImport(Musl)
            return Musl.write(fd, pointer, count)
        #else
            return Darwin.write(fd, pointer, count)
        #endif
    }
}
