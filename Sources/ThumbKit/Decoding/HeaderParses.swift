// SPDX-License-Identifier: Apache-2.0
/// Test seam: counts the header parses made in the current task while a test has set
/// `counter`: every walk over a JPEG's markers (`JPEGMarkers`'s frame header read, each
/// `JPEGScanLayout`) and every WebP or HEIF header read. A test proves with it that a file is
/// parsed once per `ImageSource` and that the decoders take what the source read. Nil (no
/// counting) everywhere else.
enum HeaderParses {
    @TaskLocal static var counter: Locked<Int>?

    static func record() {
        counter?.withLock { $0 += 1 }
    }

    /// How many parses `body` makes (what tests call).
    static func counted(_ body: () throws -> Void) rethrows -> Int {
        let counter = Locked(0)
        try $counter.withValue(counter) { try body() }
        return counter.withLock { $0 }
    }
}
