// SPDX-License-Identifier: Apache-2.0
/// A batch of an import in a few statements rather than a few per record (issue 14, 3: 100,000
/// records in seconds, on PostgreSQL too, where each statement is a round trip): the records'
/// rows are looked up in one query per kind, the new ones added by multi-row inserts, and only
/// records that change go one by one. The result is what `CatalogImporter.apply`'s record-by-
/// record path makes of the batch, or an error: anything it cannot vouch for (a record the
/// database would refuse, a category that is not there byte for byte) throws, and `apply`
/// undoes the batch and runs that path instead, which reports the bad records.
extension CatalogImporter {
    /// Thrown when a batch holds a record only the record-by-record path can handle.
    private struct NotTogether: Error {}

    /// Adds or updates `bugs` as the record-by-record path would: bugs are matched by exact
    /// title; a new bug keeps its `id` when no bug has it (nor an earlier record of the batch).
    func together(_ bugs: ArraySlice<ImportPlan.Bug>, in tx: CatalogTransaction) throws -> ImportReport.Counts {
        var counts = ImportReport.Counts()
        let existing = Dictionary(
            try tx.bugs(titled: bugs.map(\.title)).map { (Array($0.title.utf8), $0) }, uniquingKeysWith: { a, _ in a })
        var taken = try tx.bugIDs(among: bugs.compactMap(\.id))
        var pending: [CatalogTransaction.NewBug] = []
        func flush() throws {
            taken.formUnion(try tx.addBugs(pending))
            counts.added += pending.count
            pending = []
        }
        for bug in bugs {
            if let old = existing[Array(bug.title.utf8)] {
                // In file order: an update's queue entry follows the adds before it.
                try flush()
                if try update(old, as: bug, in: tx) { counts.updated += 1 } else { counts.unchanged += 1 }
                continue
            }
            var id: Int?
            if let wanted = bug.id {
                // The ids the pending adds will pick could be this one: pick them first.
                if pending.contains(where: { $0.id == nil }) { try flush() }
                if !taken.contains(wanted) {
                    id = wanted
                    taken.insert(wanted)
                }
            }
            pending.append(.init(title: bug.title, rating: bug.rating ?? .zero, image: bug.image, id: id))
        }
        try flush()
        return counts
    }

    /// Adds or updates `foods` as the record-by-record path would: foods are matched by exact
    /// category and name; the category must be in the catalog byte for byte.
    func together(_ foods: ArraySlice<ImportPlan.Food>, in tx: CatalogTransaction) throws -> ImportReport.Counts {
        struct Key: Hashable {
            let category: [UInt8]
            let name: [UInt8]
        }
        var counts = ImportReport.Counts()
        let categories = Dictionary(
            try tx.categories().map { (Array($0.name.utf8), $0.id) }, uniquingKeysWith: { a, _ in a })
        let existing = Dictionary(
            try tx.foods(named: foods.map(\.name)).map {
                (Key(category: Array($0.category.utf8), name: Array($0.name.utf8)), $0)
            },
            uniquingKeysWith: { a, _ in a })
        var taken = try tx.foodIDs(among: foods.compactMap(\.id))
        var pending: [CatalogTransaction.NewFood] = []
        func flush() throws {
            taken.formUnion(try tx.addFoods(pending))
            counts.added += pending.count
            pending = []
        }
        for food in foods {
            let category = Array(food.category.utf8)
            if let old = existing[Key(category: category, name: Array(food.name.utf8))] {
                try flush()
                if try update(old, as: food, in: tx) { counts.updated += 1 } else { counts.unchanged += 1 }
                continue
            }
            guard let categoryID = categories[category] else { throw NotTogether() }
            var id: Int?
            if let wanted = food.id {
                if pending.contains(where: { $0.id == nil }) { try flush() }
                if !taken.contains(wanted) {
                    id = wanted
                    taken.insert(wanted)
                }
            }
            pending.append(.init(categoryID: categoryID, name: food.name, image: food.image, id: id))
        }
        try flush()
        return counts
    }
}

extension ImportReport.Counts {
    /// Adds `other`'s counts to these.
    mutating func add(_ other: Self) {
        added += other.added
        updated += other.updated
        unchanged += other.unchanged
    }
}
