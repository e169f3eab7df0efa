// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

/// Says, as a skipped test, when the PostgreSQL cases of the `CatalogBackend.all` suites are
/// left out.
struct CatalogBackendTests {
    @Test(.postgresCasesIncluded)
    func postgresCasesRun() throws {
        try CatalogBackend.checkPostgresCatalogWorks()
    }
}
