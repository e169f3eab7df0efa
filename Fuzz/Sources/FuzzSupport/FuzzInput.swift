// SPDX-License-Identifier: Apache-2.0
import CFuzzDriver

/// Helpers shared by the fuzz targets.
public enum FuzzInput {
    /// libFuzzer's input as a Swift array (copied: the callee may keep it).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Runs libFuzzer over `target` with the command-line arguments; returns its exit status.
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, target)
    }
}
