// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

/// The one helper for tests that need a program, a packaged file or a PyGObject module.
struct ToolRequirementTests {
    @Test func aProgramOnPathOrAnExistingFileIsMetAndAnAbsentOneIsNot() {
        #expect(ToolRequirement.program("sh", package: "dash").isMet)
        #expect(ToolRequirement.find("sh")?.hasSuffix("/sh") == true)
        #expect(ToolRequirement.program("/bin/sh", package: "dash").isMet)
        let absent = ToolRequirement.program("thumbkit-no-such-tool-\(UUID().uuidString)", package: "none")
        #expect(!absent.isMet)
        #expect(!ToolRequirement.file("/nonexistent/\(UUID().uuidString).icc", package: "none").isMet)
        #expect(ToolRequirement.file("/etc/passwd", package: "base-files").isMet)
        #expect(ToolRequirement.missing([absent, .program("sh", package: "dash")]) == [absent])
    }

    @Test func messagesNameTheToolAndItsDebianPackage() throws {
        #expect(ToolRequirement.program("cwebp").description == "cwebp (webp)")
        #expect(ToolRequirement.program("avifenc").package == "libavif-bin")
        #expect(
            ToolRequirement.python(gi: "GLib", version: "2.0", package: "python3-gi").description
                == "/usr/bin/python3 with gi.repository.GLib 2.0 (python3-gi)")
        // Every program the tests name has its package, as TEST_PACKAGES installs it.
        let lib = try String(
            contentsOf: TestImages.packageRoot.appendingPathComponent("scripts/lib.sh"), encoding: .utf8)
        let line = try #require(lib.split(separator: "\n").first { $0.hasPrefix("TEST_PACKAGES=\"") })
        let testPackages = Set(
            line.dropFirst("TEST_PACKAGES=\"".count).dropLast().split(separator: " ").map(String.init))
        #expect(testPackages.contains("webp"))
        for (program, package) in ToolRequirement.packages where !["python3", "setpriv"].contains(program) {
            #expect(testPackages.contains(package), "\(program): \(package)")
        }
    }

    /// What a test with `.needs` does without the tool: out of CI, a NOTICE and false (the trait
    /// has skipped it already); under CI=true, a recorded failure.
    @Test func requiringAnAbsentToolIsFalseAndUnderCIAFailure() {
        let absent = ToolRequirement.program("thumbkit-no-such-tool-\(UUID().uuidString)", package: "none")
        if TestCorpus.mustExist {
            withKnownIssue { #expect(!ToolRequirement.require([absent])) }
        } else {
            #expect(!ToolRequirement.require([absent]))
        }
        #expect(ToolRequirement.require([.program("sh", package: "dash")]))
    }
}
