// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCatalog

/// The `?` → `$n` rewrite: parameters are numbered, literals, identifiers and comments are not.
struct PostgresPlaceholderTests {
    @Test func numbersEveryParameterFromLeftToRight() {
        let (sql, count) = PostgresPlaceholders.numbered("INSERT INTO t (a, b, c) VALUES (?, ?,?)")
        #expect(sql == "INSERT INTO t (a, b, c) VALUES ($1, $2,$3)")
        #expect(count == 3)
        #expect(PostgresPlaceholders.numbered("SELECT 1") == ("SELECT 1", 0))
    }

    @Test func skipsStringLiteralsAndQuotedIdentifiers() {
        let input = #"SELECT '?', "?" , "a""?", ? FROM t WHERE a = 'it''s ?' AND b = ? AND "x"?"#
        let (sql, count) = PostgresPlaceholders.numbered(input)
        #expect(sql == #"SELECT '?', "?" , "a""?", $1 FROM t WHERE a = 'it''s ?' AND b = $2 AND "x"$3"#)
        #expect(count == 3)
    }

    @Test func backslashEscapesOnlyInEscapeStrings() {
        // E'\' ?' is one literal (\' is a quote inside it); '\' is a whole literal by itself.
        #expect(PostgresPlaceholders.numbered(#"SELECT E'\' ?', ?"#) == (#"SELECT E'\' ?', $1"#, 1))
        #expect(PostgresPlaceholders.numbered(#"SELECT e'\\', '\', ?"#) == (#"SELECT e'\\', '\', $1"#, 1))
        // An identifier ending in e before a quote is not an escape-string prefix.
        #expect(PostgresPlaceholders.numbered(#"SELECT type'\', ?"#) == (#"SELECT type'\', $1"#, 1))
    }

    @Test func skipsCommentsAndDollarQuotes() {
        let input = "-- a ? here\nSELECT ? /* ? /* nested ? */ ? */, $$ ? $$, $tag$ it's ? $ $tag$, a$b, ?"
        let (sql, count) = PostgresPlaceholders.numbered(input)
        #expect(sql == "-- a ? here\nSELECT $1 /* ? /* nested ? */ ? */, $$ ? $$, $tag$ it's ? $ $tag$, a$b, $2")
        #expect(count == 2)
    }

    @Test func numberedQuestionMarksFollowSQLitesRules() {
        // As in CatalogTransaction+History: one value used twice.
        let (sql, count) = PostgresPlaceholders.numbered("SELECT * FROM t WHERE (?1 IS NULL OR status = ?1)")
        #expect(sql == "SELECT * FROM t WHERE ($1 IS NULL OR status = $1)")
        #expect(count == 1)
        #expect(PostgresPlaceholders.numbered("VALUES (?, ?3, ?, '?2')") == ("VALUES ($1, $3, $4, '?2')", 4))
    }

    @Test func keepsExistingNumberedParametersAndUnicode() {
        #expect(PostgresPlaceholders.numbered("SELECT 'é?', ?, $1") == ("SELECT 'é?', $1, $1", 1))
        // Unterminated quotes swallow the rest rather than inventing parameters.
        #expect(PostgresPlaceholders.numbered("SELECT 'open ?") == ("SELECT 'open ?", 0))
        #expect(PostgresPlaceholders.numbered("SELECT $x$ ?") == ("SELECT $x$ ?", 0))
    }
}

/// `--catalog` values and their redacted forms.
struct CatalogLocationTests {
    @Test func pathsAreSQLiteAndURLsArePostgres() throws {
        #expect(try CatalogLocation(parsing: "cat.sqlite") == .sqlite(path: "cat.sqlite"))
        #expect(try CatalogLocation(parsing: "./host=x") == .sqlite(path: "./host=x"))
        #expect(try CatalogLocation(parsing: "postgres://h/db") == .postgres(url: "postgres://h/db"))
        #expect(
            try CatalogLocation(parsing: "postgresql:///db?host=/run/pg")
                == .postgres(url: "postgresql:///db?host=/run/pg"))
    }

    @Test func refusesKeywordValueStringsAndOtherSchemesWithoutEchoingSecrets() {
        for value in [
            "host=db dbname=cat password=hunter2", " password = hunter2", "mysql://u:hunter2@h/db",
            "Postgres://u:hunter2@h/db",
        ] {
            do {
                _ = try CatalogLocation(parsing: value)
                Issue.record("accepted \(value)")
            } catch {
                #expect(!error.description.contains("hunter2"), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(throws: CatalogError.self) { try CatalogLocation(parsing: "") }
    }

    @Test func redactsTheUserInfoPassword() {
        let cases = [
            "postgres://alice:s3cret@db.example:5432/cat": "postgres://alice:***@db.example:5432/cat",
            "postgres://alice:p%40ss%2Fw%3A@h/db": "postgres://alice:***@h/db",
            "postgresql://alice:p%40ss%2Fw@h1:5432,h2/db?sslmode=require":
                "postgresql://alice:***@h1:5432,h2/db?sslmode=require",
            // libpq would read host "ss", database "w@h1…": refused, and shown with nothing.
            "postgresql://alice:p@ss/w@h1:5432,h2/db?sslmode=require": "postgresql://***",
            "postgres://alice:@h/db": "postgres://alice:***@h/db",
            "postgres://alice@h/db": "postgres://alice@h/db",
            "postgres:///db?host=/var/run/postgresql": "postgres:///db?host=/var/run/postgresql",
        ]
        for (url, expected) in cases {
            #expect(CatalogLocation.redact(url) == expected)
            #expect(CatalogLocation.postgres(url: url).redacted == expected)
            #expect("\(CatalogLocation.postgres(url: url))" == expected)
        }
    }

    @Test func redactsPasswordsInTheQueryString() {
        let url = "postgres://h/db?sslmode=require&password=s3cret&pass%77ord=x%20y&sslpassword=k3y&passfile=/p"
        #expect(
            CatalogLocation.redact(url)
                == "postgres://h/db?sslmode=require&password=***&pass%77ord=***&sslpassword=***&passfile=/p")
        let secrets = CatalogLocation.secrets(in: "postgres://u:p%40ss@h/db?password=s3cret")
        #expect(Set(secrets).isSuperset(of: ["p%40ss", "p@ss", "s3cret"]))
        #expect(
            CatalogLocation.scrub("bad token \"p%40ss\" near p@ss", secrets: secrets) == "bad token \"***\" near ***")
    }
}
