// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// A PNG too large for the fast path's everyday budget (`PNGFastRows.maxBytes`) takes it
/// when the heavy-decode slot is free at that moment, holding it while it decodes, and streams
/// through libpng when it is not, never waiting for it: the same pixels either way.
struct PNGHeavySlotTests {
    /// A 2400×2400 opaque PNG: RGB rows of 7,201 bytes, 17.3 MB raw, over the 16 MiB cap.
    static let large: ImageSource = {
        let bytes = try! ImageEncoders.encode(
            GeneratedImages.pixels(width: 2400, height: 2400, seed: 11),
            options: EncodeOptions(format: .png, pngCompression: .fast))
        return try! ImageSource(bytes, path: "large.png")
    }()

    static func render(_ source: ImageSource, slot: HeavyDecodeSlot?, limits: ImageLimits = ImageLimits())
        throws -> Thumbnailer.Rendered
    {
        try Thumbnailer.render(
            source, variants: [ResizeOptions(width: 64, height: 64, mode: .fit)],
            decode: DecodeOptions(limits: limits), shrinkOnLoadMargin: 2, threads: 1, deadline: nil,
            spareSlot: slot)
    }

    @Test func aFreeSlotLetsALargePNGTakeTheFastPathAndIsFreeAgainAfter() throws {
        let source = Self.large
        #expect(PNGFastRows.wantsHeavySlot(source, limits: ImageLimits()))
        let slot = HeavyDecodeSlot()
        let withSlot = try Self.render(source, slot: slot)
        #expect(withSlot.decoder == .libdeflate)
        #expect(slot.tryClaim(), "the render released the slot")
        // Taken (by this test, as by another file's decode): libpng streams it, at once.
        let slotTaken = try Self.render(source, slot: slot)
        #expect(slotTaken.decoder == .libpng)
        slot.release()
        let noSlot = try Self.render(source, slot: nil)
        #expect(noSlot.decoder == .libpng)
        #expect(withSlot.images[0].pixels == noSlot.images[0].pixels)
        #expect(slotTaken.images[0].pixels == noSlot.images[0].pixels)
    }

    @Test func theSlotsBudgetStaysWithinTheLimitsAndItsCap() throws {
        #expect(PNGFastRows.Budget.heavySlot.bytes(ImageLimits()) == PNGFastRows.heavySlotMaxBytes)
        #expect(PNGFastRows.Budget.everyday.bytes(ImageLimits()) == PNGFastRows.maxBytes)
        let tight = ImageLimits(maxPixels: 3_000_000)
        #expect(PNGFastRows.Budget.heavySlot.bytes(tight) == 12_000_000)
        #expect(PNGFastRows.Budget.everyday.bytes(tight) == 12_000_000)
        // A large PNG over a pixel limit whose four bytes a pixel its rows do not fit does not
        // ask for the slot (its decode is refused anyway).
        #expect(!PNGFastRows.wantsHeavySlot(Self.large, limits: tight))
        // A small PNG fits the everyday budget and does not ask for the slot.
        let small = try ImageSource(GeneratedImages.png(width: 300, height: 200, seed: 2), path: "small.png")
        #expect(!PNGFastRows.wantsHeavySlot(small, limits: ImageLimits()))
        #expect(try Self.render(small, slot: nil).decoder == .libdeflate)
    }
}
