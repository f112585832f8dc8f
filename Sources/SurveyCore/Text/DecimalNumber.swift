/// Reads numbers from text exactly as `Double(_: String)` (the C library's `strtod`) does, without calling
/// it for the common short decimals: a plain decimal of at most 15 significant digits (and, in JSON, an
/// exponent) is a mantissa that a double holds exactly, scaled by a power of ten that it also holds
/// exactly, so one correctly rounded multiplication or division gives the same double `strtod` gives
/// (Clinger's fast path). Anything else goes to `Double(_:)`.
public enum DecimalNumber {
    /// `Double(text)`: nil for text that is not a number.
    public static func parse(_ text: String) -> Double? {
        var text = text
        let fast = text.withUTF8 { bytes in exact(bytes, exponent: false) }
        return fast ?? Double(text)
    }

    /// `Double` of a JSON number's bytes (already checked to be one); nil only when it overflows.
    public static func parse(json bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let fast = exact(bytes, exponent: true) { return fast }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Powers of ten a double holds exactly.
    private static let powersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    /// The value of `-?digits(.digits)?` (with `exponent`, also `[eE][+-]?digits`) when its digits make a
    /// mantissa below 10^15 and its scale is at most 10^22 either way; nil for anything else.
    private static func exact(_ bytes: UnsafeBufferPointer<UInt8>, exponent allowsExponent: Bool) -> Double? {
        var index = 0
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        /// Reads a run of digits into the mantissa; how many there were.
        func mantissaDigits() -> Int {
            let start = index
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                mantissa = mantissa &* 10 &+ digit
                index += 1
            }
            return index - start
        }
        let integerDigits = mantissaDigits()
        guard integerDigits > 0 else { return nil }
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = mantissaDigits()
            guard fractionDigits > 0 else { return nil }
        }
        let digits = integerDigits + fractionDigits
        var scale = -fractionDigits
        if allowsExponent, index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            let negativeExponent = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var exponent = 0
            var exponentDigits = 0
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                exponent = exponent * 10 + Int(digit)
                exponentDigits += 1
                index += 1
                if exponentDigits > 4 { return nil }
            }
            guard exponentDigits > 0 else { return nil }
            scale += negativeExponent ? -exponent : exponent
        }
        guard index == bytes.count, digits <= 15, scale >= -22, scale <= 22 else { return nil }
        var value = Double(mantissa)
        if scale > 0 { value *= powersOfTen[scale] } else if scale < 0 { value /= powersOfTen[-scale] }
        return negative ? -value : value
    }

    private static func digitValue(_ byte: UInt8) -> UInt64? {
        byte >= 0x30 && byte <= 0x39 ? UInt64(byte - 0x30) : nil
    }
}
