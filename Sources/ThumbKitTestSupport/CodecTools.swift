// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit

/// The Debian codec tools the modern-format tests use to make and check files (`cwebp`,
/// `img2webp`, `dwebp`, `webpinfo` from `webp`; `heif-enc`, `heif-info` from `libheif-examples`;
/// `avifenc`, `avifdec` from `libavif-bin`). Test files are generated at test time, never committed.
/// A test that runs them carries `.needs(…)` and calls ``ToolRequirement/require(_:sourceLocation:)``.
public enum CodecTools {
    /// What one tool run gave.
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
    }

    /// Runs `name arguments…` to completion; stdout and stderr together in `output`.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRequirement.find(name) ?? name)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Runs a tool that must succeed (a failure is an `Issue` carrying its output).
    public static func mustRun(_ name: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let result = try run(name, arguments)
        if result.status != 0 {
            Issue.record(
                "\(name) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)",
                sourceLocation: sourceLocation)
        }
    }

    /// A TIFF (big-endian) Exif payload holding only an orientation tag, as `avifenc --exif`
    /// takes it and as a JPEG APP1 segment carries it after `Exif\0\0`.
    public static func exifTIFF(orientation: Int) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0]
            + [0, 0, 0, 0]
    }

    /// `jpeg` with an APP1 Exif segment stating `orientation`, inserted after SOI.
    public static func withExifOrientation(_ jpeg: [UInt8], orientation: Int) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + exifTIFF(orientation: orientation)
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }
}
