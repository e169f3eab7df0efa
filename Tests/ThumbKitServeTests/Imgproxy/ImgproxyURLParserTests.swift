// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit

@testable import ThumbKitServe

@Suite struct ImgproxyURLParserTests {
    let parser = ImgproxyURLParser(limits: ImgproxyLimits(maxDimension: 4000, maxDPR: 8))

    func parse(_ path: String) throws(ImgproxyError) -> ImgproxyRequest { try parser.parse(path: path) }

    @Test func resizeSetsTypeSizeEnlargeAndExtend() throws {
        let r = try parse("/rs:fill:300:400:1:1/plain/local:///photos/a.jpg")
        #expect(r.source == .local(path: "/photos/a.jpg"))
        #expect(r.resizingType == .fill)
        #expect((r.width, r.height, r.enlarge, r.extend) == (300, 400, true, true))
        #expect(r.format == nil && r.quality == nil && r.background == nil && r.dpr == 1)
        #expect(r.gravity == .center)
    }

    @Test func theLongNamesAreAliasesOfTheShortOnes() throws {
        let short = try parse(
            "/rs:fit:10:20:1/rt:fill-down/w:30/h:40/el:0/g:no/q:70/dpr:2/f:png/bg:ff0000/plain/local:///a")
        let long = try parse(
            "/resize:fit:10:20:1/resizing_type:fill-down/width:30/height:40/enlarge:0/gravity:no/quality:70"
                + "/dpr:2/format:png/background:ff0000/plain/local:///a")
        let ext = try parse(
            "/s:30:40:0/rt:fill-down/g:no/q:70/dpr:2/ext:png/bg:255:0:0/plain/local:///a")
        #expect(short == long)
        #expect(short == ext)
        #expect(short.resizingType == .fillDown && short.width == 30 && short.height == 40 && !short.enlarge)
        #expect(short.gravity == .north && short.quality == 70 && short.dpr == 2 && short.format == .png)
        #expect(short.background == RGBA(255, 0, 0))
    }

    @Test(arguments: ImgproxyRequest.ResizingType.allCases)
    func everyResizingTypeParses(type: ImgproxyRequest.ResizingType) throws {
        #expect(try parse("/rt:\(type.rawValue)/plain/local:///a").resizingType == type)
    }

    @Test func laterOptionsOverrideEarlierOnesAndEmptyArgumentsKeepTheValue() throws {
        let r = try parse("/w:100/s:200/rs:fill::300/plain/local:///a")
        #expect((r.width, r.height, r.resizingType) == (200, 300, .fill))
        let defaults = try parse("/plain/local:///a")
        #expect((defaults.width, defaults.height, defaults.resizingType, defaults.enlarge) == (0, 0, .fit, false))
    }

    @Test(
        arguments: [
            ("g:ce", ImgproxyGravity.center), ("g:no", .north), ("g:so", .south), ("g:ea", .east),
            ("g:we", .west), ("g:noea", .northEast), ("g:nowe", .northWest), ("g:soea", .southEast),
            ("g:sowe", .southWest), ("g:sm", .smart), ("g:fp:0.25:1", .focusPoint(x: 0.25, y: 1)),
            ("gravity:fp:0:.5", .focusPoint(x: 0, y: 0.5)),
        ])
    func everyGravityParses(option: String, gravity: ImgproxyGravity) throws {
        #expect(try parse("/\(option)/plain/local:///a").gravity == gravity)
    }

    @Test func compassGravityTakesOffsetsAndANewGravityResetsThem() throws {
        let r = try parse("/g:soea:10:-5.5/plain/local:///a")
        #expect(r.gravity == .southEast && r.gravityOffsetX == 10 && r.gravityOffsetY == -5.5)
        let reset = try parse("/g:soea:10:5/g:sm/plain/local:///a")
        #expect(reset.gravity == .smart && reset.gravityOffsetX == 0 && reset.gravityOffsetY == 0)
    }

    @Test func backgroundTakesHexShortHexDecimalOrNothing() throws {
        #expect(try parse("/bg:0a0B0c/plain/local:///a").background == RGBA(10, 11, 12))
        #expect(try parse("/bg:fff/plain/local:///a").background == RGBA(255, 255, 255))
        #expect(try parse("/bg:1:2:3/plain/local:///a").background == RGBA(1, 2, 3))
        #expect(try parse("/bg:1:2:3/bg:/plain/local:///a").background == nil)
    }

    @Test func qualityZeroMeansTheDefaultAsInImgproxy() throws {
        #expect(try parse("/q:0/plain/local:///a").quality == nil)
        #expect(try parse("/q:1/plain/local:///a").quality == 1)
        #expect(try parse("/q:100/plain/local:///a").quality == 100)
    }

