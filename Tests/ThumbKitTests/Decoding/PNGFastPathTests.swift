// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@_spi(Fuzzing) @testable import ThumbKit

/// The PNG fast path (libdeflate and ThumbKit's own unfiltering, `PNGFastRows`) against libpng's
/// own reading of the same file: the same rows, the same warnings, the same failures, for every
/// PNG of the corpus and for damaged IDAT data; and the pixel reader's hardening.
struct PNGFastPathTests {
    typealias Read = PNGRowsReading

    static func read(_ data: [UInt8], path: String, fastPath: Bool, options: DecodeOptions = DecodeOptions()) -> Read {
        PNGRowsReading(data, fastPath: fastPath, failOnWarning: options.failOnWarning)
    }

    /// Fails when the fast path's read of `data` differs from libpng's in anything but the path.
    static func expectSameAsLibpng(_ data: [UInt8], path: String) -> DecodePath? {
        var taken: DecodePath?
        for options in [DecodeOptions(), DecodeOptions(failOnWarning: true)] {
            var fast = read(data, path: path, fastPath: true, options: options)
            let libpng = read(data, path: path, fastPath: false, options: options)
            #expect(!libpng.tookFastPath)
            taken = fast.tookFastPath ? .libdeflate : .libpng
            fast.tookFastPath = false
            if fast != libpng {
                switch (fast.result, libpng.result) {
                case (.success(let a), .success(let b)):
                    Issue.record("\(path): first differing byte \(String(describing: firstMismatch(a, b)))")
                default:
                    Issue.record("\(path): fast path \(fast.result), \(fast.warning); libpng \(libpng.result)")
                }
            }
        }
        return taken
    }

    static let pngRows = TestCorpus.rows { $0.format == "png" && !$0.path.hasPrefix("corrupt/big-png/") }

    @Test(.needsCorpus, .tags(.corpus), arguments: pngRows)
    func corpusFileReadsAsLibpngReadsIt(_ row: TestCorpus.Row) throws {
        _ = Self.expectSameAsLibpng(try TestCorpus.bytes(of: row.path), path: row.path)
    }

