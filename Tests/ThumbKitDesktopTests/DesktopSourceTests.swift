// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitDesktop

#if canImport(Glibc)
    import Glibc
#endif

/// What the cache writer makes of awkward sources (issue 27, items 9 to 11): names that are not
/// UTF-8, formats other than PNG and JPEG, and damaged files that a lenient decode would turn
/// into a plausible grey thumbnail.
struct DesktopSourceTests {
    /// Creates `folder/<name bytes>` through `open(2)` on the raw bytes; returns its path as a
    /// `PathBytes` string.
    static func create(_ folder: String, name: [UInt8], _ contents: [UInt8]) throws -> String {
        let path = PathBytes.string(PathBytes.bytes(folder) + [0x2F] + name)
        let fd = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == contents.count)
        return path
    }

    static let latin1: [UInt8] = Array("caf".utf8) + [0xE9]

    @Test func aNameThatIsNotUTF8GetsItsThumbnailUnderItsByteURI() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let path = try Self.create(f.sources, name: Self.latin1 + Array(".png".utf8), GeneratedImages.png(seed: 1))
        #expect(f.thumbnailer().process(path) == .written([.normal, .large]))
        let uri = FileURI.uri(forAbsolutePath: PathBytes.bytes(path))
        #expect(uri.hasSuffix("/caf%E9.png"))
        let file = f.cache.path(forURI: uri, size: .normal)
        let text = try PNGTextChunks.read(try #require(DesktopFixture.bytes(file)), path: file)
        #expect(text["Thumb::URI"] == uri)
    }

    @Test func aDamagedFileWhoseNameIsNotUTF8GetsAFailureEntry() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let path = try Self.create(f.sources, name: Self.latin1 + Array(".jpg".utf8), [0xFF, 0xD8, 0xFF, 0xE0, 0, 16])
        guard case .failed(let message, let entry) = f.thumbnailer().process(path) else {
            Issue.record("not a failure")
            return
        }
        #expect(entry, "\(message)")
        #expect(!message.contains("no such file"), "\(message)")
        let uri = FileURI.uri(forAbsolutePath: PathBytes.bytes(path))
        #expect(DesktopFixture.exists(f.cache.failurePath(forURI: uri)))
        // Known from now on: not retried until its mtime changes.
        #expect(f.thumbnailer().process(path) == .knownFailure)
    }

    @Test(arguments: [
        (ImageFormat.webp, "image/webp"), (.avif, "image/avif"), (.png, "image/png"), (.jpeg, "image/jpeg"),
    ])
    func theMimetypeIsTheSourcesOwn(format: ImageFormat, mimeType: String) throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let image = GeneratedImages.pixels(width: 40, height: 30, seed: 3)
        let path = try f.write(
            "a." + format.fileExtension, ImageEncoders.encode(image, options: EncodeOptions(format: format)))
        #expect(f.thumbnailer().process(path) == .written([.normal, .large]))
        let uri = FileURI.uri(forAbsolutePath: PathBytes.bytes(path))
        let file = f.cache.path(forURI: uri, size: .normal)
        let text = try PNGTextChunks.read(try #require(DesktopFixture.bytes(file)), path: file)
        #expect(text["Thumb::Mimetype"] == mimeType)
    }

    /// A JPEG cut short decodes to a grey lower part with libjpeg's "premature end" warning:
    /// a desktop thumbnail of it would look valid to every client, so it fails instead, with a
    /// failure entry, as a corrupt one does.
    @Test(arguments: [false, true])
    func aTruncatedJPEGGetsAFailureEntryNotAGreyThumbnail(progressive: Bool) throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let image = GeneratedImages.pixels(width: 640, height: 480, seed: 4)
        let whole = try ImageEncoders.encode(image, options: EncodeOptions(format: .jpeg, progressive: progressive))
        let path = try f.write("cut.jpg", Array(whole.prefix(whole.count * 6 / 10)))
        guard case .failed(let message, let entry) = f.thumbnailer().process(path) else {
            Issue.record("a truncated JPEG got a thumbnail")
            return
        }
        #expect(entry, "\(message)")
        #expect(message.hasPrefix(path + ": "), "\(message)")
        let uri = FileURI.uri(forAbsolutePath: PathBytes.bytes(path))
        #expect(!DesktopFixture.exists(f.cache.path(forURI: uri, size: .normal)))
        #expect(DesktopFixture.exists(f.cache.failurePath(forURI: uri)))
    }

    /// The shipped thumbnailer entry claims every format ThumbKit reads.
    @Test func theShippedEntryClaimsEveryFormatThumbKitReads() throws {
        let entry = try String(
            contentsOf: TestImages.packageRoot.appendingPathComponent("share/thumbnailers/thumbkit.thumbnailer"),
            encoding: .utf8)
        let line = try #require(entry.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let claimed = Set(line.dropFirst("MimeType=".count).split(separator: ";").map(String.init))
        #expect(claimed == Set(ImageFormat.readableMimeTypes))
        #expect(claimed.isSuperset(of: ["image/png", "image/jpeg", "image/webp", "image/heif", "image/avif"]))
    }
}
