// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

/// The identifier goes into ETags: pinned here, and the same for every spelling of one request.
@Suite struct ImgproxyIdentifierTests {
    let parser = ImgproxyURLParser(limits: ImgproxyLimits(maxDimension: 4000))

    @Test(
        arguments: [
            (
                "/plain/local:///a.jpg",
                "imgproxy/v1?rt=fit,w=0,h=0,el=0,ex=0,g=ce,gx=0,gy=0,q=auto,f=auto,bg=none|local:/a.jpg"
            ),
            (
                "/rs:fill:300:400:1:1/g:fp:0.5:0.333333333/q:80/bg:0a0b0c/plain/catalog:///x/y.heic@webp",
                "imgproxy/v1?rt=fill,w=300,h=400,el=1,ex=1,g=fp:0.5:0.333333,gx=0,gy=0,q=80,f=webp,bg=#0a0b0cff"
                    + "|catalog:/x/y.heic"
            ),
            (
                "/rt:fill-down/w:100/dpr:1.5/g:nowe:3:-0.25/plain/local:///a%2Cb%7Cc",
                "imgproxy/v1?rt=fill-down,w=150,h=0,el=0,ex=0,g=nowe,gx=3,gy=-0.25,q=auto,f=auto,bg=none"
                    + "|local:/a,b|c"
            ),
        ])
    func identifiersArePinned(path: String, identifier: String) throws {
        #expect(try parser.parse(path: path).identifier == identifier)
    }

    @Test func theSameRequestWrittenDifferentlyHasOneIdentifier() throws {
        let spellings = [
            "/rs:fill:300:200/g:sm/q:75/plain/local:///photos/a.jpg@webp",
            "/resize:fill:300:200/gravity:sm/quality:75/plain/local:///photos/a.jpg@webp",
            "/q:75/g:sm/rs:fill:300:200/plain/local:///photos/a.jpg@webp",
            "/rt:fill/s:300:200/g:sm/q:75/f:webp/plain/local:///photos/a.jpg",
            "/rt:fill/w:300/h:200/g:sm/q:75/format:webp/plain/local:///photos/a.jpg",
            "/rs:fill:150:100/dpr:2/g:sm/q:75/ext:webp/plain/local:///photos/a.jpg",
            "/rs:fill:300:200/el:0/g:sm/q:75/plain/local:///photos/%61.jpg@webp",
            "/rs:fill:300:200/g:sm/q:75/bG9jYWw6Ly8vcGhvdG9zL2EuanBn.webp",
            "/rs:fill:300:200/g:sm/q:75/bG9jYWw6Ly8v/cGhvdG9zL2EuanBn.webp",
        ]
        let identifiers = try Set(spellings.map { try parser.parse(path: $0).identifier })
        #expect(identifiers.count == 1)
    }

    @Test func differentRequestsHaveDifferentIdentifiers() throws {
        let base = "/rs:fill:300:200/plain/local:///a.jpg"
        let variants = [
            base, "/rs:fit:300:200/plain/local:///a.jpg", "/rs:fill:301:200/plain/local:///a.jpg",
            "/rs:fill:300:200:1/plain/local:///a.jpg", "/rs:fill:300:200:0:1/plain/local:///a.jpg",
            "/rs:fill:300:200/g:no/plain/local:///a.jpg", "/rs:fill:300:200/q:50/plain/local:///a.jpg",
            "/rs:fill:300:200/plain/local:///a.jpg@png", "/rs:fill:300:200/bg:000/plain/local:///a.jpg",
            "/rs:fill:300:200/plain/catalog:///a.jpg", "/rs:fill:300:200/plain/local:///b.jpg",
            "/rs:fill:300:200/g:ce:1:0/plain/local:///a.jpg",
        ]
        let identifiers = try Set(variants.map { try parser.parse(path: $0).identifier })
        #expect(identifiers.count == variants.count)
    }

    @Test(arguments: [(0.0, "0"), (1.0, "1"), (0.5, "0.5"), (1.0 / 3, "0.333333"), (-2.25, "-2.25"), (8.0, "8")])
    func decimalsPrintOneWay(value: Double, text: String) {
        #expect(CanonicalDecimal.format(value) == text)
    }
}
