// SPDX-License-Identifier: Apache-2.0
/// What a build reads from the catalog before it plans: the records it builds, the assets, and
/// the output rows of those records (and of the app, whose rating strips a bug's rows point at).
///
/// A full build reads every record and row. A build of some records reads only theirs, by key,
/// so its cost does not grow with the catalog (a watch folder ingesting its millionth file
/// does the same work as its first).
struct BuildSnapshot: Sendable {
    var bugs: [Bug]
    var foods: [Food]
    var assets: CatalogAssets
    var rows: [OutputRecord]
    /// The catalog's id when it has one (read with the assets, in the same query): nil before
    /// the catalog's first build, which then makes it (`CatalogStore.catalogID()`).
    var catalogID: String?

    /// The assets and the catalog id, in one query.
    private static func settings(_ tx: CatalogTransaction) throws(CatalogError) -> (CatalogAssets, String?) {
        let values = try tx.settings(CatalogAssets.keys.map(\.key) + [CatalogTransaction.catalogIDKey])
        return (CatalogAssets(settings: values), values[CatalogTransaction.catalogIDKey])
    }

    /// Every record and output row.
    static func all(_ tx: CatalogTransaction) throws(CatalogError) -> BuildSnapshot {
        let (assets, catalogID) = try settings(tx)
        return BuildSnapshot(
            bugs: try tx.bugs(), foods: try tx.foods(), assets: assets, rows: try tx.outputs(), catalogID: catalogID)
    }

    /// The records in `records` that exist, their rows, and the app's rows when a bug is among
    /// them. Reads nothing of any other record, and each kind's records and rows in one query
    /// (a worker's batch of 4 bugs was 9 reads, one round trip each on PostgreSQL; now 2: the
    /// bugs, then their rows and the app's).
    static func of(_ records: [RecordRef], _ tx: CatalogTransaction) throws(CatalogError) -> BuildSnapshot {
        let (assets, catalogID) = try settings(tx)
        var snapshot = BuildSnapshot(bugs: [], foods: [], assets: assets, rows: [], catalogID: catalogID)
        let bugIDs = Set(records.filter { $0.kind == .bug }.map(\.id)).sorted()
        let foodIDs = Set(records.filter { $0.kind == .food }.map(\.id)).sorted()
        if !bugIDs.isEmpty { snapshot.bugs = try tx.bugs(ids: bugIDs) }
        if !snapshot.bugs.isEmpty {
            snapshot.rows += try tx.outputs(of: .bug, ids: snapshot.bugs.map(\.id), app: true)
        }
        if !foodIDs.isEmpty { snapshot.foods = try tx.foods(ids: foodIDs) }
        if !snapshot.foods.isEmpty { snapshot.rows += try tx.outputs(of: .food, ids: snapshot.foods.map(\.id)) }
        return snapshot
    }

    /// `of([written.ref], tx)` for a record its writer has in hand, as written in `tx`: the
    /// record is not read again, and a record created in `tx` has no rows to read (the schema's
    /// delete triggers remove a record's rows with it, so no row names a new id). The fenced
    /// commit takes these rows as the record's (`PendingCommit.record(in:fenced:)`).
    static func of(written: WrittenRecord, _ tx: CatalogTransaction) throws(CatalogError) -> BuildSnapshot {
        let (assets, catalogID) = try settings(tx)
        var snapshot = BuildSnapshot(bugs: [], foods: [], assets: assets, rows: [], catalogID: catalogID)
        switch written {
        case .bug(let bug, _): snapshot.bugs = [bug]
        case .food(let food, _): snapshot.foods = [food]
        }
        if !written.created { snapshot.rows = try tx.outputs(for: written.ref) }
        if !snapshot.bugs.isEmpty { snapshot.rows += try tx.outputs(for: .app) }
        return snapshot
    }
}
