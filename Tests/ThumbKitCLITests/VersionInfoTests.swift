// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumbkit --version` and CHANGELOG.md name the same release.
struct VersionInfoTests {
    @Test func theVersionIsTheNewestReleaseOfTheChangelog() throws {
        let changelog = try String(
            contentsOf: TestImages.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // The first `## [x.y.z]` heading: `## [Unreleased]` names no version.
        let heading = try #require(
            changelog.split(separator: "\n").first { $0.hasPrefix("## [") && $0.dropFirst(4).first?.isNumber == true })
        let version = heading.dropFirst(4).prefix { $0 != "]" }
        #expect(String(version) == VersionInfo.version)
        #expect(VersionInfo.versionLine == "thumbkit \(version)")
    }
}
