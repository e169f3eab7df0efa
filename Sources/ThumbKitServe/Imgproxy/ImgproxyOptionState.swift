// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// The options of a processing URL while it is read: each option sets fields in turn, so a
/// later one overrides an earlier one (`w:100/s:200` is 200 wide), as in imgproxy. An empty
/// argument leaves its field as it was (`rs:fill::300` keeps the width).
struct ImgproxyOptionState {
    var resizingType = ImgproxyRequest.ResizingType.fit
    var width = 0
    var height = 0
    var dpr = 1.0
    var enlarge = false
    var extend = false
    var gravity = ImgproxyGravity.center
    var gravityOffsetX = 0.0
    var gravityOffsetY = 0.0
    var quality: Int?
    var format: ImageFormat?
    var background: RGBA?

    let limits: ImgproxyLimits
    let presets: ImgproxyPresets
    /// Options applied so far, presets' included: bounds what presets can expand to.
    private(set) var applied = 0

    init(limits: ImgproxyLimits, presets: ImgproxyPresets) {
        self.limits = limits
        self.presets = presets
    }

    /// Applies one option; `usedPresets` is the chain of presets being expanded (a preset that
    /// names itself, directly or not, is skipped, as imgproxy does).
    mutating func apply(_ option: ImgproxyOption, usedPresets: [String] = []) throws(ImgproxyError) {
        applied += 1
        guard applied <= ImgproxyURLParser.maxAppliedOptions else {
            throw .presetExpansionTooLarge(count: ImgproxyURLParser.maxAppliedOptions)
        }
        let args = option.arguments[...]
        switch option.name {
        case "resize", "rs": try applyResize(args)
        case "size", "s": try applySize(args, option: "size")
        case "resizing_type", "rt":
            try Self.expect(args, atMost: 1, option: "resizing_type")
            resizingType = try Self.resizingType(args[args.startIndex])
        case "width", "w":
            try Self.expect(args, atMost: 1, option: "width")
            width = try dimension(args[args.startIndex], option: "width")
        case "height", "h":
            try Self.expect(args, atMost: 1, option: "height")
            height = try dimension(args[args.startIndex], option: "height")
        case "enlarge", "el":
            try Self.expect(args, atMost: 1, option: "enlarge")
            enlarge = try Self.bool(args[args.startIndex], option: "enlarge")
        case "extend", "ex": try applyExtend(args)
        case "gravity", "g": try applyGravity(args)
        case "dpr": try applyDPR(args)
        case "quality", "q": try applyQuality(args)
        case "format", "f", "ext":
            try Self.expect(args, atMost: 1, option: "format")
            format = try Self.format(args[args.startIndex])
        case "background", "bg": try applyBackground(args)
        case "preset", "pr": try applyPresets(args, usedPresets: usedPresets)
        default: throw .unknownOption(name: Self.quoted(option.name))
        }
    }

    // MARK: - Options

    private mutating func applyResize(_ args: ArraySlice<String>) throws(ImgproxyError) {
        try Self.expect(args, atMost: 8, option: "resize")
        if let type = args.first, !type.isEmpty { resizingType = try Self.resizingType(type) }
        if args.count > 1 { try applySize(args.dropFirst(), option: "resize") }
    }

    /// `W:H:enlarge:extend[:gravity…]`, each part optional.
    private mutating func applySize(_ args: ArraySlice<String>, option: String) throws(ImgproxyError) {
        try Self.expect(args, atMost: 7, option: option)
        let a = Array(args)
        if a.count > 0, !a[0].isEmpty { width = try dimension(a[0], option: "width") }
        if a.count > 1, !a[1].isEmpty { height = try dimension(a[1], option: "height") }
        if a.count > 2, !a[2].isEmpty { enlarge = try Self.bool(a[2], option: "enlarge") }
        if a.count > 3, !a[3].isEmpty { try applyExtend(a[3...]) }
    }

    /// `extend:BOOL[:gravity[:x:y]]`. ThumbKit pads around the centre only, so a gravity must be
    /// `ce` without offsets (or empty).
    private mutating func applyExtend(_ args: ArraySlice<String>) throws(ImgproxyError) {
        try Self.expect(args, atMost: 4, option: "extend")
        extend = try Self.bool(args[args.startIndex], option: "extend")
        for (i, arg) in args.dropFirst().enumerated() where !(arg.isEmpty || (i == 0 && arg == "ce")) {
            throw .invalidArgument(
                option: "extend", value: Self.quoted(arg),
                expected: "gravity ce without offsets (ThumbKit pads centred)")
        }
    }

    private mutating func applyGravity(_ args: ArraySlice<String>) throws(ImgproxyError) {
        let a = Array(args)
        let type = a[0]
        switch type {
        case "sm":
            try Self.expect(args, atMost: 1, option: "gravity")
            gravity = .smart
            (gravityOffsetX, gravityOffsetY) = (0, 0)
        case "fp":
            guard a.count == 3 else { throw .invalidArgument(option: "gravity", value: "fp", expected: "fp:X:Y") }
            let x = try Self.unitInterval(a[1], option: "gravity.x")
            let y = try Self.unitInterval(a[2], option: "gravity.y")
            gravity = .focusPoint(x: x, y: y)
            (gravityOffsetX, gravityOffsetY) = (0, 0)
        default:
            guard let compass = ImgproxyGravity.compass[type] else {
                throw .invalidArgument(
                    option: "gravity", value: Self.quoted(type),
                    expected: "one of ce, no, so, ea, we, noea, nowe, soea, sowe, sm, fp")
            }
            try Self.expect(args, atMost: 3, option: "gravity")
            gravity = compass
            (gravityOffsetX, gravityOffsetY) = (0, 0)
            if a.count > 1, !a[1].isEmpty { gravityOffsetX = try offset(a[1], option: "gravity.x") }
            if a.count > 2, !a[2].isEmpty { gravityOffsetY = try offset(a[2], option: "gravity.y") }
        }
    }

