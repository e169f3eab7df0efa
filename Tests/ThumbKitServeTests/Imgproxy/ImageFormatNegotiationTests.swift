// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit

@testable import ThumbKitServe

@Suite struct ImageFormatNegotiationTests {
    static let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
    static let firefox = "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
    static let safari17 =
        "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
    static let safari13 = "image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5"
    static let oldFirefox = "image/webp,*/*"

    @Test(
        arguments: [
            ("chrome", chrome, false, ImageFormat.avif), ("firefox", firefox, false, .avif),
            ("safari 17", safari17, false, .avif), ("safari 13", safari13, false, .webp),
            ("firefox 65-91", oldFirefox, false, .webp), ("curl", "*/*", false, .jpeg),
            ("curl, alpha", "*/*", true, .png),
            ("chrome, alpha", chrome, true, .avif), ("webp refused", "image/webp;q=0", false, .jpeg),
            ("avif refused", "image/avif;q=0,image/webp,*/*;q=0.8", false, .webp),
            ("higher q wins", "image/avif;q=0.5,image/webp;q=0.9", false, .webp),
            ("jpeg preferred", "image/jpeg,image/webp;q=0.5", false, .jpeg),
            ("png preferred, alpha", "image/png,image/avif;q=0.4", true, .png),
            ("tie goes to avif", "image/webp;q=0.7,image/avif;q=0.7", false, .avif),
            ("wildcards exclude nothing named", "image/avif,image/*;q=0", false, .avif),
            ("case and spaces", " IMAGE/AVIF ; Q=0.9 , text/html", false, .avif),
            ("bad q skips the range", "image/avif;q=abc", false, .jpeg),
            ("q above 1 skips the range", "image/avif;q=2", false, .jpeg),
            ("nothing acceptable still answers", "text/html", false, .jpeg),
            ("empty", "", true, .png), ("garbage", ";;,,/,a/", false, .jpeg),
        ])
    func browsersGetTheBestFormatTheyName(label: String, accept: String, alpha: Bool, format: ImageFormat) {
        let choice = ImageFormatNegotiation.choose(requested: nil, accept: accept, sourceHasAlpha: alpha)
        #expect(choice.format == format, "\(label)")
        #expect(choice.variesWithAccept)
    }

    @Test func withoutAcceptTheClassicFormatIsChosenAndStillVaries() {
        let choice = ImageFormatNegotiation.choose(requested: nil, accept: nil, sourceHasAlpha: false)
        #expect(choice == ImageFormatNegotiation.Choice(format: .jpeg, variesWithAccept: true))
    }

    @Test func aRequestedFormatIsKeptAndDoesNotVary() {
        let choice = ImageFormatNegotiation.choose(requested: .png, accept: Self.chrome, sourceHasAlpha: false)
        #expect(choice == ImageFormatNegotiation.Choice(format: .png, variesWithAccept: false))
    }

    @Test func theMostSpecificRangeDecidesTheQValue() {
        let ranges = ImageFormatNegotiation.parse("*/*;q=0.1,image/*;q=0.5,image/jpeg;q=0.9")
        #expect(ImageFormatNegotiation.quality(of: "image/jpeg", in: ranges, exactOnly: false) == 0.9)
        #expect(ImageFormatNegotiation.quality(of: "image/png", in: ranges, exactOnly: false) == 0.5)
        #expect(ImageFormatNegotiation.quality(of: "text/plain", in: ranges, exactOnly: false) == 0.1)
        #expect(ImageFormatNegotiation.quality(of: "image/png", in: ranges, exactOnly: true) == 0)
    }
}
