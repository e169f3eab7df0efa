// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// A small built-or-buildable catalog for tests: two bugs (a JPEG and a portrait PNG) and one
/// food, in a fresh workspace, with `out` as the output folder.
public struct BuildFixture {
    public let workspace: TestWorkspace
    public let store: CatalogStore
    public let out: String

    /// The fixture with its catalog on `backend`.
    public init(assets: Bool = false, backend: CatalogBackend = .sqlite) throws {
        workspace = try TestWorkspace()
        store = try workspace.store(backend: backend)
        out = workspace.path("out")
        let potato = try workspace.image("img/potato.jpg", seed: 1, format: .jpeg)
        let beetle = try workspace.image("img/beetle.png", width: 40, height: 60, seed: 2)
        let marsala = try workspace.image("img/marsala.png", seed: 3)
        try store.write { tx in
            try tx.addBug(
                title: "Potato Bug", rating: Rating(exactly: 3.5)!, image: try ImageRef.load(path: potato))
            try tx.addBug(title: "Beetle", rating: Rating(exactly: 1)!, image: try ImageRef.load(path: beetle))
            try tx.addCategory("Chicken")
            try tx.addFood(category: "Chicken", name: "Chicken Marsala", image: try ImageRef.load(path: marsala))
        }
        if assets { try workspace.addAssets(to: store) }
    }

    public func builder(_ recipes: RecipeBook = .defaults, jobs: Int = 2) -> CatalogBuilder {
        CatalogBuilder(store: store, outputDirectory: out, recipes: recipes, jobs: jobs)
    }

    /// Files below the output folder, relative, sorted (but the folder's ownership marker).
    public func files() -> [String] {
        OutputFolder(root: out).files(in: [""], includeHidden: true).filter { $0 != OutputFolder.markerName }
    }

    public func rows(_ record: RecordRef) throws -> [OutputRecord] { try store.outputs(for: record) }
}
