// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

@Suite struct HTTPStatusTests {
    @Test func everyStatusHasAReasonAndAnErrorClassMatchingItsCode() {
        for status in HTTPStatus.allCases {
            #expect(!status.reason.isEmpty)
            #expect((100..<600).contains(status.rawValue))
        }
        #expect(HTTPStatus.tooManyRequests.reason == "Too Many Requests")
    }
}
