// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

@Suite struct ImgproxyPresetsTests {
    static let file = """
        # thumbnails for the gallery
        thumb=rs:fill:200:200/g:sm

          sharp = q:90/f:webp \r
        both=pr:thumb:sharp
        loop=pr:loop/w:10
        """

    @Test func aPresetsFileParsesIntoNamedOptionLists() throws {
        let presets = try ImgproxyPresets(parsing: Self.file)
        #expect(presets.options.keys.sorted() == ["both", "loop", "sharp", "thumb"])
        #expect(
            presets.options["thumb"] == [
                ImgproxyOption(name: "rs", arguments: ["fill", "200", "200"]),
                ImgproxyOption(name: "g", arguments: ["sm"]),
            ])
        #expect(presets.options["sharp"]?.last == ImgproxyOption(name: "f", arguments: ["webp"]))
    }

    @Test func presetsApplyInPlaceAndLaterOptionsOverrideThem() throws {
        let parser = ImgproxyURLParser(presets: try ImgproxyPresets(parsing: Self.file))
        let r = try parser.parse(path: "/pr:both/w:50/plain/local:///a")
        #expect((r.resizingType, r.width, r.height, r.gravity) == (.fill, 50, 200, .smart))
        #expect(r.quality == 90 && r.format == .webp)
        let before = try parser.parse(path: "/w:50/preset:thumb/plain/local:///a")
        #expect(before.width == 200)
        // The same options written out give the same identifier.
        let spelled = try parser.parse(path: "/rs:fill:50:200/g:sm/q:90/plain/local:///a@webp")
        #expect(spelled.identifier == r.identifier)
    }

    @Test func aPresetThatNamesItselfIsSkippedAsImgproxyDoes() throws {
        let parser = ImgproxyURLParser(presets: try ImgproxyPresets(parsing: Self.file))
        #expect(try parser.parse(path: "/pr:loop/plain/local:///a").width == 10)
    }

    @Test func theDefaultPresetAppliesFirst() throws {
        let presets = try ImgproxyPresets(parsing: "default=q:60/rs:fit:100:100\nbig=w:800")
        let parser = ImgproxyURLParser(presets: presets)
        let plain = try parser.parse(path: "/plain/local:///a")
        #expect((plain.quality, plain.width, plain.height) == (60, 100, 100))
        let overridden = try parser.parse(path: "/q:90/pr:big/plain/local:///a")
        #expect((overridden.quality, overridden.width, overridden.height) == (90, 800, 100))
    }

    @Test func anUnknownPresetInAURLIsA400() {
        let parser = ImgproxyURLParser()
        #expect(throws: ImgproxyError.unknownPreset(name: "nope")) {
            try parser.parse(path: "/pr:nope/plain/local:///a")
        }
        #expect(ImgproxyError.unknownPreset(name: "nope").status == .badRequest)
    }

    @Test(
        arguments: [
            ("thumb", 1, "presets line 1: expected name=option/option"),
            ("a=b=c", 1, "presets line 1: expected name=option/option"),
            ("\n=w:1", 2, "presets line 2: empty preset name"),
            ("a=  ", 1, "presets line 1: empty preset 'a'"),
            ("a=w:1\na=w:2", 2, "presets line 2: preset 'a' is defined twice"),
            ("a=w:1/plain", 1, "presets line 1: 'plain' is not an option name:args"),
            ("ok=w:1\nbad=blur:3", 2, "presets line 2: preset 'bad': unknown option 'blur'"),
            ("bad=pr:missing", 1, "presets line 1: preset 'bad': unknown preset 'missing'"),
            (
                "bad=q:500", 1,
                "presets line 1: preset 'bad': invalid argument '500' for option 'quality': expected an integer 1-100 (0 for the default)"
            ),
        ])
    func badPresetFilesSayWhichLineAndWhy(text: String, line: Int, message: String) {
        let error = #expect(throws: ImgproxyError.self) { try ImgproxyPresets(parsing: text) }
        guard case .invalidPreset(let l, _)? = error else {
            Issue.record("expected invalidPreset, got \(String(describing: error))")
            return
        }
        #expect(l == line)
        #expect(error?.description == message)
    }

    @Test func presetsThatExpandExponentiallyAreCut() throws {
        var lines = ["p0=w:1"]
        for i in 1...12 { lines.append("p\(i)=pr:p\(i - 1):p\(i - 1)") }
        let error = #expect(throws: ImgproxyError.self) { try ImgproxyPresets(parsing: lines.joined(separator: "\n")) }
        guard case .invalidPreset(_, let reason)? = error else {
            Issue.record("expected invalidPreset, got \(String(describing: error))")
            return
        }
        #expect(reason.hasSuffix("presets expand to more than 1000 options"))
    }
}
