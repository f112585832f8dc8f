import Testing
@testable import SurveyCore

/// `DecimalNumber.parse` must be `Double(_: String)` bit for bit: same value, same sign of zero, same nil.
@Suite struct DecimalNumberTests {
    /// Both nil, or the same bits (so -0.0 differs from 0.0, and a NaN matches only the same NaN).
    private static func same(_ lhs: Double?, _ rhs: Double?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.bitPattern == rhs.bitPattern
        default: false
        }
    }

    private static func describe(_ value: Double?) -> String {
        value.map { "\($0) (bits \(String($0.bitPattern, radix: 16)))" } ?? "nil"
    }

    /// The JSON entry point, through a String's own UTF-8 storage.
    private static func parseJSON(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { DecimalNumber.parse(json: $0) }
    }

    /// The JSON entry point, through an array's buffer (not a String's storage).
    private static func parseJSONFromArray(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalNumber.parse(json: $0) }
    }

    private static let fourHundredDigits = "1" + String(repeating: "7", count: 399)

    /// Hand-picked texts: fast-path shapes, the 15/16-digit and 10^22/10^23 limits, and texts that are not numbers.
    static let textCases: [String] = [
        "0", "-0", "007", "12.5", "-12.50", "999999999999999", "9999999999999999", "0.1",
        "0.000000000000000000001", "1e22", "1e23", "1.5e-22", "1E5", "1e+5", "", "-", ".", "5.", ".5", "+5",
        " 5", "5 ", "1e", "abc", "inf", "nan", "0x1A", "1_000", fourHundredDigits, "1e400",
        "-0.0", "-0.000", "0.0000000000000000000001", "123456789012345", "-123456789012345", "1234567890123456",
        "12345678901234.5", "0.123456789012345", "9007199254740993", "--5", "-.5", "5..0", "5.0.0", "1e5",
        "٣", "５", "5\u{0}", "infinity", "-inf", "NaN", "0x1p3", "-" + fourHundredDigits,
    ]

    @Test("parse(text) returns exactly what Double(text) returns for hand-picked texts", arguments: textCases)
    func parsesHandPickedTextsLikeDouble(text: String) {
        let expected = Double(text)
        let actual = DecimalNumber.parse(text)
        #expect(Self.same(actual, expected), "\(text.debugDescription): \(Self.describe(actual)) vs Double: \(Self.describe(expected))")
    }

    /// Valid JSON number texts, including overflow and underflow and exponents past the fast path's four digits.
    static let jsonCases: [String] = [
        "0", "-0", "12.5", "-12.50", "999999999999999", "9999999999999999", "0.1", "0.000000000000000000001",
        "1e22", "1e23", "1.5e-22", "1E5", "1e+5", fourHundredDigits, "-" + fourHundredDigits, "1e400", "-1e400",
        "1e-400", "-1e-400", "-0.0", "-0e5", "0e-5", "1e-22", "1e-23", "123456789012345e-22", "123456789012345e22",
        "1.23e-20", "12.5e21", "12.5e22", "1e0", "1E-0", "1e00022", "1e00023", "1e-00022", "9007199254740993",
        "4.9e-324", "2.4703282292062327e-324", "1.7976931348623157e308", "1.7976931348623159e308", "0.1e1",
    ]

    @Test("parse(json:) returns exactly Double(String(decoding:)) for valid JSON numbers", arguments: jsonCases)
    func parsesHandPickedJSONNumbersLikeDouble(text: String) {
        let expected = Double(text)
        let fromString = Self.parseJSON(text)
        let fromArray = Self.parseJSONFromArray(text)
        #expect(Self.same(fromString, expected), "\(text): \(Self.describe(fromString)) vs Double: \(Self.describe(expected))")
        #expect(Self.same(fromArray, expected), "\(text): \(Self.describe(fromArray)) vs Double: \(Self.describe(expected))")
    }

    @Test("a few results pinned by value, so the comparison above cannot pass by both sides being wrong")
    func pinsSignedZeroAndKnownValues() throws {
        let negativeZero = try #require(DecimalNumber.parse("-0"))
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        let positiveZero = try #require(DecimalNumber.parse("0"))
        #expect(positiveZero.sign == .plus)
        #expect(DecimalNumber.parse("-12.50") == -12.5)
        #expect(DecimalNumber.parse("0.1") == 0.1)
        #expect(DecimalNumber.parse("007") == 7)
        #expect(DecimalNumber.parse("1e5") == 100_000)  // via Double(text): strtod takes exponents
        #expect(DecimalNumber.parse(" 5") == nil)
        #expect(DecimalNumber.parse("") == nil)
        #expect(Self.parseJSON("1e22") == 1e22)
        #expect(Self.parseJSON("1.5e-22") == 1.5e-22)
        #expect(Self.parseJSON("-0e5")?.sign == .minus)
        #expect(Self.parseJSON("1e400") == Double("1e400"))
    }

    // MARK: Seeded property tests

    /// A 64-bit LCG (Knuth's MMIX constants); the high bits are the random ones.
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func digits(_ count: Int, nonZeroFirst: Bool = false) -> String {
            String((0..<count).map { position in
                Character(String(nonZeroFirst && position == 0 ? 1 + below(9) : below(10)))
            })
        }
        /// Mostly short digit runs (the fast path), sometimes up to `maximum`.
        mutating func length(upTo maximum: Int) -> Int { chance(70) ? below(min(maximum, 8) + 1) : below(maximum + 1) }
    }

    private static let junk: [String] = [" ", "x", "e", "E", ".", "-", "+", "_", "\u{0}", "é", "５", "\t", "0x", "i", "n"]

    /// Sign? digits{0,20} (. digits{0,25})? (e sign? digits{1,4})?, with occasional junk spliced in.
    private static func randomText(_ generator: inout Generator) -> String {
        var text = ""
        if generator.chance(30) { text += generator.chance(80) ? "-" : "+" }
        text += generator.digits(generator.length(upTo: 20))
        if generator.chance(50) {
            text += "."
            text += generator.digits(generator.length(upTo: 25))
        }
        if generator.chance(25) {
            text += generator.chance(50) ? "e" : "E"
            if generator.chance(50) { text += generator.chance(50) ? "-" : "+" }
            text += generator.digits(1 + generator.below(4))
        }
        if generator.chance(10) {
            var characters = Array(text)
            characters.insert(contentsOf: junk[generator.below(junk.count)], at: generator.below(characters.count + 1))
            text = String(characters)
        }
        return text
    }

    /// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]{1,4})?
    private static func randomJSONNumber(_ generator: inout Generator) -> String {
        var text = generator.chance(40) ? "-" : ""
        let integerDigits = generator.length(upTo: 20)
        text += integerDigits == 0 ? "0" : generator.digits(integerDigits, nonZeroFirst: true)
        if generator.chance(50) { text += "." + generator.digits(1 + generator.length(upTo: 24)) }
        if generator.chance(50) {
            text += generator.chance(50) ? "e" : "E"
            if generator.chance(60) { text += generator.chance(50) ? "-" : "+" }
            // Mostly exponents near the 10^22 limit; sometimes any of up to four digits (leading zeros too).
            text += generator.chance(70) ? String(generator.below(31)) : generator.digits(1 + generator.below(4))
        }
        return text
    }

    @Test("parse(text) agrees bit for bit with Double(text) on thousands of seeded random texts")
    func agreesWithDoubleOnRandomTexts() {
        var generator = Generator(state: 0x5EED_DEC1)
        var mismatches: [String] = []
        var numbers = 0
        for _ in 0..<20_000 {
            let text = Self.randomText(&generator)
            let expected = Double(text)
            if expected != nil { numbers += 1 }
            if !Self.same(DecimalNumber.parse(text), expected) { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(10).map(\.debugDescription))")
        // The grammar must produce plenty of real numbers, or the comparison proves little.
        #expect(numbers > 5_000)
    }

    @Test("parse(json:) agrees bit for bit with Double(String) on thousands of seeded random JSON numbers")
    func agreesWithDoubleOnRandomJSONNumbers() {
        var generator = Generator(state: 0x0DEC_1A5A)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let text = Self.randomJSONNumber(&generator)
            let expected = Double(text)
            if !Self.same(Self.parseJSON(text), expected) || !Self.same(Self.parseJSONFromArray(text), expected) {
                mismatches.append(text)
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(10))")
    }

    @Test("parse(json:) is exact for every fast-path shape: up to 15 digits scaled by 10^-22...10^22")
    func agreesWithDoubleInsideTheFastPath() {
        var generator = Generator(state: 0xC11_4CE5)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let digits = 1 + generator.below(15)
            let mantissa = generator.digits(digits, nonZeroFirst: true)
            let point = generator.below(digits + 1)  // digits before the point; all of them means no point
            var text = generator.chance(50) ? "-" : ""
            if point == 0 {
                text += "0." + mantissa
            } else if point == digits {
                text += mantissa
            } else {
                text += mantissa.prefix(point) + "." + mantissa.dropFirst(point)
            }
            text += "e" + String(generator.below(45) - 22)
            if !Self.same(Self.parseJSON(text), Double(text)) { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(10))")
    }
}
