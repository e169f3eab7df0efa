// SPDX-License-Identifier: Apache-2.0
/// Test seam: counts the header parses made in the current task while a test has set
/// `counter`: every walk over a JPEG's markers (`JPEGMarkers`'s frame header read, each
/// `JPEGScanLayout`) and every WebP or HEIF header read. A test proves with it that a file is
/// parsed once per `ImageSource` and that the decoders take what the source read. Nil (no
/// counting) everywhere else.
enum HeaderParses {
    @TaskLocal static var counter: Locked<Int>?

    static func record() { $counter.add(1) }

    /// How many parses `body` makes (what tests call).
    static func counted(_ body: () throws -> Void) rethrows -> Int { try $counter.counted(body) }
}

/// Test seam: adds up the block visits libjpeg makes while it reads a multi-scan JPEG's scans
/// (`tk_jpeg_rows_begin`, which fails past `TK_JPEG_MAX_SCAN_PASSES` passes over the blocks), in
/// the current task while a test has set `counter`. A test proves with it that a hostile file's
/// cost is bounded by counting work rather than by timing it. Nil (no counting) everywhere else.
enum JPEGBlockVisits {
    @TaskLocal static var counter: Locked<Int>?

    static func record(_ visits: Int) { $counter.add(visits) }

    /// How many block visits `body` makes (what tests call).
    static func counted(_ body: () throws -> Void) rethrows -> Int { try $counter.counted(body) }
}

extension TaskLocal where Value == Locked<Int>? {
    /// Adds `amount` to the counter a test has set in this task; nothing when none is set.
    fileprivate func add(_ amount: Int) {
        get()?.withLock { $0 += amount }
    }

    /// Runs `body` with a fresh counter and returns what it added up.
    fileprivate func counted(_ body: () throws -> Void) rethrows -> Int {
        let counter = Locked(0)
        try withValue(counter) { try body() }
        return counter.withLock { $0 }
    }
}
