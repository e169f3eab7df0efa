// SPDX-License-Identifier: Apache-2.0
/// The build queue's hold on a record's row commit (`CatalogBuilder.build(only:commitGuard:)`):
/// `check` runs first in the transaction and throws to refuse the commit (the claim is no longer
/// the worker's; none of the record's rows are then written), `finish` runs last, after the
/// record's own changes (its hash update, which queues it again), with the failures its build
/// met (empty when every output was made) and how many output rows the record has once the
/// commit's are written (so a caller reporting them need not count them again).
///
/// Neither runs for a record that has nothing to commit (its outputs were all current) or that
/// could not be started; the worker finishes those rows itself.
public struct BuildCommitGuard: Sendable {
    /// First in the transaction.
    public let check: @Sendable (_ transaction: CatalogTransaction, _ record: RecordRef) throws -> Void
    /// Last in the transaction.
    public let finish:
        @Sendable (_ transaction: CatalogTransaction, _ record: RecordRef, _ failures: [String], _ outputRows: Int)
            throws -> Void

    /// A worker's batch: the records it holds are committed together there (`CommitBatch`),
    /// and `check`/`finish` run only for a record the batch had to commit alone.
    let batch: CommitBatch?
    /// `check` fences every bug and food it is asked about (it throws unless the record's queue
    /// row is still held under the claim that built it), so a commit it let through need not
    /// read the record again (`PendingCommit.record(in:fenced:)`). False for a guard made by
    /// the public initializer, which promises nothing of the kind.
    let fencesRecords: Bool

    public init(
        check: @escaping @Sendable (CatalogTransaction, RecordRef) throws -> Void,
        finish: @escaping @Sendable (CatalogTransaction, RecordRef, [String], Int) throws -> Void
    ) {
        self.init(check: check, finish: finish, batch: nil)
    }

    init(
        check: @escaping @Sendable (CatalogTransaction, RecordRef) throws -> Void,
        finish: @escaping @Sendable (CatalogTransaction, RecordRef, [String], Int) throws -> Void, batch: CommitBatch?,
        fencesRecords: Bool = false
    ) {
        self.check = check
        self.finish = finish
        self.batch = batch
        self.fencesRecords = fencesRecords
    }
}
