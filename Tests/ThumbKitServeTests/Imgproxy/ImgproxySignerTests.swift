// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

@Suite struct ImgproxySignerTests {
    /// imgproxy's documentation (imgproxy-docs, docs/usage/signing_url.mdx): key `secret`, salt
    /// `hello`, in hex, sign this path as `oKfUtW34…`.
    static let docsKey = "736563726574"
    static let docsSalt = "68656C6C6F"
    static let docsPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
    static let docsSignature = "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"
    /// The key and salt of imgproxy's examples/signature.* programs, with their path; the expected
    /// signature was computed with Python's hmac module (the examples print it but do not state it).
    static let exampleKey = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let exampleSalt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    static let examplePath = "/rs:fit:300:300/plain/http://img.example.com/pretty/image.jpg"
    static let exampleSignature = "m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc"

    @Test func imgproxysDocumentedExampleVerifies() throws {
        let signer = try ImgproxySigner(pairs: [(Self.docsKey, Self.docsSalt)])
        #expect(signer.verify(signature: Self.docsSignature, path: Self.docsPath))
        #expect(signer.sign(path: Self.docsPath) == Self.docsSignature)
        // Verifying is separate from accepting the source: this one is http, which is refused.
        let split = try ImgproxyPath(requestTarget: "/\(Self.docsSignature)\(Self.docsPath)")
        #expect(signer.verify(signature: split.signature, path: split.path))
        #expect(throws: ImgproxyError.unsupportedSource(scheme: "http")) {
            try ImgproxyURLParser().parse(path: split.path)
        }
    }

    @Test func imgproxysExampleProgramsKeyVerifies() throws {
        let signer = try ImgproxySigner(pairs: [(Self.exampleKey, Self.exampleSalt)])
        #expect(signer.sign(path: Self.examplePath) == Self.exampleSignature)
        #expect(signer.verify(signature: Self.exampleSignature, path: Self.examplePath))
        // A path without its leading slash is signed as if it had one, as imgproxy does.
        #expect(signer.verify(signature: Self.exampleSignature, path: Self.examplePath.dropFirst()))
    }

    @Test func anyPairOfARotationVerifies() throws {
        let old = try ImgproxySigner(pairs: [(Self.exampleKey, Self.exampleSalt)])
        let new = try ImgproxySigner(pairs: [(Self.docsKey, Self.docsSalt)])
        let both = try ImgproxySigner(pairs: [(Self.docsKey, Self.docsSalt), (Self.exampleKey, Self.exampleSalt)])
        let path = "/rs:fit:100:100/plain/local:///a.jpg"
        #expect(both.verify(signature: old.sign(path: path), path: path))
        #expect(both.verify(signature: new.sign(path: path), path: path))
        #expect(!new.verify(signature: old.sign(path: path), path: path))
        #expect(both.sign(path: path) == new.sign(path: path))
    }

    @Test func aTamperedPathOrSignatureFails() throws {
        let signer = try ImgproxySigner(pairs: [(Self.docsKey, Self.docsSalt)])
        #expect(!signer.verify(signature: Self.docsSignature, path: Self.docsPath.replacing("300", with: "301")))
        #expect(!signer.verify(signature: Self.docsSignature, path: Self.docsPath + "/"))
        var flipped = Array(Self.docsSignature)
        flipped[5] = flipped[5] == "A" ? "B" : "A"
        #expect(!signer.verify(signature: String(flipped), path: Self.docsPath))
    }

    @Test(
        arguments: [
            "", "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH", "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8A",
            "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8=", "oKfUtW34Dvo2BGQehJFR4Nr0/rIjOtdtzJ3QFsUcXH8",
            "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH9", "insecure", "oKfUtW34",
        ])
    func signaturesOfTheWrongLengthOrAlphabetFail(signature: String) throws {
        let signer = try ImgproxySigner(pairs: [(Self.docsKey, Self.docsSalt)])
        #expect(!signer.verify(signature: signature, path: Self.docsPath))
    }

    @Test func theSignatureIsRemovedByPositionNotByText() throws {
        let signer = try ImgproxySigner(pairs: [(Self.docsKey, Self.docsSalt)])
        let path = "/rs:fit:10:10/plain/local:///a.jpg"
        let signature = signer.sign(path: path)
        // The signature text also appears later: a replacing split would verify "/rs:fit:10:10/plain/local:///a.jpg"
        // and then parse a source without it, or the reverse.
        let tricky = "/rs:fit:10:10/plain/local:///\(signature)/a.jpg"
        let split = try ImgproxyPath(requestTarget: "/\(signature)\(tricky)")
        #expect(split.signature == signature)
        #expect(split.path == tricky)
        #expect(!signer.verify(signature: split.signature, path: split.path))
        let honest = try ImgproxyPath(requestTarget: "/\(signer.sign(path: tricky))\(tricky)")
        #expect(signer.verify(signature: honest.signature, path: honest.path))
        #expect(try ImgproxyURLParser().parse(path: honest.path).source == .local(path: "/\(signature)/a.jpg"))
    }

    @Test func theSplitDropsTheQueryAndUndoesProxyRewrites() throws {
        let split = try ImgproxyPath(requestTarget: "/sig/rs%3Afit%3A10%3A10/plain/local:/a.jpg?x=1")
        #expect(split.signature == "sig")
        #expect(split.path == "/rs:fit:10:10/plain/local:///a.jpg")
        #expect(try ImgproxyPath(requestTarget: "/s/plain/http:/h/a").path == "/plain/http://h/a")
        #expect(try ImgproxyPath(requestTarget: "/s/plain/local:///a%3Ab").path == "/plain/local:///a%3Ab")
        #expect(try ImgproxyPath(requestTarget: "/s/aGVsbG8").path == "/aGVsbG8")
    }

    @Test(arguments: ["", "/", "/sig", "/sig/", "//rs:fit:1:1/plain/local:///a"])
    func targetsWithoutASignatureSegmentOrAPathAreMalformed(target: String) {
        #expect(throws: ImgproxyError.malformedPath(reason: "expected /{signature}/{options}/{source}")) {
            try ImgproxyPath(requestTarget: target)
        }
    }

    @Test func withoutKeysAnySignatureSegmentIsAcceptedButAnOption() throws {
        let insecure = try ImgproxySigner(pairs: [])
        #expect(insecure.isInsecure)
        #expect(insecure.verify(signature: "insecure", path: "/plain/local:///a"))
        #expect(insecure.verify(signature: "_", path: "/plain/local:///a"))
        // "/rs:fit:1:1/plain/…" without a signature segment: the first option would be lost.
        #expect(!insecure.verify(signature: "rs:fit:1:1", path: "/plain/local:///a"))
        #expect(insecure.sign(path: "/plain/local:///a") == "")
    }

    @Test(
        arguments: [
            ("", "00", "key 1"), ("0", "00", "key 1"), ("zz", "00", "key 1"), ("00", "", "salt 1"),
            ("00", "abc", "salt 1"),
        ])
    func badHexKeysAreRefusedWithoutQuotingThem(key: String, salt: String, which: String) {
        let error = #expect(throws: ImgproxyError.self) { try ImgproxySigner(pairs: [(key, salt)]) }
        #expect(error?.description == "invalid signing key: \(which) is not a non-empty string of hex digit pairs")
    }

    @Test func theSignerNeverShowsItsKeysOrSalts() throws {
        let signer = try ImgproxySigner(pairs: [(Self.exampleKey, Self.exampleSalt), (Self.docsKey, Self.docsSalt)])
        var dumped = ""
        dump(signer, to: &dumped)
        let texts = [
            signer.description, signer.debugDescription, String(describing: signer), String(reflecting: signer),
            "\(signer)", dumped,
        ]
        for text in texts {
            #expect(text.contains("2 key pairs"))
            for secret in [Self.exampleKey, Self.exampleSalt, Self.docsKey, Self.docsSalt, "943b", "115, 101, 99"] {
                #expect(!text.lowercased().contains(secret.lowercased()), "\(text)")
            }
        }
    }
}
