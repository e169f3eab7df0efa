import Testing
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

/// Says, as a skipped test, when the PostgreSQL cases of the `CatalogBackend.all` suites are
/// left out.
struct CatalogBackendTests {
    @Test(
        .enabled(
            if: CatalogBackend.postgresEnabled,
            "THUMBKIT_TEST_POSTGRES_URL is not set: the PostgreSQL cases of every CatalogBackend.all test are left out"
        ))
    func postgresCasesRun() {
        #expect(CatalogBackend.all == [.sqlite, .postgres])
    }
}
