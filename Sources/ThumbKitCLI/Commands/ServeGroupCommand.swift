// SPDX-License-Identifier: Apache-2.0
/// `thumbkit serve`: a group whose default subcommand is `run`, so `thumbkit serve [options]`
/// serves (``ServeCommand``), and `thumbkit serve hash-password` makes the line for
/// `--edit-password-file` (``ServeHashPasswordCommand``).
enum ServeGroupCommand: CommandGroup {
    static let spec = CommandSpec(
        name: "serve", abstract: "Serve thumbnails on demand over HTTP, and the catalog's web app.",
        discussion: """
            'thumbkit serve' alone is 'thumbkit serve run'. 'thumbkit serve hash-password' reads \
            a password on stdin and prints the line to put in the file --edit-password-file names.
            """,
        defaultSubcommand: "run")
    static let subcommands: [any Command.Type] = [ServeCommand.self, ServeHashPasswordCommand.self]
}