    @Test(
        arguments: [
            ("/plain/local:///a@jpg", ImageFormat.jpeg), ("/plain/local:///a@jpeg", .jpeg),
            ("/plain/local:///a@png", .png), ("/plain/local:///a@webp", .webp), ("/plain/local:///a@avif", .avif),
            ("/f:png/plain/local:///a@webp", .webp), ("/plain/local:///a@JPG", .jpeg),
        ])
    func theExtensionSelectsTheFormatAndWinsOverF(path: String, format: ImageFormat) throws {
        #expect(try parse(path).format == format)
    }

    @Test func anEmptyExtensionNegotiates() throws {
        let r = try parse("/plain/local:///a.jpg@")
        #expect(r.format == nil && r.source == .local(path: "/a.jpg"))
    }

    @Test func thePlainSourceIsPercentDecodedAfterSplittingOffTheExtension() throws {
        let r = try parse("/plain/local:///my%20photos/caf%C3%A9%40home+1.jpg@png")
        #expect(r.source == .local(path: "/my photos/café@home+1.jpg"))
        #expect(r.format == .png)
        #expect(try parse("/plain/CATALOG:///2026/x.heic").source == .catalog(path: "/2026/x.heic"))
    }

    @Test func traversalLookingSourcesArePassedThroughForTheCallerToResolve() throws {
        #expect(try parse("/plain/local:///../../etc/passwd").source == .local(path: "/../../etc/passwd"))
        #expect(try parse("/plain/local:///a/%2E%2E/b").source == .local(path: "/a/../b"))
        #expect(try parse("/plain/local:////abs").source == .local(path: "//abs"))
    }

    @Test func aBase64SourceMaySplitAcrossSegmentsAndCarryAnExtension() throws {
        // "local:///photos/curiosity.jpg", split as URL builders do.
        let encoded = Base64URL.encode(Array("local:///photos/curiosity.jpg".utf8))
        #expect(encoded == "bG9jYWw6Ly8vcGhvdG9zL2N1cmlvc2l0eS5qcGc")
        let r = try parse("/rs:fit:10:10/bG9jYWw6Ly8v/cGhvdG9zL2N1/cmlvc2l0eS5qcGc.webp")
        #expect(r.source == .local(path: "/photos/curiosity.jpg") && r.format == .webp && r.width == 10)
        #expect(try parse("/\(encoded)==").source == .local(path: "/photos/curiosity.jpg"))
    }

