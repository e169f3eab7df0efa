// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

/// ``FolderOverlap``: an output folder that is, lies in or holds the inbox.
struct InboxOverlapTests {
    @Test func foldersAreComparedByIdentityThroughLinksAndDotDot() throws {
        let workspace = try TestWorkspace()
        let inbox = workspace.path("inbox")
        try FileManager.default.createDirectory(atPath: inbox + "/bugs", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: workspace.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: workspace.path("link"), withDestinationPath: inbox)
        try FileManager.default.createSymbolicLink(atPath: workspace.path("up"), withDestinationPath: inbox + "/bugs")

        #expect(FolderOverlap.relation(of: inbox, to: inbox) == .same)
        #expect(FolderOverlap.relation(of: inbox + "/", to: inbox) == .same)
        #expect(FolderOverlap.relation(of: workspace.path("link"), to: inbox) == .same)
        #expect(FolderOverlap.relation(of: workspace.path("elsewhere/../inbox"), to: inbox) == .same)
        #expect(FolderOverlap.relation(of: inbox + "/bugs", to: inbox) == .inside)
        #expect(FolderOverlap.relation(of: inbox + "/not/yet/made", to: inbox) == .inside)
        #expect(FolderOverlap.relation(of: workspace.path("link/new"), to: inbox) == .inside)
        // `up/..` is `inbox` to the kernel (up is a link to inbox/bugs), not the workspace.
        #expect(FolderOverlap.relation(of: workspace.path("up/../out"), to: inbox) == .inside)
        #expect(FolderOverlap.relation(of: workspace.root, to: inbox) == .contains)
        #expect(FolderOverlap.relation(of: "/", to: inbox) == .contains)
        #expect(FolderOverlap.relation(of: workspace.path("elsewhere"), to: inbox) == nil)
        #expect(FolderOverlap.relation(of: workspace.path("out"), to: inbox) == nil)
        #expect(FolderOverlap.relation(of: workspace.path("inbox-out"), to: inbox) == nil)
    }
}