    private mutating func applyDPR(_ args: ArraySlice<String>) throws(ImgproxyError) {
        try Self.expect(args, atMost: 1, option: "dpr")
        let text = args[args.startIndex]
        guard let value = CanonicalDecimal.parse(text[...], allowNegative: false), value > 0,
            value <= limits.maxDPR
        else {
            throw .invalidArgument(
                option: "dpr", value: Self.quoted(text),
                expected: "a number above 0, at most \(CanonicalDecimal.format(limits.maxDPR))")
        }
        dpr = value
    }

    private mutating func applyQuality(_ args: ArraySlice<String>) throws(ImgproxyError) {
        try Self.expect(args, atMost: 1, option: "quality")
        let text = args[args.startIndex]
        guard let q = CanonicalDecimal.parseCount(text[...]), q <= 100 else {
            throw .invalidArgument(
                option: "quality", value: Self.quoted(text), expected: "an integer 1-100 (0 for the default)")
        }
        quality = q == 0 ? nil : q
    }

    /// `RRGGBB` or `RGB` in hex, `R:G:B` in decimal, or empty for none.
    private mutating func applyBackground(_ args: ArraySlice<String>) throws(ImgproxyError) {
        let a = Array(args)
        switch a.count {
        case 1:
            let hex = a[0]
            if hex.isEmpty {
                background = nil
                return
            }
            guard hex.count == 3 || hex.count == 6, hex.utf8.allSatisfy({ HexDigit.value($0) != nil }),
                let color = RGBA(parsing: "#" + hex)
            else {
                throw .invalidArgument(option: "background", value: Self.quoted(hex), expected: "a hex colour RRGGBB")
            }
            background = RGBA(color.r, color.g, color.b)
        case 3:
            var channels: [UInt8] = []
            for (text, name) in zip(a, ["background.r", "background.g", "background.b"]) {
                guard let v = CanonicalDecimal.parseCount(text[...]), v <= 255 else {
                    throw .invalidArgument(option: name, value: Self.quoted(text), expected: "an integer 0-255")
                }
                channels.append(UInt8(v))
            }
            background = RGBA(channels[0], channels[1], channels[2])
        default:
            throw .invalidArgument(
                option: "background", value: Self.quoted(a.joined(separator: ":")), expected: "RRGGBB or R:G:B")
        }
    }

    private mutating func applyPresets(_ names: ArraySlice<String>, usedPresets: [String]) throws(ImgproxyError) {
        for name in names where !usedPresets.contains(name) {
            guard let options = presets.options[name] else { throw .unknownPreset(name: Self.quoted(name)) }
            for option in options { try apply(option, usedPresets: usedPresets + [name]) }
        }
    }

    // MARK: - Arguments

    private static func expect(_ args: ArraySlice<String>, atMost count: Int, option: String) throws(ImgproxyError) {
        if args.count > count { throw .tooManyArguments(option: option, count: count) }
    }

    private func dimension(_ text: String, option: String) throws(ImgproxyError) -> Int {
        guard let n = CanonicalDecimal.parseCount(text[...]), n <= limits.maxDimension else {
            throw .invalidArgument(
                option: option, value: Self.quoted(text), expected: "an integer 0-\(limits.maxDimension) (0: auto)")
        }
        return n
    }

    private func offset(_ text: String, option: String) throws(ImgproxyError) -> Double {
        let bound = Double(limits.maxDimension)
        guard let v = CanonicalDecimal.parse(text[...], allowNegative: true), v.magnitude <= bound else {
            throw .invalidArgument(
                option: option, value: Self.quoted(text), expected: "a number within ±\(limits.maxDimension)")
        }
        return v
    }

    private static func unitInterval(_ text: String, option: String) throws(ImgproxyError) -> Double {
        guard let v = CanonicalDecimal.parse(text[...], allowNegative: false), v <= 1 else {
            throw .invalidArgument(option: option, value: quoted(text), expected: "a number 0-1")
        }
        return v
    }

    /// Go's `strconv.ParseBool`, which imgproxy uses (but an unknown word is an error, not false).
    static func bool(_ text: String, option: String) throws(ImgproxyError) -> Bool {
        switch text {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw .invalidArgument(option: option, value: quoted(text), expected: "1, 0, true or false")
        }
    }

    static func resizingType(_ text: String) throws(ImgproxyError) -> ImgproxyRequest.ResizingType {
        guard let type = ImgproxyRequest.ResizingType(rawValue: text) else {
            throw .invalidArgument(
                option: "resizing_type", value: quoted(text), expected: "fit, fill, fill-down, force or auto")
        }
        return type
    }

    /// The formats ThumbKit writes, by imgproxy's names.
    static func format(_ text: String) throws(ImgproxyError) -> ImageFormat {
        switch text.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "avif": return .avif
        default: throw .unsupportedFormat(name: quoted(text))
        }
    }

    /// Text from a request, made safe to put in a message: at most 64 characters, control
    /// characters replaced by `?` (a message never carries a raw newline or NUL).
    static func quoted(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(64) {
            out.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar)
        }
        return text.unicodeScalars.count > 64 ? out + "…" : out
    }
}
