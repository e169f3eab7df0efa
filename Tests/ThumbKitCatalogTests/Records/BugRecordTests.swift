// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct BugRecordTests {
    @Test func aNewBugHasRatingZeroAndMatchingTimes() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let bug = try store.write { try $0.addBug(title: "Potato Bug") }
        #expect(bug.rating == .zero)
        #expect(bug.image == nil)
        #expect(bug.createdAt == bug.updatedAt)
        #expect(abs(bug.createdAt.timeIntervalSinceNow) < 60)
    }

    @Test func titlesAreStoredExactlyAsGiven() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let titles = ["../../etc/passwd", " padded ", "日本語", "a\u{0}b", "Quote ' and \" and ;--", "😀"]
        try store.write { tx in for title in titles { try tx.addBug(title: title) } }
        #expect(try store.bugs().map(\.title) == titles)
    }

    @Test(arguments: ["", "   ", "\n"])
    func anEmptyTitleIsRejected(title: String) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let error = catalogError { try store.write { try $0.addBug(title: title) } }
        #expect(error?.reason == "title is empty")
    }

    @Test func aSecondBugWithTheSameTitleIsRejected() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        try store.write { try $0.addBug(title: "Twin") }
        let error = catalogError { try store.write { try $0.addBug(title: "Twin") } }
        if case .invalidRecord = error {
        } else {
            Issue.record("expected invalidRecord, got \(String(describing: error))")
        }
    }

    @Test(arguments: [0, 0.5, 2.5, 5])
    func rateStoresAValidRating(value: Double) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let bug = try store.write { try $0.addBug(title: "B") }
        #expect(try store.rate(bugID: bug.id, rating: value).rating.value == value)
        #expect(try store.bugs().first?.rating.value == value)
    }

    @Test(arguments: [-0.5, 5.5, 3.3, Double.nan, .infinity])
    func rateRejectsAnInvalidRatingAndKeepsTheOldOne(value: Double) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let bug = try store.write { try $0.addBug(title: "B", rating: Rating(exactly: 4)!) }
        let error = catalogError { try store.rate(bugID: bug.id, rating: value) }
        guard case .invalidRecord(let path, let reason) = error else {
            Issue.record("expected invalidRecord, got \(String(describing: error))")
            return
        }
        #expect(path == "bug \(bug.id)")
        #expect(reason.contains("not between 0 and 5 in steps of 0.5"))
        #expect(try store.bugs().first?.rating.value == 4)
    }

    @Test func rateOnAMissingBugIsNotFound() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let error = catalogError { try store.rate(bugID: 42, rating: 1) }
        #expect(error == .notFound(path: "bug 42", reason: "no bug with id 42"))
    }

    @Test func setImageHashesTheFileAndAnUnchangedValueKeepsUpdatedAt() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let path = try workspace.jpeg("img/potato.jpg", seed: 9)
        let bug = try store.write { try $0.addBug(title: "Potato Bug") }
        let withImage = try store.setImage(bugID: bug.id, path: path)
        #expect(withImage.image?.path == path)
        #expect(withImage.image?.sha256 == (try ContentHash.sha256(ofFileAt: path)))
        // A day back: a write now, however soon, would bump it to a different time.
        let dayBefore = withImage.updatedAt.addingTimeInterval(-86_400)
        try store.write { tx in
            _ = try tx.db.run(
                "UPDATE bugs SET updated_at = ? WHERE id = ?",
                [.text(Timestamp.string(from: dayBefore)), .integer(bug.id)])
        }
        let again = try store.setImage(bugID: bug.id, path: path)
        #expect(again.updatedAt == (try store.bugs().first?.updatedAt))
        #expect(abs(again.updatedAt.timeIntervalSince(dayBefore)) < 1)
        #expect(try store.setImage(bugID: bug.id, path: nil).image == nil)
    }

    @Test func setImageOnAMissingFileIsAnIOErrorAndChangesNothing() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let bug = try store.write { try $0.addBug(title: "B") }
        let error = catalogError { try store.setImage(bugID: bug.id, path: workspace.path("gone.jpg")) }
        if case .io = error {} else { Issue.record("expected io, got \(String(describing: error))") }
        #expect(try store.bugs().first?.image == nil)
    }

    @Test func retitleAndDeleteWork() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let (a, b) = try store.write { tx in (try tx.addBug(title: "A"), try tx.addBug(title: "B")) }
        #expect(try store.write { try $0.retitle(bugID: a.id, title: "A2") }.title == "A2")
        #expect(catalogError { try store.write { try $0.retitle(bugID: a.id, title: "B") } } != nil)
        #expect(try store.write { try $0.deleteBug(id: b.id) })
        #expect(try store.bugs().map(\.title) == ["A2"])
    }

    @Test func theSummaryGivesMinMaxAndAverageRatings() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        #expect(try store.summary().ratings == nil)
        try store.write { tx in
            for (title, value) in [("a", 1.0), ("b", 4.5), ("c", 0), ("d", 3.5)] {
                try tx.addBug(title: title, rating: Rating(exactly: value)!)
            }
        }
        let ratings = try #require(try store.summary().ratings)
        #expect(ratings.count == 4)
        #expect(ratings.min == 0 && ratings.max == 4.5)
        #expect(ratings.average == 2.25)
        #expect(try store.summary().bugCount == 4)
    }
}
