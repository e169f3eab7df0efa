// The `thumbkit` executable: everything lives in ThumbKitCLI.
import ThumbKitCLI

await CLI.main()
