// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct RatingTests {
    @Test(arguments: [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5])
    func everyHalfStepFromZeroToFiveIsAccepted(value: Double) throws {
        let rating = try #require(Rating(exactly: value))
        #expect(rating.value == value)
        #expect(rating.halfStars == Int(value * 2))
    }

    @Test(arguments: [-0.5, 5.5, 3.3, 0.25, 7, -0.0001, Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude])
    func valuesOffTheHalfStepScaleAreRejected(value: Double) {
        #expect(Rating(exactly: value) == nil)
        let error = catalogError { _ = try Rating.validated(value, for: "bug 3") }
        guard case .invalidRecord(let path, let reason) = error else {
            Issue.record("expected invalidRecord, got \(String(describing: error))")
            return
        }
        #expect(path == "bug 3")
        #expect(reason.hasSuffix("is not between 0 and 5 in steps of 0.5"))
    }

    @Test(arguments: [
        (7.0, "rating 7 is not between 0 and 5 in steps of 0.5"),
        (3.3, "rating 3.3 is not between 0 and 5 in steps of 0.5"),
        (-0.5, "rating -0.5 is not between 0 and 5 in steps of 0.5"),
        (Double.nan, "rating nan is not between 0 and 5 in steps of 0.5"),
    ])
    func theRejectionNamesTheValueAsWritten(value: Double, expected: String) {
        #expect(Rating.rejection(of: value) == expected)
    }

    @Test func ratingsRoundTripThroughJSONAsPlainNumbers() throws {
        let encoded = try JSONEncoder().encode(Rating.all)
        #expect(String(decoding: encoded, as: UTF8.self) == "[0,0.5,1,1.5,2,2.5,3,3.5,4,4.5,5]")
        #expect(try JSONDecoder().decode([Rating].self, from: encoded) == Rating.all)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Rating].self, from: Data("[7]".utf8)) }
    }
}
