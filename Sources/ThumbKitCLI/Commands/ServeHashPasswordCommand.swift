// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitServe

/// `thumbkit serve hash-password`: the edit password's hash, for `serve --edit-password-file`.
enum ServeHashPasswordCommand: Command {
    static let spec = CommandSpec(
        name: "hash-password", abstract: "Read a password on stdin and print its hash for --edit-password-file.",
        discussion: """
            Reads the password from stdin (up to the first line break; nothing is echoed or \
            printed back) and prints one line, 'scrypt$N$r$p$SALT$HASH' (scrypt through OpenSSL, \
            N = 32768, r = 8, p = 1, a random 16-byte salt), or with --pbkdf2 \
            'pbkdf2-sha256$600000$SALT$HASH'. Put it in a file readable only by the server and \
            start 'thumbkit serve --edit-password-file FILE'.

            Example:
              printf '%s\\n' "$PASSWORD" | thumbkit serve hash-password > edit-password.txt
            """,
        options: [pbkdf2])

    /// `--pbkdf2`: PBKDF2-HMAC-SHA256 rather than scrypt.
    static let pbkdf2: OptionKey<Bool> = .flag("pbkdf2", help: "Use PBKDF2-HMAC-SHA256 (600000 rounds), not scrypt.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var password = String(decoding: data, as: UTF8.self)
        if let end = password.firstIndex(where: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            password = String(password[..<end])
        }
        guard !password.isEmpty else {
            context.printError("no password on stdin")
            return .failure
        }
        let function =
            try arguments[pbkdf2] ? PasswordHash.Function.pbkdf2(iterations: 600_000) : PasswordHash.defaultScrypt
        guard let hash = PasswordHash.make(password: password, function: function) else {
            context.printError("the password could not be hashed (OpenSSL failed)")
            return .failure
        }
        context.print(hash.encoded)
        return .success
    }
}
