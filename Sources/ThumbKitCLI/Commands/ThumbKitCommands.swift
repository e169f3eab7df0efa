// SPDX-License-Identifier: Apache-2.0
/// Every top-level `thumbkit` command, in the order `thumbkit --help` lists them.
enum ThumbKitCommands {
    static let all: [any Command.Type] = [
        ThumbCommand.self, CatalogCommand.self, BuildCommand.self, WorkerCommand.self, SiteCommand.self,
        WatchCommand.self, ServeGroupCommand.self,
        BenchCommand.self, CompareCommand.self, DemoCommand.self,
        XDGCommand.self, ThumbnailerCommand.self,
    ]
}
