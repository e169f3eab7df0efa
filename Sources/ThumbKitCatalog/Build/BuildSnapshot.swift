// SPDX-License-Identifier: Apache-2.0
/// What a build reads from the catalog before it plans: the records it builds, the assets, and
/// the output rows of those records (and of the app, whose rating strips a bug's rows point at).
///
/// A full build reads every record and row. A build of some records reads only theirs, by key,
/// so its cost does not grow with the catalog (a watch folder ingesting its millionth file
/// does the same work as its first).
struct BuildSnapshot {
    var bugs: [Bug]
    var foods: [Food]
    var assets: CatalogAssets
    var rows: [OutputRecord]

    /// Every record and output row.
    static func all(_ tx: CatalogTransaction) throws(CatalogError) -> BuildSnapshot {
        BuildSnapshot(bugs: try tx.bugs(), foods: try tx.foods(), assets: try tx.assets(), rows: try tx.outputs())
    }

    /// The records in `records` that exist, their rows, and the app's rows when a bug is among
    /// them. Reads nothing of any other record.
    static func of(_ records: [RecordRef], _ tx: CatalogTransaction) throws(CatalogError) -> BuildSnapshot {
        var snapshot = BuildSnapshot(bugs: [], foods: [], assets: try tx.assets(), rows: [])
        var seen: Set<RecordRef> = []
        for record in records where seen.insert(record).inserted {
            switch record.kind {
            case .bug:
                guard let bug = try tx.bug(id: record.id) else { continue }
                snapshot.bugs.append(bug)
            case .food:
                guard let food = try tx.food(id: record.id) else { continue }
                snapshot.foods.append(food)
            case .app:
                continue
            }
            snapshot.rows += try tx.outputs(for: record)
        }
        if !snapshot.bugs.isEmpty { snapshot.rows += try tx.outputs(for: .app) }
        snapshot.bugs.sort { $0.id < $1.id }
        snapshot.foods.sort { $0.id < $1.id }
        return snapshot
    }
}