    @Test func remoteSourcesAreRefusedWithTheirScheme() {
        #expect(throws: ImgproxyError.unsupportedSource(scheme: "http")) {
            try parse("/plain/http://example.com/a.jpg")
        }
        #expect(throws: ImgproxyError.unsupportedSource(scheme: "https")) {
            try parse("/plain/HTTPS://example.com/a.jpg")
        }
        #expect(throws: ImgproxyError.unsupportedSource(scheme: "s3")) { try parse("/plain/s3://bucket/a.jpg") }
        // imgproxy's documented example: http://example.com/images/curiosity.jpg in base64url.
        #expect(throws: ImgproxyError.unsupportedSource(scheme: "http")) {
            try parse("/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        }
        let message = ImgproxyError.unsupportedSource(scheme: "http").description
        #expect(message == "unsupported source scheme 'http': only local:/// and catalog:/// sources are served")
    }

    @Test(
        arguments: [
            "/plain/local:///a%00b", "/plain/local:///a%zz", "/plain/local:///a%4", "/plain/local:///a%",
            "/plain/local:///%C3%28", "/plain/local://host/a", "/plain/local:relative", "/plain/local://",
            "/plain/local:///", "/plain/", "/plain/@png", "/plain/local:///a@png@webp", "/plain/no-scheme.jpg",
            "/!!!", "/bG9jYWw6Ly8vYQ.png.webp", "/bG9jYWw6Ly8vAGE", "/rs:fit:1:1",
        ])
    func badSourcesAreRefused(path: String) {
        let error = #expect(throws: ImgproxyError.self) { try parse(path) }
        guard case .invalidSource? = error else {
            Issue.record("expected invalidSource, got \(String(describing: error))")
            return
        }
    }

    @Test func badSourcesSayWhy() {
        #expect(throws: ImgproxyError.invalidSource(reason: "the source contains a NUL byte")) {
            try parse("/plain/local:///a%00b")
        }
        #expect(throws: ImgproxyError.invalidSource(reason: "invalid percent-encoding or not UTF-8")) {
            try parse("/plain/local:///a%zz")
        }
        #expect(throws: ImgproxyError.invalidSource(reason: "the source is missing")) { try parse("/w:10/h:10") }
    }

    @Test func unknownOptionsAreNamed() {
        #expect(throws: ImgproxyError.unknownOption(name: "blur")) { try parse("/blur:5/plain/local:///a") }
        #expect(throws: ImgproxyError.unknownOption(name: "")) { try parse("/:5/plain/local:///a") }
        #expect(ImgproxyError.unknownOption(name: "blur").description == "unknown option 'blur'")
        #expect(ImgproxyError.unknownOption(name: "blur").status == .badRequest)
    }

    @Test(
        arguments: [
            ("/w:-1/plain/local:///a", "width", "-1"), ("/w:4001/plain/local:///a", "width", "4001"),
            ("/h:99999999999999999999/plain/local:///a", "height", "99999999999999999999"),
            ("/w:+5/plain/local:///a", "width", "+5"), ("/w:1e3/plain/local:///a", "width", "1e3"),
            ("/w: 5/plain/local:///a", "width", " 5"), ("/rs:fill:x/plain/local:///a", "width", "x"),
            ("/q:101/plain/local:///a", "quality", "101"), ("/q:-1/plain/local:///a", "quality", "-1"),
            ("/q:50.5/plain/local:///a", "quality", "50.5"), ("/dpr:0/plain/local:///a", "dpr", "0"),
            ("/dpr:9/plain/local:///a", "dpr", "9"), ("/dpr:nan/plain/local:///a", "dpr", "nan"),
            ("/dpr:inf/plain/local:///a", "dpr", "inf"), ("/dpr:0x1p3/plain/local:///a", "dpr", "0x1p3"),
            ("/el:yes/plain/local:///a", "enlarge", "yes"), ("/rt:crop/plain/local:///a", "resizing_type", "crop"),
            ("/g:middle/plain/local:///a", "gravity", "middle"), ("/g:fp:1.5:0/plain/local:///a", "gravity.x", "1.5"),
            ("/g:fp:0:-0.1/plain/local:///a", "gravity.y", "-0.1"), ("/g:ce:nan/plain/local:///a", "gravity.x", "nan"),
            ("/bg:ggg/plain/local:///a", "background", "ggg"), ("/bg:12345/plain/local:///a", "background", "12345"),
            ("/bg:256:0:0/plain/local:///a", "background.r", "256"), ("/bg:1:2/plain/local:///a", "background", "1:2"),
            ("/ex:1:no/plain/local:///a", "extend", "no"),
        ])
    func badArgumentsNameTheOptionAndTheValue(path: String, option: String, value: String) {
        let error = #expect(throws: ImgproxyError.self) { try parse(path) }
        guard case .invalidArgument(let o, let v, _)? = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(o == option && v == value)
    }

    @Test func aBadArgumentMessageSaysWhatWouldDo() {
        let error = #expect(throws: ImgproxyError.self) { try parse("/q:101/plain/local:///a") }
        #expect(
            error?.description
                == "invalid argument '101' for option 'quality': expected an integer 1-100 (0 for the default)")
    }

    @Test func tooManyArgumentsAreRefused() {
        #expect(throws: ImgproxyError.tooManyArguments(option: "width", count: 1)) {
            try parse("/w:1:2/plain/local:///a")
        }
        #expect(throws: ImgproxyError.tooManyArguments(option: "resize", count: 8)) {
            try parse("/rs:fit:1:2:0:0:ce:0:0:9/plain/local:///a")
        }
        #expect(throws: ImgproxyError.tooManyArguments(option: "gravity", count: 1)) {
            try parse("/g:sm:1/plain/local:///a")
        }
    }

    @Test func unsupportedFormatsAreRefused() {
        #expect(throws: ImgproxyError.unsupportedFormat(name: "gif")) { try parse("/plain/local:///a@gif") }
        #expect(throws: ImgproxyError.unsupportedFormat(name: "heic")) { try parse("/f:heic/plain/local:///a") }
    }

    @Test func dprMultipliesTheBoxWithinTheLimit() throws {
        let r = try parse("/rs:fit:300:0/dpr:1.5/plain/local:///a")
        #expect((r.scaledWidth, r.scaledHeight) == (450, 0))
        #expect(throws: ImgproxyError.self) { try parse("/w:2001/dpr:2/plain/local:///a") }
        #expect(try parse("/w:2000/dpr:2/plain/local:///a").scaledWidth == 4000)
    }

    @Test func theOldBasicFormatAndEmptyPathsAreMalformed() {
        #expect(throws: ImgproxyError.self) { try parse("/fill/300/400/sm/0/aHR0cDovL2E") }
        #expect(throws: ImgproxyError.malformedPath(reason: "nothing after the signature")) { try parse("/") }
    }

    @Test func messagesQuoteAtMost64CharactersAndNoControlCharacters() {
        let long = String(repeating: "x", count: 100)
        #expect(throws: ImgproxyError.unknownOption(name: String(repeating: "x", count: 64) + "…")) {
            try parse("/\(long):1/plain/local:///a")
        }
        #expect(throws: ImgproxyError.unknownOption(name: "a?b")) { try parse("/a\nb:1/plain/local:///a") }
    }
}
