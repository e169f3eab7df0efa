// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

extension BuildCommand {
    /// Planning passes in a row that may find the catalog's write lock busy before the build
    /// gives up (each waits up to the catalog's lock timeout, 5 s).
    static let planTries = 12

    /// `builder.planQueue`, tried again while the catalog's write lock stays busy for longer
    /// than the lock timeout.
    ///
    /// Why: every build starts with a planning pass, one write transaction that reads every
    /// record and queues or drops each one with a statement of its own, all under the catalog's
    /// one write lock. Builds started together plan one after another, so the last of four
    /// waits for three passes; on PostgreSQL with 2,000 records on a loaded machine that passed
    /// the 5 s lock timeout, and that build exited 1 having made nothing while the other three
    /// shared its work. A busy lock only means another writer (most often another build's
    /// planning pass, which queues the same records) is at work, so waiting again is right.
    /// `onLocked` gets each refusal's line and the try it ended (1-based). The first try may
    /// use a pass begun since `launched`, the command's start (`PlanningTurn`); a later one
    /// only a pass begun since it, so it never waits for the end of its own failed pass.
    static func planQueue(
        _ builder: CatalogBuilder, _ queue: BuildQueue, now: Date, launched: Date? = nil,
        tries: Int = planTries, onLocked: (String, Int) -> Void
    ) throws -> CatalogBuilder.QueuePlan {
        var attempt = 1
        while true {
            do {
                return try builder.planQueue(queue, now: now, since: attempt == 1 ? launched : Date())
            } catch let error as CatalogError {
                guard case .locked = error, attempt < tries else { throw error }
                onLocked("\(error)", attempt)
                attempt += 1
            }
        }
    }
}
