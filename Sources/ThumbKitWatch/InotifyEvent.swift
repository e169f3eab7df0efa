// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
#if canImport(Glibc)
    import Glibc
#endif

/// One `struct inotify_event` as read from an inotify descriptor.
public struct InotifyEvent: Sendable, Hashable {
    /// The watch descriptor the event is about.
    public var watch: Int32
    /// `IN_*` bits.
    public var mask: UInt32
    /// Pairs an `IN_MOVED_FROM` with its `IN_MOVED_TO`.
    public var cookie: UInt32
    /// The name inside the watched folder ("" for events about the folder itself).
    public var name: String

    public init(watch: Int32, mask: UInt32, cookie: UInt32, name: String) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }

    /// The fixed part of `struct inotify_event`: wd, mask, cookie, len (four 32-bit fields).
    public static let headerSize = 16

    /// Whether any of `bits` is set.
    public func has(_ bits: Int32) -> Bool { mask & UInt32(bitPattern: bits) != 0 }

    /// Parses the events in `bytes`, the result of one `read(2)` of an inotify descriptor.
    ///
    /// Each record is the 16-byte header followed by `len` bytes of NUL-padded name. Nothing is
    /// trusted: a header or name that runs past the end of the buffer stops the parse and sets
    /// `truncated` (the kernel never does this; the caller treats it like a queue overflow and
    /// rescans). A name that is not valid UTF-8 cannot be a path Foundation can open, so that
    /// event is dropped and counted in `invalidNames`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> (
        events: [InotifyEvent], truncated: Bool, invalidNames: Int
    ) {
        var events: [InotifyEvent] = []
        var offset = 0
        var invalid = 0
        while offset < bytes.count {
            guard bytes.count - offset >= headerSize else { return (events, true, invalid) }
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + headerSize
            guard length <= bytes.count - nameStart else { return (events, true, invalid) }
            var nameBytes = bytes[nameStart..<(nameStart + length)]
            if let nul = nameBytes.firstIndex(of: 0) { nameBytes = nameBytes[..<nul] }
            offset = nameStart + length
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                invalid += 1
                continue
            }
            events.append(InotifyEvent(watch: watch, mask: mask, cookie: cookie, name: name))
        }
        return (events, false, invalid)
    }
}
