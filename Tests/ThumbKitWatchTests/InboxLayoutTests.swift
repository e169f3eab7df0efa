// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

struct InboxLayoutTests {
    @Test(arguments: [
        ("bugs/Potato Bug.jpg", InboxLayout.Entry.image(.bug(title: "Potato Bug"))),
        ("bugs/Moth.PNG", .image(.bug(title: "Moth"))),
        ("bugs/Moth.jpeg", .image(.bug(title: "Moth"))),
        ("bugs/Moth.png.jpg", .image(.bug(title: "Moth.png"))),
        ("bugs/Moth.json", .sidecar(bugTitle: "Moth")),
        ("foods/Chicken/Chicken Marsala.png", .image(.food(category: "Chicken", name: "Chicken Marsala"))),
        ("foods/Pasta/Penne.JPG", .image(.food(category: "Pasta", name: "Penne"))),
        ("bugs/.Moth.jpg.swp", .temporary),
        ("bugs/Moth.jpg.part", .temporary),
        ("foods/Pasta/Penne.jpg.crdownload", .temporary),
        ("foods/Pasta/Penne.TMP", .temporary),
        ("bugs/.syncthing.Moth.jpg.tmp", .temporary),
        (".rejected/Moth.jpg", .hidden),
        ("foods/.trash/Penne.jpg", .hidden),
    ])
    func layoutPathsMapToTheirRecordOrAreLeftAlone(path: String, expected: InboxLayout.Entry) {
        #expect(InboxLayout.classify(path) == expected)
    }

    @Test(arguments: [
        "Moth.jpg", "notes.txt", "bugs/Moth.gif", "bugs/README", "bugs/deep/Moth.jpg", "foods/Penne.jpg",
        "foods/Pasta/Penne.json", "foods/Pasta/Italian/Penne.jpg", "misc/Moth.jpg",
    ])
    func pathsOutsideTheLayoutAreIgnoredWithAReason(path: String) {
        guard case .ignored(let reason) = InboxLayout.classify(path) else {
            Issue.record("\(path) was not ignored: \(InboxLayout.classify(path))")
            return
        }
        // Either notice names every image ThumbKit reads, not just PNG and JPEG.
        #expect(
            reason == "not a .png, .jpg, .jpeg, .webp, .heic, .heif or .avif file"
                || reason == "not bugs/<title>.<image> or foods/<category>/<name>.<image>", "\(reason)")
    }

    @Test(arguments: [
        ("", true), ("bugs", true), ("foods", true), ("foods/Pasta", true), ("foods/Pasta/Italian", false),
        ("bugs/old", false), ("misc", false), (".rejected", false), ("foods/.cache", false),
    ])
    func onlyTheInboxBugsFoodsAndCategoryFoldersAreWatched(folder: String, watched: Bool) {
        #expect(InboxLayout.isWatchedFolder(folder) == watched)
    }

    @Test func temporaryNamesAreDotFilesAndKnownDownloadSuffixes() {
        #expect(InboxLayout.isTemporaryName(".syncthing.a.jpg"))
        #expect(InboxLayout.isTemporaryName("a.jpg.part"))
        #expect(InboxLayout.isTemporaryName("a.jpg.CRDOWNLOAD"))
        #expect(!InboxLayout.isTemporaryName("a.jpg"))
        #expect(!InboxLayout.isTemporaryName("partial.jpg"))
    }

    @Test func theSidecarOfABugSitsBesideItsImage() {
        #expect(InboxLayout.sidecarPath(forBugTitle: "Potato Bug") == "bugs/Potato Bug.json")
        #expect(
            InboxLayout.classify(InboxLayout.sidecarPath(forBugTitle: "Potato Bug")) == .sidecar(bugTitle: "Potato Bug")
        )
    }
}
