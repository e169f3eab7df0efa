// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitCatalogTestSupport

/// Says, as a skipped test of this target, when the PostgreSQL cases of its
/// `CatalogBackend.all` tests are left out (the same note as ThumbKitCatalogTests', so a run
/// of this target alone shows it too).
struct CatalogBackendTests {
    @Test(.postgresCasesIncluded)
    func postgresCasesRun() throws {
        try CatalogBackend.checkPostgresCatalogWorks()
    }
}
