// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitServe

/// The edit password's hash: made, written as one line, read back and checked.
struct PasswordHashTests {
    static let functions: [PasswordHash.Function] = [.scrypt(n: 1024, r: 8, p: 1), .pbkdf2(iterations: 1000)]

    @Test(arguments: functions) func aHashRoundTripsThroughItsLineAndAcceptsOnlyItsPassword(
        function: PasswordHash.Function
    ) throws {
        let made = try #require(PasswordHash.make(password: "correct horse ü", function: function))
        let line = made.encoded
        #expect(!line.contains("correct horse"))
        let read = try #require(PasswordHash(parsing: line + "\n"))
        #expect(read == made)
        #expect(read.verify("correct horse ü"))
        #expect(!read.verify("correct horse u"))
        #expect(!read.verify(""))
    }

    @Test func twoHashesOfOnePasswordDifferByTheirSalt() throws {
        let a = try #require(PasswordHash.make(password: "pw", function: .pbkdf2(iterations: 1000)))
        let b = try #require(PasswordHash.make(password: "pw", function: .pbkdf2(iterations: 1000)))
        #expect(a.salt != b.salt && a.hash != b.hash)
    }

    @Test(arguments: [
        "", "secret", "scrypt$1024$8$1$AAAA", "scrypt$1000$8$1$AAAAAAAAAAA$AAAA", "md5$abc$def",
        "pbkdf2-sha256$10$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ])
    func anythingElseIsNotAHash(text: String) {
        #expect(PasswordHash(parsing: text) == nil)
    }

    @Test func theDefaultIsScrypt() {
        guard case .scrypt(let n, let r, let p) = PasswordHash.defaultScrypt else {
            Issue.record("not scrypt")
            return
        }
        #expect(n == 32768 && r == 8 && p == 1)
    }

    @Test func constantTimeEqualityComparesWholeValues() {
        #expect(SecureRandom.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!SecureRandom.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!SecureRandom.constantTimeEqual([1, 2, 3], [1, 2]))
        let token = SecureRandom.token() ?? ""
        #expect(token.count == 43 && token != SecureRandom.token())
    }
}

extension PasswordHash.Function: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .scrypt: "scrypt"
        case .pbkdf2: "pbkdf2"
        }
    }
}
