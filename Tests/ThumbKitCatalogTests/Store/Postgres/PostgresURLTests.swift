// SPDX-License-Identifier: Apache-2.0
import CPostgres
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// `PostgresURL`: a URL is cut exactly as libpq cuts it, and no part of a hostile password
/// reaches a message.
struct PostgresURLTests {
    /// The password libpq itself parses from `url` (nil: none, or libpq refuses the URL).
    private func libpqPassword(_ url: String) -> String? {
        guard let options = PQconninfoParse(url, nil) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password" { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// The pieces of a password that must never be printed: its runs between the characters
    /// that URLs and libpq treat specially, four characters or more.
    private func pieces(_ password: String) -> [String] {
        password.split(whereSeparator: { "?/@%:&=#".contains($0) }).map(String.init).filter { $0.count >= 4 }
    }

    @Test(arguments: [
        // raw URL → the password libpq logs in with
        ("postgresql://u:Tr0ub?4dor@h/db", "Tr0ub?4dor"),
        ("postgresql://u:Tr0ub:4dor@h/db", "Tr0ub:4dor"),
        ("postgresql://u:Tr0ub%404dor%2Fx%25y%3F@h:5432/db", "Tr0ub@4dor/x%y?"),
        ("postgresql://u:Tr0ub#4dor&x=y@h/db?sslmode=disable", "Tr0ub#4dor&x=y"),
        ("postgres://u:Tr0ub4dor@h1:5432,h2/db?password=Ov3rr1des%3F", "Ov3rr1des?"),
        ("postgres://h/db?pass%77ord=Ov3rr1des", "Ov3rr1des"),
        ("postgres://u:?Tr0ub4dor@[::1]:5432/db", "?Tr0ub4dor"),
    ])
    func theHiddenPasswordIsTheOneLibpqParses(url: String, password: String) throws {
        #expect(libpqPassword(url) == password)
        let parsed = try PostgresURL(url)
        #expect(parsed.decodedSecrets.last == password)
        #expect(parsed.holdsPassword)
        #expect(try CatalogLocation(parsing: url) == .postgres(url: url))
        let shown = CatalogLocation.redact(url)
        #expect(shown.contains("***"), "\(shown)")
        for piece in pieces(password) { #expect(!shown.contains(piece), "\(shown)") }
        #expect(!shown.contains(password))
        #expect(CatalogLocation.secrets(in: url).contains(password))
    }

    @Test func theShownURLKeepsEverythingButThePassword() throws {
        #expect(
            CatalogLocation.redact("postgresql://u:p?w@h:5432/db?sslmode=require")
                == "postgresql://u:***@h:5432/db?sslmode=require")
        #expect(
            CatalogLocation.redact("postgres://h/db?sslmode=require&pass%77ord=s3&sslpassword=k3y&passfile=/p")
                == "postgres://h/db?sslmode=require&pass%77ord=***&sslpassword=***&passfile=/p")
        #expect(CatalogLocation.redact("postgres://u@h/db") == "postgres://u@h/db")
        #expect(CatalogLocation.redact("postgres://u:s3cr%3Ft@h/s3cr%3Ft") == "postgres://u:***@h/***")
        #expect(CatalogLocation.redact("postgresql://?service=thumbkit") == "postgresql://?service=thumbkit")
        #expect(!CatalogLocation.holdsPassword("postgresql://thumbkit@db/catalog?passfile=/etc/tk/pgpass"))
        #expect(!CatalogLocation.holdsPassword("postgresql://?service=thumbkit"))
    }