    /// The bench corpus's large photos and wallpapers (20 files, 5 minutes in a debug build), when
    /// `THUMBKIT_PNG_BENCH_CORPUS` names their folder (e.g. /root/bench-corpus/png). Those over
    /// `PNGFastRows.maxBytes` stream through libpng; each must read as libpng reads it either way.
    @Test(
        .tags(.corpus),
        .enabled(if: ProcessInfo.processInfo.environment["THUMBKIT_PNG_BENCH_CORPUS"] != nil)
    ) func benchCorpusFilesReadAsLibpngReadsThem() throws {
        let folder = ProcessInfo.processInfo.environment["THUMBKIT_PNG_BENCH_CORPUS"] ?? ""
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".png") {
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
            _ = Self.expectSameAsLibpng(data, path: name)
        }
    }

    @Test(.needsCorpus, .tags(.corpus)) func theFastPathReadsMostPlainCorpusFiles() throws {
        guard TestCorpus.requireCorpus() else { return }
        // PngSuite's 8-bit gray, gray+alpha, RGB and RGBA files, every filter type among them.
        let fast = try Self.pngRows.filter {
            Self.read(try TestCorpus.bytes(of: $0.path), path: $0.path, fastPath: true).tookFastPath
        }
        #expect(fast.count >= 20)
        for filter in 0...4 { #expect(fast.contains { $0.path.hasSuffix("f0\(filter)n2c08.png") }) }
    }

    /// A generated RGB PNG that the fast path reads, and the range of its one IDAT chunk's data.
    static func plainPNG() throws -> (bytes: [UInt8], idat: Range<Int>) {
        let bytes = GeneratedImages.png(width: 97, height: 61, seed: 3)
        var pos = 8
        while pos + 12 <= bytes.count {
            let length = bytes[pos..<pos + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[pos + 4..<pos + 8], as: UTF8.self) == "IDAT" {
                return (bytes, pos + 8..<pos + 8 + length)
            }
            pos += 12 + length
        }
        Issue.record("the generated PNG has no IDAT chunk")
        return (bytes, 0..<0)
    }

    /// Rewrites the CRC of the chunk whose data is `data`.
    static func fixCRC(_ bytes: inout [UInt8], data: Range<Int>) {
        LimitTests.put32(&bytes, at: data.upperBound, LimitTests.crc32(bytes[data.lowerBound - 4..<data.upperBound]))
    }

    @Test func damagedIDATDataFallsBackToLibpngAndFailsOrWarnsAsItDoes() throws {
        let (plain, idat) = try Self.plainPNG()
        #expect(Self.expectSameAsLibpng(plain, path: "plain.png") == .libdeflate)
        var damaged: [(String, [UInt8])] = []
        var badCRC = plain
        badCRC[idat.lowerBound + 10] ^= 0x55
        damaged.append(("bad CRC", badCRC))
        var badData = badCRC
        Self.fixCRC(&badData, data: idat)
        damaged.append(("bad deflate data", badData))
        var badAdler = plain
        badAdler[idat.upperBound - 1] ^= 1
        Self.fixCRC(&badAdler, data: idat)
        damaged.append(("bad adler32", badAdler))
        var smallWindow = plain
        smallWindow[idat.lowerBound] = 0x68  // a 16 KB window: zlib's check, not libdeflate's
        smallWindow[idat.lowerBound + 1] = 0x05  // 0x6805 is a multiple of 31
        Self.fixCRC(&smallWindow, data: idat)
        damaged.append(("16 KB window", smallWindow))
        damaged.append(("truncated in IDAT", Array(plain[..<(idat.lowerBound + idat.count / 2)])))
        damaged.append(("no chunk after IDAT", Array(plain[..<(idat.upperBound + 4)])))
        // Extra data after the zlib stream, inside the IDAT chunk.
        var extra = Array(plain[..<idat.upperBound]) + [1, 2, 3] + plain[idat.upperBound...]
        LimitTests.put32(&extra, at: idat.lowerBound - 8, UInt32(idat.count + 3))
        Self.fixCRC(&extra, data: idat.lowerBound..<idat.upperBound + 3)
        damaged.append(("extra data in IDAT", extra))
        for (what, bytes) in damaged {
            #expect(Self.expectSameAsLibpng(bytes, path: what) == .libpng, "\(what)")
        }
    }

    /// A 1×1 8-bit gray PNG whose one row is `filter` and `gray`, in a stored deflate block.
    static func onePixel(filter: UInt8, gray: UInt8) -> [UInt8] {
        let s1 = (1 + Int(filter) + Int(gray)) % 65521
        let s2 = ((1 + Int(filter)) + s1) % 65521
        var zlib: [UInt8] = [0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, filter, gray, 0, 0, 0, 0]
        LimitTests.put32(&zlib, at: zlib.count - 4, UInt32(s2) << 16 | UInt32(s1))
        let ihdr: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]
        return chunked([("IHDR", ihdr), ("IDAT", zlib), ("IEND", [])])
    }

    @Test func aBadFilterTypeFallsBackToLibpng() throws {
        #expect(Self.expectSameAsLibpng(Self.onePixel(filter: 5, gray: 0x80), path: "filter5.png") == .libpng)
        // The same with filter 0 is plain, and the fast path reads it.
        let plain = Self.onePixel(filter: 0, gray: 0x80)
        #expect(Self.expectSameAsLibpng(plain, path: "filter0.png") == .libdeflate)
        #expect(Self.read(plain, path: "filter0.png", fastPath: true).result == .success([0x80, 0x80, 0x80, 255]))
    }

    /// A PNG of the given chunks, each with its length and CRC.
    static func chunked(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks {
            var chunk = [UInt8](repeating: 0, count: 4) + Array(type.utf8) + data + [0, 0, 0, 0]
            LimitTests.put32(&chunk, at: 0, UInt32(data.count))
            LimitTests.put32(&chunk, at: chunk.count - 4, LimitTests.crc32(chunk[4..<chunk.count - 4]))
            bytes += chunk
        }
        return bytes
    }

    @Test func thePixelReaderSkipsChunksThatCannotChangeThePixels() throws {
        // An invalid pCAL (libpng: "pCAL: invalid", a warning when handled) before IDAT: the
        // pixel reader, like the header reader, skips it unread.
        let (plain, idat) = try Self.plainPNG()
        let ihdrEnd = 8 + 25
        let pcal = Self.chunked([("pCAL", Array("abcd".utf8))]).dropFirst(8)
        let bytes = Array(plain[..<ihdrEnd]) + pcal + plain[ihdrEnd...]
        #expect(idat.lowerBound > ihdrEnd)
        for fastPath in [true, false] {
            let read = Self.read(
                bytes, path: "pcal.png", fastPath: fastPath, options: DecodeOptions(failOnWarning: true))
            #expect(read.warning == "")
            #expect(read.result == Self.read(plain, path: "plain.png", fastPath: fastPath).result)
        }
    }
}
