/// Called by a build first inside each record's row-commit transaction, with the record and the
/// failures its build met (empty when every output was made). The build queue's worker passes
/// one that checks the record's claim is still its own and finishes the queue row in the same
/// transaction (`BuildQueue.finish`); when it throws, none of the record's rows are written.
///
/// It is not called for a record that has nothing to commit (its outputs were all current) or
/// that could not be started; the worker finishes those rows itself.
public typealias BuildCommitGuard =
    @Sendable (_ transaction: CatalogTransaction, _ record: RecordRef, _ failures: [String]) throws -> Void
