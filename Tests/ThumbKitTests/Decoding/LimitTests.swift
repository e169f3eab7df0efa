// SPDX-License-Identifier: Apache-2.0
import CThumbKit
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// Every resource limit: pixels, width or height, input bytes and the per-image time budget.
/// A limit is checked from the header or the file size before any pixel memory exists, a hit is
/// an `.overLimit` naming the file, and a batch goes on past it.
struct LimitTests {
    /// A small real image, encoded.
    static func encoded(_ format: ImageFormat, width: Int = 16, height: Int = 12) throws -> [UInt8] {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image[x, y] = RGBA(UInt8(x * 15 % 256), UInt8(y * 20 % 256), 90) } }
        return try ImageEncoders.encode(image, options: EncodeOptions(format: format))
    }

    /// A real image whose header is rewritten to declare `width` × `height`; the pixel data
    /// stays that of a 16×12 image, so a decoder that ignored the limit would fail differently
    /// (after allocating the declared size).
    static func declaring(_ format: ImageFormat, width: Int, height: Int) throws -> [UInt8] {
        var bytes = try encoded(format)
        switch format {
        case .png:
            // IHDR data starts at 16: width and height (big-endian), then the chunk's CRC at 29.
            put32(&bytes, at: 16, UInt32(width))
            put32(&bytes, at: 20, UInt32(height))
            put32(&bytes, at: 29, crc32(bytes[12..<29]))
        case .jpeg:
            // SOF0: FF C0, length (2), precision (1), height (2), width (2).
            let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
            bytes[sof + 5] = UInt8(height >> 8)
            bytes[sof + 6] = UInt8(height & 0xFF)
            bytes[sof + 7] = UInt8(width >> 8)
            bytes[sof + 8] = UInt8(width & 0xFF)
        case .webp, .heic, .avif:
            Issue.record("PNG and JPEG only (ModernFormatDecodeTests covers the others)")
        }
        return bytes
    }

    static func put32(_ bytes: inout [UInt8], at i: Int, _ value: UInt32) {
        for k in 0..<4 { bytes[i + k] = UInt8((value >> (24 - 8 * UInt32(k))) & 0xFF) }
    }

    /// The PNG chunk CRC (CRC-32, polynomial 0xEDB88320) over type and data.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A deadline that passed long ago (1 ns after boot), with a 1 s budget for its message.
    static let passed = Deadline(nanoseconds: 1, seconds: 1)

    /// The reason of the `.overLimit` that `body` throws; nil (and an issue) for anything else.
    static func overLimitReason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            Issue.record("expected .overLimit, but nothing was thrown")
        } catch DecodeError.overLimit(_, let reason) {
            return reason
        } catch {
            Issue.record("expected .overLimit, got \(error)")
        }
        return nil
    }

    // MARK: - Pixels

    @Test(arguments: [ImageFormat.png, .jpeg])
    func aHeaderOverThePixelLimitIsRefusedBeforeDecoding(_ format: ImageFormat) throws {
        // 60000 × 60000 = 3.6 gigapixels (14 GB of RGBA): only the header check stands between
        // this and the allocation, and the pixel data behind it would fail the decoder.
        let data = try Self.declaring(format, width: 60000, height: 60000)
        let reason = Self.overLimitReason { _ = try ImageDecoders.decode(data, path: "huge") }
        #expect(reason?.contains("pixel limit of 268402689") == true)
        let render = Self.overLimitReason {
            _ = try Thumbnailer.render(data, path: "huge", variants: [ResizeOptions(width: 8, height: 8)])
        }
        #expect(render != nil)
    }

    @Test func aCustomPixelLimitIsInclusive() throws {
        let data = try Self.encoded(.png)  // 16 × 12 = 192 pixels
        let reason = Self.overLimitReason {
            _ = try ImageDecoders.decode(data, path: "p", options: DecodeOptions(limits: ImageLimits(maxPixels: 191)))
        }
        #expect(reason == "16x12 exceeds the pixel limit of 191 pixels")
        let exact = try ImageDecoders.decode(
            data, path: "p", options: DecodeOptions(limits: ImageLimits(maxPixels: 192)))
        #expect(exact.buffer.width == 16)
    }

    // MARK: - Width or height

    @Test func aPNGWiderThan65500PixelsIsRefusedEvenWithFewPixels() throws {
        let data = try Self.declaring(.png, width: 65501, height: 1)
        let reason = Self.overLimitReason { _ = try ImageDecoders.decode(data, path: "wide") }
        #expect(reason == "65501x1 exceeds the dimension limit of 65500 pixels a side")
    }

    @Test func aJPEGOverLibjpegsOwnCeilingIsAlsoOverLimit() throws {
        let data = try Self.declaring(.jpeg, width: 65535, height: 1)
        #expect(Self.overLimitReason { _ = try ImageDecoders.decode(data, path: "wide") } != nil)
    }

    @Test(arguments: [ImageFormat.png, .jpeg])
    func aCustomDimensionLimitAppliesToTheHeight(_ format: ImageFormat) throws {
        let data = try Self.encoded(format, width: 4, height: 40)
        let options = DecodeOptions(limits: ImageLimits(maxDimension: 39))
        let reason = Self.overLimitReason { _ = try ImageDecoders.decode(data, path: "tall", options: options) }
        #expect(reason == "4x40 exceeds the dimension limit of 39 pixels a side")
    }

    // MARK: - Input bytes

    @Test func aFileOverTheByteLimitIsRefusedFromItsSizeWithoutReadingIt() throws {
        // A sparse 300 MB file: refused from fstat, so the test neither reads nor stores it.
        let dir = try TestBinary.temporaryDirectory("tk-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.jpg").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF])))
        #expect(truncate(path, 300 * 1024 * 1024) == 0)
        let reason = Self.overLimitReason { _ = try FileIO.read(path) }
        #expect(reason == "file is 314572800 bytes, over the limit of 268435456 bytes")
    }

    // MARK: - Time

    @Test func aZeroBudgetMeansNoDeadline() {
        #expect(Deadline(seconds: 0) == .never)
        #expect(Deadline(seconds: -.infinity) == .never && Deadline(seconds: .nan) == .never)
        #expect(!Deadline.never.hasPassed && !ImageLimits(maxSeconds: 0).deadline().hasPassed)
        #expect(Deadline(seconds: 3600).seconds == 3600 && !Deadline(seconds: 3600).hasPassed)
        #expect(Self.passed.hasPassed)
    }

    @Test func limitsSavedWithoutATimeLimitGetTheDefaultOne() throws {
        let old = Data(#"{"maxPixels": 100, "maxDimension": 20, "maxFileBytes": 5000}"#.utf8)
        let limits = try JSONDecoder().decode(ImageLimits.self, from: old)
        #expect(limits == ImageLimits(maxPixels: 100, maxDimension: 20, maxFileBytes: 5000, maxSeconds: 60))
        let again = try JSONDecoder().decode(ImageLimits.self, from: JSONEncoder().encode(ImageLimits(maxSeconds: 2.5)))
        #expect(again.maxSeconds == 2.5)
    }

    @Test func libjpegStopsInItsProgressMonitorOnceTheDeadlineHasPassed() throws {
        let data = try Self.encoded(.jpeg)
        // libjpeg's own check, not Swift's: the shim is driven directly.
        func decode(deadline: UInt64) -> (rc: Int32, width: UInt32, height: UInt32, error: String) {
            data.withUnsafeBufferPointer { src in
                var err = CodecMessage.buffer()
                var warn = CodecMessage.buffer()
                var width: UInt32 = 0, height: UInt32 = 0
                var warnings: Int32 = 0
                guard
                    let rows = tk_jpeg_rows_begin(
                        src.baseAddress, src.count, 8, 1, 0, deadline, &width, &height, nil, &warn, &err)
                else { return (-1, 0, 0, CodecMessage.text(err)) }
                var row = [UInt8](repeating: 0, count: Int(width) * 4)
                for _ in 0..<height where tk_jpeg_rows_next(rows, &row, row.count, &err) != 0 {
                    let error = CodecMessage.text(err)
                    _ = tk_jpeg_rows_finish(rows, &warnings, &warn, &err)
                    return (-1, width, height, error)
                }
                return (tk_jpeg_rows_finish(rows, &warnings, &warn, &err), width, height, CodecMessage.text(err))
            }
        }
        let late = decode(deadline: Self.passed.shimValue)
        #expect(late.rc == -1)
        #expect(late.error == "time limit exceeded")
        // The same decode without a deadline succeeds.
        let ok = decode(deadline: 0)
        #expect(ok.rc == 0 && ok.width == 16 && ok.height == 12)
    }

    /// A row reader over `data` for the length of `body`: the reader keeps the pointer it is
    /// given, so the bytes must stay put (an array passed as a temporary pointer would not).
    /// `body` gets the reader (nil on failure), the size, the passes and the begin's error.
    static func withRowReader<T>(
        _ data: [UInt8], deadline: UInt64,
        _ body: (OpaquePointer?, _ width: UInt32, _ height: UInt32, _ passes: Int32, _ error: String) throws -> T
    ) rethrows -> T {
        try data.withUnsafeBufferPointer { src in
            var err = CodecMessage.buffer()
            var warn = CodecMessage.buffer()
            var width: UInt32 = 0, height: UInt32 = 0
            var passes: Int32 = 0
            let rows = tk_png_rows_begin(
                src.baseAddress, src.count, 0, deadline, &width, &height, &passes, &warn, &err)
            return try body(rows, width, height, passes, CodecMessage.text(err))
        }
    }

    @Test func libpngStopsAtItsNextReadOnceTheDeadlineHasPassed() throws {
        let data = try Self.encoded(.png)
        // The header read is the first read: it is refused.
        Self.withRowReader(data, deadline: Self.passed.shimValue) { rows, _, _, _, error in
            #expect(rows == nil)
            #expect(error == "time limit exceeded")
        }
        // The same call without a deadline starts.
        try Self.withRowReader(data, deadline: 0) { rows, width, height, passes, _ in
            let rows = try #require(rows)
            #expect(width == 16 && height == 12 && passes == 1)
            var err = CodecMessage.buffer()
            var warn = CodecMessage.buffer()
            var row = [UInt8](repeating: 0, count: 16 * 4)
            for _ in 0..<12 { #expect(tk_png_rows_next(rows, &row, row.count, &err) == 0) }
            #expect(tk_png_rows_finish(rows, &warn, &err) == 0)
        }
    }

    @Test func libpngStopsInsideTheImageDataOnceTheDeadlineHasPassed() throws {
        // Noise does not compress, so the image data is read 8 KB at a time, row after row.
        var image = PixelBuffer(width: 512, height: 512)
        var seed: UInt32 = 12345
        for y in 0..<512 {
            for x in 0..<512 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                image[x, y] = RGBA(UInt8(seed >> 24), UInt8((seed >> 16) & 255), UInt8((seed >> 8) & 255))
            }
        }
        let data = try ImageEncoders.encode(image, options: EncodeOptions(format: .png))
        #expect(data.count > 500_000)
        let deadline = Deadline(seconds: 0.2)
        try Self.withRowReader(data, deadline: deadline.shimValue) { rows, _, _, _, _ in
            let rows = try #require(rows)
            // The shim took the deadline by value, as CLOCK_MONOTONIC nanoseconds, and reads
            // that clock itself: no clock can be injected, so the test waits for the deadline
            // it asserts on to pass (0.2 s, checked every 10 ms).
            try #require(pollUntil(timeout: 10, every: 0.01) { deadline.hasPassed }, "the deadline never passed")
            var err = CodecMessage.buffer()
            var warn = CodecMessage.buffer()
            var row = [UInt8](repeating: 0, count: 512 * 4)
            var read = 0
            while read < 512, tk_png_rows_next(rows, &row, row.count, &err) == 0 { read += 1 }
            #expect(read < 512)
            #expect(CodecMessage.text(err) == "time limit exceeded")
            #expect(tk_png_rows_finish(rows, &warn, &err) != 0)
        }
    }

    @Test(arguments: [ImageFormat.png, .jpeg])
    func aDecodePastItsDeadlineIsOverLimitNamingTheBudget(_ format: ImageFormat) throws {
        let data = try Self.encoded(format)
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoders.decode(data, path: "slow", deadline: Self.passed)
        }
        #expect(error == .overLimit(path: "slow", reason: "took longer than the time limit of 1 s"))
    }

    @Test func theResamplerSkipsItsRowsOnceTheDeadlineHasPassed() throws {
        let source = PixelBuffer(width: 64, height: 64, fill: RGBA(200, 100, 50))
        let rect = SourceRect(x: 0, y: 0, width: 64, height: 64)
        let done = Resampler.resample(source, rect: rect, width: 8, height: 8, kernel: .lanczos3, linearLight: false)
        #expect(done.pixels.contains { $0 != 0 })
        let cut = Resampler.resample(
            source, rect: rect, width: 8, height: 8, kernel: .lanczos3, linearLight: false, threads: 2,
            deadline: Self.passed)
        #expect(cut.width == 8 && cut.height == 8 && cut.pixels.allSatisfy { $0 == 0 })
    }

    @Test func theStreamingResamplerAlsoStopsOnceTheDeadlineHasPassed() {
        // One thread: the rows go through a RowSink, checked every chunk of rows.
        let source = PixelBuffer(width: 64, height: 64, fill: RGBA(200, 100, 50))
        let rect = SourceRect(x: 0, y: 0, width: 64, height: 64)
        let cut = Resampler.resample(
            source, rect: rect, width: 8, height: 8, kernel: .lanczos3, linearLight: false, threads: 1,
            deadline: Self.passed)
        #expect(cut.width == 8 && cut.height == 8 && cut.pixels.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [ImageFormat.png, .jpeg])
    func theRowDecodersStopOnceTheDeadlineHasPassed(_ format: ImageFormat) throws {
        let data = try Self.encoded(format)
        var rows = 0
        let error = #expect(throws: DecodeError.self) {
            switch format {
            case .png:
                _ = try ImageDecoders.PNG.decodeRows(
                    ImageSource(data, path: "slow"), options: DecodeOptions(), deadline: Self.passed
                ) { _ in rows += 1 }
            case .jpeg:
                _ = try ImageDecoders.JPEG.decodeRows(
                    ImageSource(data, path: "slow"), options: DecodeOptions(), scaleNumerator: 8, deadline: Self.passed
                ) { _ in rows += 1 }
            case .webp, .heic, .avif:
                Issue.record("PNG and JPEG only: the others have no row decoder")
            }
        }
        #expect(error == .overLimit(path: "slow", reason: "took longer than the time limit of 1 s"))
        #expect(rows <= 1)  // libjpeg may stop before the first row; the row loop after it
        // And a whole thumbnail on one thread (the streaming path) reports the same.
        let render = #expect(throws: DecodeError.self) {
            try Thumbnailer.render(
                data, path: "slow", variants: [ResizeOptions(width: 8, height: 8)], threads: 1, deadline: Self.passed)
        }
        #expect(render == .overLimit(path: "slow", reason: "took longer than the time limit of 1 s"))
    }

    @Test func aBatchOverItsTimeBudgetFailsEachFileAndGoesOn() throws {
        let dir = try TestBinary.temporaryDirectory("tk-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for (name, format) in [("a.png", ImageFormat.png), ("b.jpg", .jpeg), ("c.png", .png)] {
            let path = dir.appendingPathComponent(name).path
            try Data(Self.encoded(format)).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        // A budget of one nanosecond has always run out by the first check, after the read.
        let limits = ImageLimits(maxSeconds: 1e-9)
        let runner = BatchRunner(
            request: ThumbnailRequest(
                resize: ResizeOptions(width: 8, height: 8), decode: DecodeOptions(limits: limits)),
            encoding: EncodeOptions(format: .png), template: OutputTemplate(dir.path + "/out/%s.png"), jobs: 2)
        let report = runner.run(files)
        #expect(report.files == 3 && report.failed == 3)
        #expect(report.items.map(\.error) == files.map { "\($0): took longer than the time limit of 1e-09 s" })
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out"))
    }
}
