// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchCorpusTests {
    private func encoded(_ width: Int, _ height: Int, _ format: ImageFormat) throws -> [UInt8] {
        try ImageEncoders.encode(
            PixelBuffer(width: width, height: height, fill: RGBA(90, 120, 150)), options: EncodeOptions(format: format))
    }

    @Test func theSetsAreReadSortedWithTheirHeaders() throws {
        let workspace = try TestWorkspace()
        try workspace.write("corpus/jpeg/b.jpg", try encoded(40, 30, .jpeg))
        try workspace.write("corpus/jpeg/a.JPEG", try encoded(20, 10, .jpeg))
        try workspace.write("corpus/jpeg/.hidden.jpg", try encoded(8, 8, .jpeg))
        try workspace.write("corpus/jpeg/notes.txt", text: "not a picture")
        try workspace.write("corpus/png/p.png", try encoded(16, 16, .png))
        let corpus = try BenchCorpus.load(root: workspace.path("corpus"))
        #expect(corpus.files(.jpeg).map(\.stem) == ["a", "b"])
        #expect(corpus.files(.jpeg).map { $0.header.width } == [20, 40])
        #expect(corpus.files(.png).map(\.stem) == ["p"])
        #expect(corpus.files(.jpeg)[1].megapixels == 0.0012)
        #expect(corpus.folder(.png) == workspace.path("corpus/png"))
    }

    @Test func aCorpusWithOneSetIsEnough() throws {
        let workspace = try TestWorkspace()
        try workspace.write("corpus/png/p.png", try encoded(16, 16, .png))
        let corpus = try BenchCorpus.load(root: workspace.path("corpus"))
        #expect(corpus.files(.jpeg).isEmpty && corpus.files(.png).count == 1)
    }

    @Test func aMissingOrEmptyCorpusIsAClearError() throws {
        let workspace = try TestWorkspace()
        let missing = workspace.path("nowhere")
        #expect(
            throws: BenchError.corpus(path: missing, reason: "no such folder (build one with scripts/bench-corpus DIR)")
        ) {
            try BenchCorpus.load(root: missing)
        }
        try FileManager.default.createDirectory(atPath: workspace.path("empty/jpeg"), withIntermediateDirectories: true)
        #expect(
            throws: BenchError.corpus(path: workspace.path("empty"), reason: "holds no jpeg/*.jpg or png/*.png files")
        ) {
            try BenchCorpus.load(root: workspace.path("empty"))
        }
    }

    @Test func aFileThatIsNotWhatItsSetSaysStopsTheLoad() throws {
        let workspace = try TestWorkspace()
        let path = try workspace.write("corpus/jpeg/fake.jpg", try encoded(16, 16, .png))
        #expect(throws: BenchError.corpus(path: path, reason: "is not a JPEG file")) {
            try BenchCorpus.load(root: workspace.path("corpus"))
        }
        let broken = try workspace.write("other/png/broken.png", text: "nothing here")
        #expect(throws: BenchError.corpus(path: broken, reason: "not a PNG, JPEG, WebP, HEIC or AVIF file")) {
            try BenchCorpus.load(root: workspace.path("other"))
        }
    }
}
