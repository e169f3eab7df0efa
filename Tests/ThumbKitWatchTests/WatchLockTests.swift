// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

struct WatchLockTests {
    @Test func aSecondLockOnTheSameInboxIsRefusedNamingTheOwner() throws {
        let workspace = try TestWorkspace()
        let first = try WatchLock.acquire(inbox: workspace.root)
        #expect(throws: WatchError.self) { try WatchLock.acquire(inbox: workspace.root) }
        do {
            _ = try WatchLock.acquire(inbox: workspace.root)
        } catch {
            guard case .busy(let path, let reason) = error else {
                Issue.record("expected busy, got \(error)")
                return
            }
            #expect(path == workspace.root)
            #expect(reason.contains("pid \(getpid())"))
        }
        withExtendedLifetime(first) {}
    }

    @Test func aReleasedLockIsTakenAtOnceAndTheFileStays() throws {
        let workspace = try TestWorkspace()
        var first: WatchLock? = try WatchLock.acquire(inbox: workspace.root)
        #expect(first != nil)
        first = nil
        let second = try WatchLock.acquire(inbox: workspace.root)
        let text = try String(contentsOfFile: second.path, encoding: .utf8)
        #expect(text == "\(getpid())\n")
    }

    @Test func aMissingInboxIsAnIOError() {
        #expect(throws: WatchError.self) { try WatchLock.acquire(inbox: "/nonexistent/thumbkit-inbox") }
    }
}