    /// URLs whose password libpq reads differently from what was meant (a raw `/` or `@`), or
    /// refuses with a message quoting it: refused before libpq sees them, without any piece of
    /// the password, in the error and in the shown URL.
    @Test(arguments: [
        "postgresql://u:Tr0ub4dor/Correct@127.0.0.1:1/db",
        "postgresql://u:Tr0ub4dor@Correct@127.0.0.1:1/db",
        "postgresql://u:Tr0ub4dor/Correct?Horse@127.0.0.1:1/db",
        "postgresql://u:Tr0ub4dor%zzCorrect@127.0.0.1:1/db",
        "postgresql://u:Tr0ub4dor%00Correct@127.0.0.1:1/db",
        "postgresql://u:Tr0ub4dor/1234@127.0.0.1:1/db",
        "postgresql://127.0.0.1:1/db?password=Tr0ub4dor&Correct=Horse",
        "postgresql://127.0.0.1:1/db?password=Tr0ub4dor=Correct",
        "postgresql://u:Tr0ub4dor@[::1/db",
    ])
    func aMisreadPasswordIsRefusedWithoutAPieceOfIt(url: String) throws {
        let secret = ["Tr0ub4dor", "Correct", "Horse"]
        var messages = [CatalogLocation.redact(url)]
        do {
            _ = try CatalogLocation(parsing: url)
            Issue.record("accepted \(url)")
        } catch {
            messages.append(error.description)
            guard case .open(_, let reason) = error else { throw error }
            #expect(
                reason.hasPrefix("malformed url: ") || reason.hasPrefix("unknown connection parameter"), "\(reason)")
        }
        do {
            _ = try PostgresConnection(url: url)
            Issue.record("connected with \(url)")
        } catch {
            messages.append(error.description)
        }
        for message in messages {
            for piece in secret { #expect(!message.contains(piece), "\(message)") }
            #expect(!message.contains("\n"))
        }
    }

    @Test func anUnknownParameterIsNamedOnlyWhenNoPasswordCouldHoldIt() {
        #expect(throws: PostgresURL.Problem.unknownParameter("sslmdoe")) {
            try PostgresURL("postgres://h/db?sslmdoe=x")
        }
        #expect(throws: PostgresURL.Problem.unknownParameter(nil)) {
            try PostgresURL("postgres://u:pw@h/db?sslmdoe=x")
        }
        #expect(throws: PostgresURL.Problem.notAURL) { try PostgresURL("host=h password=x") }
    }

    /// libpq logs in with the password it parsed: a role whose password holds `?`, `:`, `%`,
    /// `/` and `@` connects with the URL that has the `?` and `:` raw and the rest encoded, and
    /// a wrong password of the same kind is refused in a message without any piece of it.
    @Test func libpqLogsInWithTheParsedPasswordAndAWrongOneLeaksNothing() throws {
        guard let base = TestPostgres.requireURL() else { return }
        let admin = try PostgresConnection(url: base)
        let role = TestPostgres.uniqueName("tk_pwq_")
        let password = "Tr0ub?4dor:Correct%Horse/Battery@Staple"
        let literal = password.replacingOccurrences(of: "'", with: "''")
        try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD '\(literal)' IN ROLE thumbkit_password_auth")
        defer { try? admin.execute("DROP ROLE \(role)") }
        let parts = try #require(URLComponents(string: base))
        let hostPort = "\(parts.host ?? "127.0.0.1"):\(parts.port ?? 5432)"
        func url(_ password: String) -> String {
            let encoded = password.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
                .replacingOccurrences(of: "@", with: "%40")
            return "postgresql://\(role):\(encoded)@\(hostPort)\(parts.path)"
        }
        #expect(libpqPassword(url(password)) == password)
        let db = try PostgresConnection(url: url(password))
        #expect(try db.queryFirst("SELECT current_user") { $0.string(0) } == role)

        let wrong = "Wr0ng?Guess:Wrong%Horse/Bad@Staple"
        do {
            _ = try PostgresConnection(url: url(wrong))
            Issue.record("logged in with a wrong password")
        } catch {
            guard case .open(_, let reason) = error else { throw error }
            #expect(reason.hasPrefix("authentication failed: "), "\(reason)")
            for piece in pieces(wrong) + [wrong] { #expect(!error.description.contains(piece), "\(error)") }
        }
    }
}
