// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit

@testable import ThumbKitServe

/// imgproxy's resizing types as ThumbKit resizes, from a 640×480 source unless stated.
@Suite struct ImgproxyResizeTests {
    func resize(_ path: String, source: (Int, Int) = (640, 480)) throws -> ResizeOptions {
        try ImgproxyURLParser().parse(path: path + "/plain/local:///a").resizeOptions(
            sourceWidth: source.0, sourceHeight: source.1)
    }

    func box(_ r: ResizeOptions) -> [Int] { [r.width, r.height] }

    @Test func noSizeKeepsTheSourceSize() throws {
        let r = try resize("/rt:fill")
        #expect(box(r) == [640, 480] && r.mode == .fit && !r.upscale)
    }

    @Test func aZeroSideFollowsTheSourceAspect() throws {
        #expect(box(try resize("/rs:fill:320:0")) == [320, 240])
        #expect(box(try resize("/rs:fit:0:120")) == [160, 120])
        // Not enlarged unless asked.
        #expect(box(try resize("/rs:fit:1280:0")) == [640, 480])
        #expect(box(try resize("/rs:fit:1280:0:1")) == [1280, 960])
    }

    @Test func fitFillAndForceMapToTheEngineModes() throws {
        #expect(try resize("/rs:fit:100:100").mode == .fit)
        #expect(try resize("/rs:fill:100:100").mode == .fill)
        let force = try resize("/rs:force:100:50")
        #expect(force.mode == .stretch && box(force) == [100, 50])
        #expect(try resize("/rs:fit:100:100:0:1").mode == .pad)
        #expect(try resize("/rs:fit:100:100:1").upscale)
        #expect(!(try resize("/rs:fit:100:100")).upscale)
    }

    @Test func forceWithoutEnlargeShrinksTheBoxKeepingItsAspect() throws {
        #expect(box(try resize("/rs:force:200:50", source: (100, 100))) == [100, 25])
        #expect(box(try resize("/rs:force:200:50:1", source: (100, 100))) == [200, 50])
        #expect(box(try resize("/rs:force:200:0", source: (400, 100))) == [200, 100])
    }

    @Test func autoFillsWhenTheOrientationsMatchAndFitsOtherwise() throws {
        #expect(try resize("/rs:auto:200:100").mode == .fill)
        #expect(try resize("/rs:auto:100:200").mode == .fit)
        #expect(try resize("/rs:auto:100:200", source: (480, 640)).mode == .fill)
        #expect(try resize("/rs:auto:100:100", source: (480, 640)).mode == .fit)
    }

    @Test func fillDownShrinksABoxLargerThanTheSource() throws {
        #expect(box(try resize("/rs:fill-down:300:300", source: (200, 100))) == [100, 100])
        #expect(box(try resize("/rs:fill-down:100:50", source: (200, 100))) == [100, 50])
        #expect(box(try resize("/rs:fill-down:400:100", source: (200, 100))) == [200, 50])
        let enlarged = try resize("/rs:fill-down:300:300:1", source: (200, 100))
        #expect(box(enlarged) == [300, 300] && enlarged.mode == .fill && enlarged.upscale)
    }

    @Test func dprScalesTheBoxAndBackgroundPads() throws {
        let r = try resize("/rs:fit:100:50:0:1/dpr:2/bg:102030")
        #expect(box(r) == [200, 100] && r.mode == .pad && r.background == RGBA(0x10, 0x20, 0x30))
        #expect(try resize("/rs:fit:100:50:0:1").background == .transparent)
    }
}
