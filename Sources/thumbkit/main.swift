// SPDX-License-Identifier: Apache-2.0
// The `thumbkit` executable: everything lives in ThumbKitCLI.
import ThumbKitCLI

await CLI.main()
