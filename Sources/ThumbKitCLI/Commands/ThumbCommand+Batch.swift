// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The checks `thumbkit thumb` makes on the whole batch before any file is read or written,
/// and its standard input and output.
extension ThumbCommand {
    /// The `-o` template, checked: its extension must be one ThumbKit writes and agree with
    /// `--format`; `-o -` (stdout) needs `--format`.
    static func outputTemplate(_ pattern: String, format: ImageFormat?, toStdout: Bool) throws(UsageError)
        -> OutputTemplate
    {
        if toStdout {
            guard let format else {
                throw UsageError.invalidValue(
                    option: "--output", value: "-",
                    reason: "writing to stdout needs --format (png, jpeg, webp or avif)")
            }
            return OutputTemplate("-", format: format)
        }
        do {
            return try OutputTemplate(validating: pattern, format: format)
        } catch {
            throw UsageError.invalidValue(option: "--output", value: pattern, reason: error.description)
        }
    }

    /// Usage errors that depend on the inputs found: a template without `%s` over several
    /// inputs (they would all get one name), `-o -` with other than one input or one scale, `-` twice.
    static func checkBatch(
        _ inputs: InputCollector.Result, template: OutputTemplate, toStdout: Bool, json: Bool, scales: Int
    ) throws(UsageError) {
        if inputs.files.filter({ $0 == "-" }).count > 1 {
            throw UsageError.validationFailed("'-' (standard input) can be given only once")
        }
        if toStdout {
            guard inputs.files.count + inputs.failures.count == 1 else {
                throw UsageError.validationFailed("'-o -' writes one image to stdout: give exactly one input")
            }
            if json { throw UsageError.validationFailed("--json and '-o -' both write to stdout") }
            if scales > 1 { throw UsageError.validationFailed("'-o -' writes one image: give one scale, not --scales") }
        } else if !template.hasNamePlaceholder, inputs.files.count > 1 {
            throw UsageError.validationFailed(
                "the output template '\(template.pattern)' has no %s, so all \(inputs.files.count) inputs would "
                    + "get the same name: add %s")
        }
    }

    /// The whole standard input, refused when it is empty or over `maxBytes`.
    static func readStandardInput(maxBytes: Int) throws(DecodeError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: "-", reason: String(cString: strerror(errno)).lowercased())
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > maxBytes {
                throw .overLimit(path: "-", reason: "standard input is over the limit of \(maxBytes) bytes")
            }
        }
        if bytes.isEmpty { throw .empty(path: "-") }
        return bytes
    }

    /// Writes an output's bytes to the standard output.
    @Sendable static func writeStandardOutput(_ bytes: [UInt8]) throws(EncodeError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .write(path: "-", reason: String(cString: strerror(errno)).lowercased())
            }
            done += n
        }
    }

    /// The report with every path and message as people read them (raw name bytes as `\xE9`),
    /// for `--json`: JSON text must be valid UTF-8, and the private-use stand-ins mean nothing there.
    static func displayed(_ report: BatchReport) -> BatchReport {
        let items = report.items.map { item in
            var copy = item
            copy.input = PathBytes.display(item.input)
            copy.error = item.error.map(PathBytes.display)
            copy.warnings = item.warnings.map(PathBytes.display)
            copy.profileNotes = item.profileNotes.map(PathBytes.display)
            copy.outputs = item.outputs.map { output in
                var o = output
                o.path = PathBytes.display(output.path)
                return o
            }
            return copy
        }
        return BatchReport(items: items, wallSeconds: report.wallSeconds)
    }
}
