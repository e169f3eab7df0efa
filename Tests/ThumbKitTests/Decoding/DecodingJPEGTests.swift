// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// JPEG decoding: shrink-on-load sizes, entropy-coding variants, CMYK, warnings and the scan cap.
struct DecodingJPEGTests {
    /// A smooth 100×60 colour gradient, encoded by our own encoder.
    static func gradientJPEG(width: Int = 100, height: Int = 60, progressive: Bool = false) throws -> [UInt8] {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBA(UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 90)
            }
        }
        return try ImageEncoders.encode(image, options: EncodeOptions(quality: 90, progressive: progressive))
    }

    @Test(arguments: [
        (0.01, 1), (0.125, 1), (0.126, 2), (0.25, 2), (0.3, 3), (0.375, 3), (0.5, 4), (0.51, 8),
        (0.625, 8), (0.7, 8), (0.8, 8), (0.875, 8), (0.9, 8), (1.0, 8), (2.0, 8),
    ])
    func minimumScalePicksTheSmallestSufficientFastNumerator(_ minimumScale: Double, _ numerator: Int) {
        #expect(ImageDecoders.scaleNumerator(forMinimumScale: minimumScale) == numerator)
    }

    // 100×60 at n/8 is ceil(100n/8) × ceil(60n/8).
    @Test(arguments: [
        (1, 13, 8), (2, 25, 15), (3, 38, 23), (4, 50, 30), (5, 63, 38), (6, 75, 45), (7, 88, 53), (8, 100, 60),
    ])
    func shrinkOnLoadDecodesAtTheDCTScale(_ numerator: Int, _ width: Int, _ height: Int) throws {
        let data = try Self.gradientJPEG()
        let image = try ImageDecoders.JPEG.decode(
            ImageSource(data, path: "g.jpg"), options: DecodeOptions(), scaleNumerator: numerator)
        #expect(image.scaleNumerator == numerator)
        #expect(image.buffer.width == width && image.buffer.height == height)
        #expect(image.header.width == 100 && image.header.height == 60)
        #expect(image.loadScale == Double(numerator) / 8)
        // Still the same picture: little red at the top left, a lot at the bottom right.
        #expect(image.buffer[0, 0].r < 40 && image.buffer[width - 1, height - 1].r > 215)
    }

    // testorig.jpg is 227×149: odd sizes, so every scale rounds up.
    @Test(
        .needsCorpus, .tags(.corpus),
        arguments: [
            (1, 29, 19), (2, 57, 38), (3, 86, 56), (4, 114, 75), (5, 142, 94), (6, 171, 112), (7, 199, 131),
            (8, 227, 149),
        ])
    func shrinkOnLoadRoundsOddSizesUp(_ numerator: Int, _ width: Int, _ height: Int) throws {
        guard TestCorpus.requireCorpus() else { return }
        let path = "jpeg/libjpeg-turbo/testorig.jpg"
        let data = try TestCorpus.bytes(of: path)
        let image = try ImageDecoders.JPEG.decode(
            ImageSource(data, path: path), options: DecodeOptions(), scaleNumerator: numerator)
        #expect(image.buffer.width == width && image.buffer.height == height)
        #expect(ImageDecoders.scaledLength(227, numerator: numerator) == width)
    }

    @Test(
        .needsCorpus, .tags(.corpus),
        arguments: ["plasma_Volna_5120x2880.jpg", "lomiri16_friends_by_Aitzol_Berasategi.jpg"])
    func bigPhotoDecodesAtOneEighth(_ name: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let path = "photos/" + name
        let data = try TestCorpus.bytes(of: path)
        let header = try ImageDecoders.readHeader(data, path: path)
        let image = try ImageDecoders.decode(data, path: path, minimumScale: 0.1)
        #expect(image.scaleNumerator == 1)
        #expect(image.buffer.width == (header.width + 7) / 8 && image.buffer.height == (header.height + 7) / 8)
        #expect(header.isProgressive)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: ["testimgari.jpg", "testimgp.jpg"])
    func arithmeticAndProgressiveFilesMatchTheirBaselineTwin(_ name: String) throws {
        // testimgint, testimgari and testimgp hold the same coefficients, entropy-coded three ways.
        guard TestCorpus.requireCorpus() else { return }
        let folder = "jpeg/libjpeg-turbo/"
        let baseline = try ImageDecoders.decode(try TestCorpus.bytes(of: folder + "testimgint.jpg"), path: "int")
        let other = try ImageDecoders.decode(try TestCorpus.bytes(of: folder + name), path: name)
        #expect(other.buffer == baseline.buffer)
    }

    @Test(.needsCorpus, .tags(.corpus)) func grayscaleJPEGComesOutAsOpaqueGrayRGBA() throws {
        guard TestCorpus.requireCorpus() else { return }
        let path = "jpeg/libjpeg-turbo/testimggray.jpg"
        let image = try ImageDecoders.decode(try TestCorpus.bytes(of: path), path: path, minimumScale: 0.25)
        #expect(image.header.components == 1)
        let p = image.buffer.pixels
        var grayOpaque = true
        for i in stride(from: 0, to: p.count, by: 4) where p[i] != p[i + 1] || p[i] != p[i + 2] || p[i + 3] != 255 {
            grayOpaque = false
        }
        #expect(grayOpaque)
        #expect(Set(p.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)).count > 16)
    }

    @Test(.needsCorpus, .tags(.corpus)) func adobeCMYKTextComesOutInItsInkColours() throws {
        // jpg-cmyk-2.jpg: the words cyan, yellow, magenta and black on white, Adobe-inverted CMYK.
        guard TestCorpus.requireCorpus() else { return }
        let path = "jpeg/jpeg-decoder/jpg-cmyk-2.jpg"
        let image = try ImageDecoders.decode(try TestCorpus.bytes(of: path), path: path)
        #expect(image.header.components == 4)
        #expect(image.buffer[0, 0] == RGBA(255, 255, 255))  // paper stays white, not black
        var darkest = 255
        for y in 0..<image.buffer.height {
            for x in 0..<image.buffer.width {
                let c = image.buffer[x, y]
                darkest = min(darkest, Int(c.r) + Int(c.g) + Int(c.b))
            }
        }
        #expect(darkest < 150)  // the word "black"
    }

    @Test func cmykConversionHandlesBothConventions() {
        // Plain CMYK: 0 ink is white, full K is black, full C is cyan.
        var plain: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 128, 0, 0]
        CMYKConversion.convertToRGBA(&plain, inverted: false)
        #expect(plain == [255, 255, 255, 255, 0, 0, 0, 255, 0, 255, 255, 255, 255, 127, 255, 255])
        // Adobe stores 255 − ink.
        var adobe: [UInt8] = [255, 255, 255, 255, 255, 255, 255, 0, 0, 255, 255, 255, 200, 100, 50, 128]
        CMYKConversion.convertToRGBA(&adobe, inverted: true)
        #expect(adobe == [255, 255, 255, 255, 0, 0, 0, 255, 0, 255, 255, 255, 100, 50, 25, 255])
    }

    @Test func truncatedJPEGDecodesWithAWarningUnlessWarningsAreFatal() throws {
        let data = try Self.gradientJPEG()
        let cut = Array(data.prefix(data.count * 6 / 10))
        let image = try ImageDecoders.decode(cut, path: "cut.jpg")
        #expect(image.buffer.width == 100 && image.buffer.height == 60)
        #expect(image.warnings.first?.contains("premature end") == true)
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoders.decode(cut, path: "cut.jpg", options: DecodeOptions(failOnWarning: true))
        }
        #expect(error == .warning(path: "cut.jpg", reason: image.warnings[0]))
    }

    @Test func progressiveJPEGWithTooManyScansIsRejected() throws {
        // Repeat the last scan of a small progressive file. libjpeg only warns about each
        // repeat ("inconsistent progression sequence"), so without a cap this never ends.
        let data = try Self.gradientJPEG(width: 16, height: 16, progressive: true)
        func repeatingLastScan(_ times: Int) -> [UInt8] {
            let sos = (0..<(data.count - 1)).last { data[$0] == 0xFF && data[$0 + 1] == 0xDA }!
            let scan = data[sos..<(data.count - 2)]
            var out = Array(data[..<(data.count - 2)])
            for _ in 0..<times { out += scan }
            return out + [0xFF, 0xD9]
        }
        let fine = try ImageDecoders.decode(repeatingLastScan(5), path: "p.jpg")
        #expect(!fine.warnings.isEmpty)
        // Each repeat visits every luma block again, and libjpeg calls each an inconsistent
        // progression: 6 passes after the first, it gives up, long before the scan cap (1000).
        let reason =
            "inconsistent progression sequence for component 0 coefficient 1, and more than 6 passes of scans after it"
        for times in [100, 1000] {
            #expect(throws: DecodeError.corrupt(path: "p.jpg", reason: reason)) {
                try ImageDecoders.decode(repeatingLastScan(times), path: "p.jpg")
            }
        }
    }
}
