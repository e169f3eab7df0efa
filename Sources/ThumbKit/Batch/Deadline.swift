// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// The moment work on one image must stop: the per-image wall-clock budget (sharp's `timeout`,
/// `ImageLimits.maxSeconds`) turned into a point on the monotonic clock when the image starts.
///
/// Checked where work can stop cleanly and cheaply: libjpeg's progress monitor (every few rows
/// or scans), the PNG reader (every 8 KB of compressed input), each chunk of resampled rows, and
/// between the stages of a batch (read, decode, each resize, encode). A hit is a
/// `DecodeError.overLimit` for that file; the batch goes on.
public struct Deadline: Sendable, Hashable {
    /// `CLOCK_MONOTONIC` nanoseconds at which the deadline passes; `UInt64.max` never does.
    public let nanoseconds: UInt64
    /// The budget it was made from, in seconds (0 for `never`), for the error message.
    public let seconds: Double

    /// A deadline that never passes.
    public static let never = Deadline(nanoseconds: .max, seconds: 0)

    /// `seconds` from now. Zero, a negative or a non-finite budget means no limit (`never`).
    public init(seconds: Double) {
        guard seconds > 0, seconds.isFinite, seconds < 1e9 else {
            self = .never
            return
        }
        self.init(nanoseconds: Self.now() + UInt64(seconds * 1e9), seconds: seconds)
    }

    init(nanoseconds: UInt64, seconds: Double) {
        self.nanoseconds = nanoseconds
        self.seconds = seconds
    }

    /// The monotonic clock the shims read too (`CLOCK_MONOTONIC`, nanoseconds).
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// True once the deadline has passed (never true for `never`, which reads no clock).
    public var hasPassed: Bool {
        nanoseconds != .max && Self.now() >= nanoseconds
    }

    /// Throws `error(path:)` when the deadline has passed.
    public func check(path: String) throws(DecodeError) {
        if hasPassed { throw error(path: path) }
    }

    /// The error for an image that ran out of time: `.overLimit`, naming the budget.
    public func error(path: String) -> DecodeError {
        let budget = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return .overLimit(path: path, reason: "took longer than the time limit of \(budget) s")
    }

    /// The value the C shims take: the same clock in nanoseconds, 0 for no deadline.
    var shimValue: UInt64 { nanoseconds == .max ? 0 : nanoseconds }
}
