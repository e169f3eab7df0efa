// SPDX-License-Identifier: Apache-2.0
/// The imgproxy URL code as one call for the libFuzzer target `Fuzz/Sources/FuzzServeURL`, which
/// lives in another package and so cannot see `package` declarations. A test hook, not API.
///
/// Every check is a `precondition`, so a broken invariant is a crash that libFuzzer reports.
public enum _ImgproxyFuzzing {
    private static let limits = ImgproxyLimits(maxDimension: 4000, maxDPR: 8)
    private static let presets = try! ImgproxyPresets(
        parsing: "default=q:80\nthumb=rs:fill:200:200/g:sm\nloop=pr:loop/pr:thumb\nboth=pr:thumb:loop/f:webp")
    private static let signer = try! ImgproxySigner(pairs: [("736563726574", "68656C6C6F"), ("00ff", "ff00")])
    private static let insecure = try! ImgproxySigner(pairs: [])

    /// Feeds `bytes` (as text) to every parser: the request target split, signature checks, the
    /// URL parser with and without presets, `Accept` negotiation and the presets file parser.
    public static func exercise(_ bytes: [UInt8]) {
        precondition(Base64URL.decode(Base64URL.encode(bytes)) == bytes, "base64url round trip")
        let text = String(decoding: bytes, as: UTF8.self)

        if let split = try? ImgproxyPath(requestTarget: text) {
            precondition(split.path.hasPrefix("/") && split.path.count > 1, "the signed path starts with /")
            precondition(!split.signature.isEmpty && !split.signature.contains("/"), "the signature is one segment")
            _ = signer.verify(signature: split.signature, path: split.path)
            _ = insecure.verify(signature: split.signature, path: split.path)
            precondition(signer.verify(signature: signer.sign(path: split.path), path: split.path), "sign then verify")
            check(split.path)
        }
        check(text)

        for alpha in [false, true] {
            let choice = ImageFormatNegotiation.choose(requested: nil, accept: text, sourceHasAlpha: alpha)
            precondition(choice.variesWithAccept, "a negotiated format varies with Accept")
            precondition([.avif, .webp, alpha ? .png : .jpeg].contains(choice.format), "a format the server writes")
        }

        if let parsed = try? ImgproxyPresets(parsing: text) {
            _ = try? ImgproxyURLParser(limits: limits, presets: parsed).parse(path: "/plain/local:///a.jpg")
        }
    }

    /// Parses `path` with and without presets and checks what comes out.
    private static func check(_ path: String) {
        for parser in [ImgproxyURLParser(limits: limits), ImgproxyURLParser(limits: limits, presets: presets)] {
            let request: ImgproxyRequest
            do {
                request = try parser.parse(path: path)
            } catch {
                let message = error.description
                let control = message.unicodeScalars.contains { $0.value < 0x20 }
                precondition(!control, "messages hold no control characters")
                continue
            }
            precondition(
                request.scaledWidth <= limits.maxDimension && request.scaledHeight <= limits.maxDimension,
                "the box is within the limits")
            precondition(try! parser.parse(path: path) == request, "parsing is deterministic")
            precondition(request.identifier.contains("|"), "the identifier ends with the source")
            for (w, h) in [(1, 1), (640, 480), (30000, 1), (1, 30000)] {
                let options = request.resizeOptions(sourceWidth: w, sourceHeight: h)
                precondition(options.width >= 1 && options.height >= 1, "a box of at least 1×1")
            }
        }
    }
}
