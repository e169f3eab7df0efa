// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitServe

/// `catalog:///` sources: a record's picture by its recipe, through the one pipeline.
struct CatalogImageSourceTests {
    @Test(arguments: [
        ("/bugs/3/list", true), ("/bugs/3/list@2x", true), ("/bugs/3/detail@3x", true), ("/foods/12/detail", true),
        ("/bugs/3/list@4x", false), ("/bugs/3/icon", false), ("/bugs/0/list", false), ("/bugs/-1/list", false),
        ("/bugs/3/list/x", false), ("/apps/3/list", false), ("bugs/3/list", false), ("/bugs/3a/list", false),
        ("/bugs/99999999999999999999/list", false),
    ])
    func pathsHaveOneForm(path: String, valid: Bool) {
        #expect((CatalogImageSource.parse(path) != nil) == valid)
    }

    func service(_ store: CatalogStore?) throws -> (ImageService, RenderPool) {
        let pool = RenderPool(workers: 1, queueLimit: 4)
        let service = ImageService(
            root: nil, signer: try ImgproxySigner(pairs: []), parser: ImgproxyURLParser(), limits: ImageLimits(),
            pool: pool, metrics: ServeMetrics(), catalog: store.map(CatalogImageSource.init(store:)))
        return (service, pool)
    }

    @Test func aRecordIsServedByItsRecipeWithTheBytesABuildWrites() async throws {
        let fixture = try WebAppFixture()
        let (service, pool) = try service(fixture.store)
        defer { pool.stop() }
        let answer = await service.respond(
            to: HTTPRequest(method: "GET", target: "/_/plain/catalog:///bugs/\(fixture.bugID)/list%402x"))
        #expect(answer.status == .ok && answer.header("Content-Type") == "image/jpeg")
        let header = try ImageDecoders.readHeader(answer.body, path: "served")
        #expect(header.width == 88 && header.height == 88)

        let out = fixture.workspace.path("out")
        _ = CatalogBuilder(store: fixture.store, outputDirectory: out, jobs: 1).build(only: [.bug(fixture.bugID)])
        let row = try #require(
            try fixture.store.outputs(for: .bug(fixture.bugID)).first { $0.kind == .list && $0.scale == 2 })
        #expect(FileManager.default.contents(atPath: out + "/" + row.path) == Data(answer.body))

        let etag = try #require(answer.header("ETag"))
        let again = await service.respond(
            to: HTTPRequest(
                method: "GET", target: "/_/plain/catalog:///bugs/\(fixture.bugID)/list%402x",
                headers: HTTPHeaders([("If-None-Match", etag)])))
        #expect(again.status == .notModified)
    }

    @Test(arguments: ["/bugs/999/list", "/bugs/2/list", "/bugs/1/list%404x", "/bugs/1/rating", "/foods/1/detail"])
    func unknownRecordsRecipesAndMissingPicturesAre404(path: String) async throws {
        let fixture = try WebAppFixture()
        let (service, pool) = try service(fixture.store)
        defer { pool.stop() }
        let answer = await service.respond(to: HTTPRequest(method: "GET", target: "/_/plain/catalog://" + path))
        #expect(answer.status == .notFound)
    }

    @Test func withoutACatalogTheyAre404() async throws {
        let (service, pool) = try service(nil)
        defer { pool.stop() }
        let answer = await service.respond(to: HTTPRequest(method: "GET", target: "/_/plain/catalog:///bugs/1/list"))
        #expect(answer.status == .notFound)
    }
}
