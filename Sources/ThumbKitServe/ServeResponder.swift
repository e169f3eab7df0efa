// SPDX-License-Identifier: Apache-2.0
/// `thumbkit serve`'s routes: `/health`, `/metrics`, the catalog's web app (`/`, `/login`,
/// `/logout`, `/bugs…`, `/foods…`, `/assets/…`) when serving a catalog, and every other path an
/// image URL.
package final class ServeResponder: HTTPResponding {
    private let images: ImageService
    /// The catalog's web app (`serve --catalog --out`), or nil.
    private let app: WebApp?
    private let metrics: ServeMetrics
    private let pool: RenderPool
    /// True once the server is shutting down: `/health` answers 503 from then on.
    private let isShuttingDown: @Sendable () -> Bool

    package init(
        images: ImageService, metrics: ServeMetrics, pool: RenderPool, app: WebApp? = nil,
        isShuttingDown: @escaping @Sendable () -> Bool
    ) {
        self.images = images
        self.app = app
        self.metrics = metrics
        self.pool = pool
        self.isShuttingDown = isShuttingDown
    }

    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch request.path {
        case "/health":
            return isShuttingDown() ? .text(.serviceUnavailable, "shutting down") : .text(.ok, "ok")
        case "/metrics":
            let text = metrics.exposition(rendersInFlight: pool.inFlight, queueDepth: pool.queueDepth)
            return HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                body: Array(text.utf8))
        case let path where app != nil && WebApp.handles(path):
            return await app!.respond(to: request)
        default:
            return await images.respond(to: request)
        }
    }
}

extension ServeMetrics: HTTPObserving {
    package func observe(status: HTTPStatus, seconds: Double) {
        observe(status: status.rawValue, seconds: seconds)
    }
}
