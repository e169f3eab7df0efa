// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// Images on demand: imgproxy's URLs (`/{signature}/{options}/plain/{source}[@{ext}]`) answered
/// through the one thumbnail pipeline that `thumbkit thumb` uses, so `rs:fill:W:H` with `g:ce`
/// gives exactly the bytes of `thumb --fit fill -s WxH`.
///
/// The order of the checks is the order of their cost, and nothing is opened before the
/// signature holds: split the signature off by position, verify it in constant time, parse the
/// options, resolve the source under the root, hash it (or find its hash by file identity),
/// answer 304 when the client has that ETag, then render on the ``RenderPool`` (429 when it is
/// full), sharing one render between identical concurrent requests.
package final class ImageService: Sendable {
    /// What one render gave: the image, or the status and line to answer with.
    enum Outcome: Sendable {
        case image([UInt8])
        case failure(HTTPStatus, String)
    }

    /// What is known of one version of a source file without decoding it.
    struct SourceFacts: Sendable {
        var contentHash: String
        var hasAlpha: Bool
    }

    private let root: SourceRoot?
    /// `catalog:///` sources (nil without `--catalog`: they answer 404).
    private let catalog: CatalogImageSource?
    private let signer: ImgproxySigner
    private let parser: ImgproxyURLParser
    private let limits: ImageLimits
    private let pool: RenderPool
    private let metrics: ServeMetrics
    private let flight = SingleFlight<Outcome>()
    /// Source facts by file identity (device, inode, size, times): a 304 needs no read. Cleared
    /// when it reaches `factsCapacity` entries.
    private let facts = Locked<[String: SourceFacts]>([:])
    private let factsCapacity = 10_000

    /// `root` nil: `local:///` sources answer 404; `catalog` nil: `catalog:///` sources do.
    package init(
        root: SourceRoot?, signer: ImgproxySigner, parser: ImgproxyURLParser, limits: ImageLimits,
        pool: RenderPool, metrics: ServeMetrics, catalog: CatalogImageSource? = nil
    ) {
        self.root = root
        self.catalog = catalog
        self.signer = signer
        self.parser = parser
        self.limits = limits
        self.pool = pool
        self.metrics = metrics
    }

    /// The answer to a `GET` or `HEAD` of an image URL.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var answer = HTTPResponse.text(.methodNotAllowed)
            answer.headers.append(("Allow", "GET, HEAD"))
            return answer
        }
        let split: ImgproxyPath
        let parsed: ImgproxyRequest
        do throws(ImgproxyError) {
            split = try ImgproxyPath(requestTarget: request.target)
            guard signer.verify(signature: split.signature, path: split.path) else {
                return .text(.forbidden, "invalid signature")
            }
            parsed = try parser.parse(path: split.path)
        } catch {
            return .text(error.status, error.description)
        }
        let opened: OpenedSource
        switch parsed.source {
        case .local(let path):
            guard let root else { return .text(.notFound, "no --root: local sources are not served") }
            do {
                opened = try root.open(path)
            } catch {
                return Self.answer(error)
            }
        case .catalog(let path):
            return await respondFromCatalog(path, request: request)
        }
        let read: (facts: SourceFacts, bytes: [UInt8]?)
        do {
            read = try sourceFacts(opened)
        } catch {
            return .text(.unprocessableContent, String(describing: error))
        }
        let choice = ImageFormatNegotiation.choose(
            requested: parsed.format, accept: request.headers["Accept"], sourceHasAlpha: read.facts.hasAlpha)
        let encoding = EncodeOptions(
            format: choice.format, quality: parsed.quality, background: parsed.background ?? .white)
        let etag = Self.etag(source: read.facts.contentHash, request: parsed, encoding: encoding)
        var headers: [(String, String)] = [
            ("ETag", etag), ("Cache-Control", "public, max-age=31536000, immutable"),
        ]
        if choice.variesWithAccept { headers.append(("Vary", "Accept")) }
        if Self.matches(request.headers["If-None-Match"], etag) {
            metrics.countCacheHit()
            return HTTPResponse(status: .notModified, headers: headers)
        }
        let (outcome, shared) = await flight.run(etag) { [self] in
            await pool.run { [self] in render(opened, bytes: read.bytes, request: parsed, encoding: encoding) }
                ?? .failure(.tooManyRequests, "too many renders waiting; try again")
        }
        switch outcome {
        case .image(let bytes):
            if shared { metrics.countCacheHit() }
            headers.insert(("Content-Type", choice.format.mimeType), at: 0)
            return HTTPResponse(status: .ok, headers: headers, body: bytes)
        case .failure(let status, let line):
            var answer = HTTPResponse.text(status, line)
            if status == .tooManyRequests { answer.headers.append(("Retry-After", "1")) }
            return answer
        }
    }

    /// A `catalog:///` source: the record's picture by its recipe (`CatalogImageSource`), with
    /// the recipe's format and quality; the URL's resize options do not apply.
    private func respondFromCatalog(_ path: String, request: HTTPRequest) async -> HTTPResponse {
        guard let catalog else { return .text(.notFound, "catalog sources need --catalog") }
        // The catalog read may wait on SQLite's busy timeout: never on a cooperative thread.
        let lookup = await BlockingWork.run { () -> Result<CatalogImageSource.Resolved, CatalogImageSource.Failure> in
            do throws(CatalogImageSource.Failure) {
                return .success(try catalog.resolve(path))
            } catch {
                return .failure(error)
            }
        }
        let resolved: CatalogImageSource.Resolved
        switch lookup {
        case .success(let found): resolved = found
        case .failure(.notFound(let line)): return .text(.notFound, line)
        case .failure(.unavailable(let line)): return .text(.serviceUnavailable, line)
        }
        let key = "catalog\n" + resolved.identifier
        let etag = "\"" + ContentHash.sha256(of: Array(key.utf8)).prefix(40) + "\""
        var headers: [(String, String)] = [("ETag", etag), ("Cache-Control", "public, max-age=31536000, immutable")]
        if Self.matches(request.headers["If-None-Match"], etag) {
            metrics.countCacheHit()
            return HTTPResponse(status: .notModified, headers: headers)
        }
        let limits = self.limits
        let (outcome, shared) = await flight.run(etag) { [pool] in
            await pool.run {
                let deadline = limits.deadline()
                do {
                    return .image(try CatalogImageSource.render(resolved, limits: limits, deadline: deadline))
                } catch let error as DecodeError {
                    if deadline.hasPassed { return .failure(.serviceUnavailable, error.description) }
                    return .failure(.unprocessableContent, error.description)
                } catch {
                    return .failure(.internalServerError, "the image could not be encoded")
                }
            } ?? .failure(.tooManyRequests, "too many renders waiting; try again")
        }
        switch outcome {
        case .image(let bytes):
            if shared { metrics.countCacheHit() }
            headers.insert(("Content-Type", resolved.recipe.format.mimeType), at: 0)
            return HTTPResponse(status: .ok, headers: headers, body: bytes)
        case .failure(let status, let line):
            var answer = HTTPResponse.text(status, line)
            if status == .tooManyRequests { answer.headers.append(("Retry-After", "1")) }
            return answer
        }
    }

    /// Decodes, resizes and encodes on a render thread, within `limits.maxSeconds`.
    private func render(
        _ opened: OpenedSource, bytes: [UInt8]?, request: ImgproxyRequest, encoding: EncodeOptions
    ) -> Outcome {
        let deadline = limits.deadline()
        do {
            let data = try bytes ?? opened.read(maxBytes: limits.maxFileBytes)
            let source = try ImageSource(data, path: opened.path)
            let size = source.header.orientedSize
            let resize = request.resizeOptions(sourceWidth: size.width, sourceHeight: size.height)
            let pipeline = ThumbnailPipeline(
                request: ThumbnailRequest(resize: resize, decode: DecodeOptions(limits: limits)), encoding: encoding)
            return .image(try pipeline.run(source, threads: 1, deadline: deadline).outputs[0].bytes)
        } catch let error as SourceRoot.Failure {
            return Self.outcome(error)
        } catch let error as DecodeError {
            if deadline.hasPassed { return .failure(.serviceUnavailable, error.description) }
            return .failure(.unprocessableContent, error.description)
        } catch {
            return .failure(.internalServerError, "the image could not be encoded")
        }
    }

    /// The source's content hash and whether it has alpha, from the cache by file identity, or
    /// by reading it (then its bytes come back too, for the render).
    private func sourceFacts(_ opened: OpenedSource) throws -> (facts: SourceFacts, bytes: [UInt8]?) {
        if let known = facts.withLock({ $0[opened.identity] }) { return (known, nil) }
        let bytes = try opened.read(maxBytes: limits.maxFileBytes)
        let header = try ImageSource(bytes, path: opened.path).header
        let found = SourceFacts(contentHash: ContentHash.sha256(of: bytes), hasAlpha: header.hasAlpha)
        facts.withLock {
            if $0.count >= factsCapacity { $0.removeAll(keepingCapacity: true) }
            $0[opened.identity] = found
        }
        return (found, bytes)
    }

    /// A strong ETag of the source's content, the canonical request and the encoder's settings.
    static func etag(source contentHash: String, request: ImgproxyRequest, encoding: EncodeOptions) -> String {
        let key = [contentHash, request.identifier, encoding.identifier].joined(separator: "\n")
        return "\"" + ContentHash.sha256(of: Array(key.utf8)).prefix(40) + "\""
    }

    /// True when `ifNoneMatch` (a list of entity tags, or `*`) names `etag`. Weak tags compare
    /// by their opaque part, as RFC 9110 asks for `If-None-Match`.
    static func matches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        for item in ifNoneMatch.split(separator: ",") {
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    private static func answer(_ failure: SourceRoot.Failure) -> HTTPResponse {
        switch outcome(failure) {
        case .failure(let status, let line): .text(status, line)
        case .image: .text(.internalServerError)
        }
    }

    private static func outcome(_ failure: SourceRoot.Failure) -> Outcome {
        switch failure {
        case .notFound: .failure(.notFound, "no such image")
        case .unusable(let reason): .failure(.unprocessableContent, reason)
        }
    }
}
