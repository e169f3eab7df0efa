// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCLI

/// The typed helpers of `ParsedArguments`: `int`, `double`, `size`, `list` and `choice`.
struct TypedValueParserTests {
    private func parsed(_ options: [String]) throws -> ParsedArguments {
        try Sample.parse(["thumb"] + options + ["a.jpg"])
    }

    static let sizes: [ArgvRow<ParsedArguments.Size>] = [
        ArgvRow("square", ["-s", "88x88"], .init(width: 88, height: 88)),
        ArgvRow("landscape", ["-s", "640x480"], .init(width: 640, height: 480)),
        ArgvRow("upper-case X", ["-s", "640X480"], .init(width: 640, height: 480)),
        ArgvRow("single number is a square", ["-s", "44"], .init(width: 44, height: 44)),
        ArgvRow("leading zeros", ["-s", "007x1"], .init(width: 7, height: 1)),
        ArgvRow("default", [], .init(width: 88, height: 88)),
    ]

    @Test(arguments: sizes)
    func sizesParseAsWidthByHeightOrASquare(row: ArgvRow<ParsedArguments.Size>) throws {
        #expect(try parsed(row.argv).size("size") == row.expected)
    }

    static let badSizes = [
        "0x5", "5x0", "x5", "5x", "5x5x5", "-5x5", "+5x5", " 5x5", "5 x 5", "abc", "", "4.5x2", "٣x٣",
    ]

    @Test(arguments: badSizes)
    func malformedSizesAreInvalidValues(text: String) throws {
        let arguments = try parsed(["--size=\(text)"])
        let reason = "expected WxH (such as 88x88) or N for an NxN square"
        #expect(throws: UsageError.invalidValue(option: "--size", value: text, reason: reason)) {
            try arguments.size("size")
        }
    }

    @Test func integersParseAndRespectTheirRange() throws {
        #expect(try parsed(["-q", "92"]).int("quality", in: 1...100) == 92)
        #expect(try parsed([]).int("quality") == 85)
        #expect(try parsed([]).int("offset") == nil)
        #expect(try parsed(["--offset", "-7"]).int("offset") == -7)
        #expect(throws: UsageError.invalidValue(option: "--quality", value: "high", reason: "expected an integer")) {
            try parsed(["-q", "high"]).int("quality")
        }
        let reason = "expected an integer from 1 to 100"
        #expect(throws: UsageError.invalidValue(option: "--quality", value: "0", reason: reason)) {
            try parsed(["-q", "0"]).int("quality", in: 1...100)
        }
        #expect(throws: UsageError.invalidValue(option: "--quality", value: "9.5", reason: reason)) {
            try parsed(["-q", "9.5"]).int("quality", in: 1...100)
        }
    }

    /// Issue 12 item 26: `--max-pixels abc` asked for an integer "from 1 to 9223372036854775807".
    @Test func anOpenEndedRangeIsDescribedWithoutIntMax() throws {
        let reason = "expected a whole number of at least 1"
        #expect(throws: UsageError.invalidValue(option: "--quality", value: "abc", reason: reason)) {
            try parsed(["-q", "abc"]).int("quality", in: 1...Int.max)
        }
        #expect(throws: UsageError.invalidValue(option: "--quality", value: "0", reason: reason)) {
            try parsed(["-q", "0"]).int("quality", in: 1...Int.max)
        }
    }

    @Test func doublesParseAndRejectNonFiniteValues() throws {
        #expect(try parsed(["--offset", "-0.25"]).double("offset") == -0.25)
        #expect(try parsed(["--offset", "3"]).double("offset", in: 0...10) == 3)
        for text in ["nan", "inf", "1e999", "one"] {
            #expect(throws: UsageError.invalidValue(option: "--offset", value: text, reason: "expected a number")) {
                try parsed(["--offset", text]).double("offset")
            }
        }
        let reason = "expected a number from 0.0 to 1.0"
        #expect(throws: UsageError.invalidValue(option: "--offset", value: "1.5", reason: reason)) {
            try parsed(["--offset", "1.5"]).double("offset", in: 0...1)
        }
    }

    @Test func listsSplitOnCommasAndIgnoreSpacesAroundItems() throws {
        #expect(try parsed(["--ratios", "1,2, 4 ,8"]).list("ratios", as: Int.self) == [1, 2, 4, 8])
        #expect(try parsed(["--ratios", "0.5,1.5"]).list("ratios", as: Double.self) == [0.5, 1.5])
        #expect(try parsed(["--ratios", "7"]).list("ratios", as: Int.self) == [7])
        #expect(try parsed([]).list("ratios", as: Int.self) == [])
    }

    @Test(arguments: ["1,,2", "1,2,", ",1", "", "1;2", "1.5,2"])
    func malformedIntegerListsAreInvalidValues(text: String) throws {
        let arguments = try parsed(["--ratios=\(text)"])
        let reason = "expected a comma-separated list of integers"
        #expect(throws: UsageError.invalidValue(option: "--ratios", value: text, reason: reason)) {
            try arguments.list("ratios", as: Int.self)
        }
    }

    @Test func aRepeatedListJoinsEveryOccurrenceInOrder() throws {
        let arguments = try parsed(["--level", "3,1", "--level=2"])
        #expect(try arguments.list("level", as: Int.self) == [3, 1, 2])
        let reason = "expected a comma-separated list of numbers"
        #expect(throws: UsageError.invalidValue(option: "--level", value: "x", reason: reason)) {
            try parsed(["--level", "1", "--level", "x"]).list("level", as: Double.self)
        }
    }

    @Test func choicesConvertToTheEnumAndFallBackToTheDefault() throws {
        #expect(try parsed(["--fit", "pad"]).choice("fit", as: SampleFit.self) == .pad)
        #expect(try parsed([]).choice("fit", as: SampleFit.self) == .fill)
    }

    @Test func aChoiceOutsideTheEnumIsAnInvalidValue() throws {
        // `--output` has no allowed values, so only `choice` can catch this.
        let arguments = try parsed(["-o", "crop"])
        let reason = "expected one of fill, fit, pad, stretch"
        #expect(throws: UsageError.invalidValue(option: "--output", value: "crop", reason: reason)) {
            try arguments.choice("output", as: SampleFit.self)
        }
    }

    @Test func theChoiceOptionListsTheEnumCasesAndItsDefault() {
        let option = OptionSpec.choice("fit", of: SampleFit.self, default: .pad, help: "Fit.")
        #expect(option.allowedValues == ["fill", "fit", "pad", "stretch"])
        #expect(option.defaultValue == "pad")
        #expect(option.kind == .value)
        #expect(option.valueName == "mode")
    }
}
