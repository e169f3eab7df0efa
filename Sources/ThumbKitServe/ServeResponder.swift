// SPDX-License-Identifier: Apache-2.0
/// `thumbkit serve`'s routes: `/health`, `/metrics`, and every other path an image URL.
package final class ServeResponder: HTTPResponding {
    private let images: ImageService
    private let metrics: ServeMetrics
    private let pool: RenderPool
    /// True once the server is shutting down: `/health` answers 503 from then on.
    private let isShuttingDown: @Sendable () -> Bool

    package init(
        images: ImageService, metrics: ServeMetrics, pool: RenderPool, isShuttingDown: @escaping @Sendable () -> Bool
    ) {
        self.images = images
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
