// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitServe

/// Images on demand, through a real server and curl (run off the cooperative pool).
struct ImageServiceHTTPTests {
    @Test func aSignedFillRequestAnswersTheImageWithItsCachingHeaders() async throws {
        let serve = try ServeFixture()
        let answer = try await serve.request(serve.signed("/rs:fill:88:88/g:ce/plain/local:///photo.jpg@jpg"))
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "image/jpeg")
        #expect(answer.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(answer.headers["content-length"] == String(answer.body.count))
        #expect(answer.headers["vary"] == nil)
        let etag = try #require(answer.headers["etag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
        let source = try ImageSource(answer.body, path: "answer")
        #expect(source.header.format == .jpeg)
        #expect(source.header.width == 88 && source.header.height == 88)
    }

    /// The server and `thumbkit thumb` share one pipeline: the same box, quality and format give
    /// the same bytes.
    @Test(.tags(.realProcess)) func fillWithCentreGravityGivesExactlyTheBytesOfThumb() async throws {
        let serve = try ServeFixture()
        for (options, thumbArguments) in [
            ("rs:fill:88:88/q:85", ["-s", "88x88", "--fit", "fill", "-q", "85"]),
            ("rs:fill:120:64/q:70", ["-s", "120x64", "--fit", "fill", "-q", "70"]),
        ] {
            let answer = try await serve.request(serve.signed("/\(options)/g:ce/plain/local:///photo.jpg@jpg"))
            #expect(answer.status == 200)
            let out = serve.root.appendingPathComponent("thumb-\(answer.body.count).jpg").path
            let input = serve.root.appendingPathComponent("photo.jpg").path
            let run = try await TestBinary.runOffPool(["thumb"] + thumbArguments + ["-o", out, input])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: out))) == answer.body)
        }
    }

    @Test func aTamperedOrMissingSignatureIsForbiddenBeforeTheFileIsRead() async throws {
        let serve = try ServeFixture()
        let good = serve.signed("/rs:fill:88:88/plain/local:///photo.jpg")
        let signature = good.split(separator: "/")[0]
        #expect(try await serve.request(good).status == 200)
        #expect(try await serve.request("/\(signature)/rs:fill:89:88/plain/local:///photo.jpg").status == 403)
        #expect(try await serve.request("/insecure/rs:fill:88:88/plain/local:///photo.jpg").status == 403)
        // A path that names no file is still 403, not 404: nothing is looked up unsigned.
        #expect(try await serve.request("/\(signature)/rs:fill:88:88/plain/local:///missing.jpg").status == 403)
        #expect(serve.metrics.requests(status: 403) == 3)
    }

    @Test func withoutKeysAnyFirstSegmentIsAccepted() async throws {
        let serve = try ServeFixture(signed: false)
        #expect(try await serve.request("/insecure/rs:fit:50:50/plain/local:///art.png@png").status == 200)
        #expect(try await serve.request("/_/w:40/plain/local:///photo.jpg").status == 200)
    }

    @Test(arguments: [
        "/rs:fill:88:88/plain/local:///missing.jpg", "/rs:fill:88:88/plain/local:///../photo.jpg",
        "/rs:fill:88:88/plain/local:///%2e%2e/photo.jpg", "/rs:fill:88:88/plain/local:////etc/passwd",
    ])
    func sourcesThatAreMissingOrLeaveTheRootAreNotFound(path: String) async throws {
        let serve = try ServeFixture()
        let answer = try await serve.request(serve.signed(path))
        #expect(answer.status == 404)
        #expect(answer.headers["cache-control"] == "no-store")
        #expect(!String(decoding: answer.body, as: UTF8.self).contains(serve.root.path))
    }

    @Test func aFileThatIsNotAnImageIsUnprocessableWithOneLine() async throws {
        let serve = try ServeFixture()
        let answer = try await serve.request(serve.signed("/rs:fill:88:88/plain/local:///notes.jpg"))
        #expect(answer.status == 422)
        #expect(answer.headers["cache-control"] == "no-store")
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 1)
        #expect(!text.contains(serve.root.path))
    }

    @Test func anUnknownOptionOrASchemeThatWouldFetchIsABadRequest() async throws {
        let serve = try ServeFixture()
        #expect(try await serve.request(serve.signed("/nonsense:1/plain/local:///photo.jpg")).status == 400)
        #expect(try await serve.request(serve.signed("/rs:fit:10:10/plain/http://example.com/a.jpg")).status == 400)
    }

    @Test func theETagAnswers304WithoutABodyAndCountsAsACacheHit() async throws {
        let serve = try ServeFixture()
        let path = serve.signed("/rs:fit:100:100/plain/local:///photo.jpg@webp")
        let first = try await serve.request(path)
        let etag = try #require(first.headers["etag"])
        let again = try await serve.request(path, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["etag"] == etag)
        #expect(try await serve.request(path, headers: ["If-None-Match": "\"other\", \(etag)"]).status == 304)
        #expect(try await serve.request(path, headers: ["If-None-Match": "\"other\""]).status == 200)
        #expect(serve.metrics.exposition(rendersInFlight: 0, queueDepth: 0).contains("thumbkit_cache_hits_total 2"))
    }

    @Test func theETagChangesWithTheSourceContentAndTheOptions() async throws {
        let serve = try ServeFixture()
        let fit = serve.signed("/rs:fit:100:100/plain/local:///photo.jpg@jpg")
        let before = try #require(try await serve.request(fit).headers["etag"])
        #expect(
            try await serve.request(serve.signed("/rs:fit:100:100/q:50/plain/local:///photo.jpg@jpg")).headers["etag"]
                != before)
        let replacement = serve.root.appendingPathComponent(".next.jpg")
        try Data(GeneratedImages.jpeg(width: 640, height: 480, seed: 99)).write(to: replacement)
        #expect(rename(replacement.path, serve.root.appendingPathComponent("photo.jpg").path) == 0)
        #expect(try await serve.request(fit).headers["etag"] != before)
    }

    @Test func withoutAFormatTheAnswerFollowsAcceptAndVaries() async throws {
        let serve = try ServeFixture()
        let path = serve.signed("/rs:fit:64:64/plain/local:///photo.jpg")
        let chrome = try await serve.request(
            path, headers: ["Accept": "image/avif,image/webp,image/apng,image/*,*/*;q=0.8"])
        #expect(chrome.headers["content-type"] == "image/avif")
        #expect(chrome.headers["vary"] == "Accept")
        let webp = try await serve.request(path, headers: ["Accept": "image/webp,*/*"])
        #expect(webp.headers["content-type"] == "image/webp")
        #expect(try ImageSource(webp.body, path: "answer").header.format == .webp)
        let plain = try await serve.request(path, headers: ["Accept": "*/*"])
        #expect(plain.headers["content-type"] == "image/jpeg")
        #expect(chrome.headers["etag"] != webp.headers["etag"] && webp.headers["etag"] != plain.headers["etag"])
        let alpha = try await serve.request(
            serve.signed("/rs:fit:64:64/plain/local:///art.png"), headers: ["Accept": "*/*"])
        #expect(alpha.headers["content-type"] == "image/png" || alpha.headers["content-type"] == "image/jpeg")
    }

    @Test func headAnswersLikeGetWithoutTheBody() async throws {
        let serve = try ServeFixture()
        let path = serve.signed("/rs:fill:88:88/plain/local:///photo.jpg@png")
        let get = try await serve.request(path)
        let head = try await serve.request(path, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(head.headers["etag"] == get.headers["etag"])
        #expect(try await serve.request(path, method: "POST").status == 405)
    }

    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "under ThreadSanitizer the full parallel run holds the cooperative pool for minutes (see StartedOffPool)")
    )
    func aFullRenderPoolAnswers429WithRetryAfter() async throws {
        let serve = try ServeFixture(workers: 1, queue: 0)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // The blocker waits on the render pool's one thread, never on a cooperative one.
        let blocker = Task {
            await serve.pool.run {
                started.signal()
                release.wait()
            }
        }
        defer { release.signal() }
        // A task starts only once a cooperative thread is free, and in the full parallel run
        // synchronous tests can hold both for tens of seconds (see `StartedOffPool`): the wait
        // allows for that rather than fail a test that is only late.
        let began = try await offPool { started.wait(timeout: .now() + 120) == .success }
        try #require(began, "the blocking render never started")
        let answer = try await serve.request(serve.signed("/rs:fill:88:88/plain/local:///photo.jpg"))
        #expect(answer.status == 429)
        #expect(answer.headers["retry-after"] == "1")
        #expect(answer.headers["cache-control"] == "no-store")
        release.signal()
        _ = await blocker.value
        #expect(try await serve.request(serve.signed("/rs:fill:88:88/plain/local:///photo.jpg")).status == 200)
    }

    @Test func aRenderPastTheDeadlineAnswers503() async throws {
        let serve = try ServeFixture(limits: ImageLimits(maxSeconds: 1e-9))
        let answer = try await serve.request(serve.signed("/rs:fill:88:88/plain/local:///photo.jpg"))
        #expect(answer.status == 503)
        #expect(answer.headers["cache-control"] == "no-store")
    }

    @Test func healthAndMetricsAnswer() async throws {
        let serve = try ServeFixture()
        let health = try await serve.request("/health")
        #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self).hasPrefix("ok"))
        _ = try await serve.request(serve.signed("/rs:fill:88:88/plain/local:///photo.jpg"))
        let metrics = String(decoding: try await serve.request("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("thumbkit_requests_total{status=\"200\"}"))
        #expect(metrics.contains("thumbkit_request_duration_seconds_bucket{le=\"+Inf\"}"))
        #expect(metrics.contains("thumbkit_renders_in_flight 0"))
        #expect(metrics.contains("thumbkit_queue_depth 0"))
    }
}
