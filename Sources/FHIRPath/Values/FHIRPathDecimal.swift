/// A FHIRPath `Decimal`: an exact decimal that keeps its precision (the digits written after the point), so
/// `1.10` prints as `1.10`, equals `1.1`, and `precision()`, `lowBoundary()` and equivalence see two digits.
/// Never a `Double`: the value is `significand × 10^-scale` with a 128-bit significand (38 digits).
public struct FHIRPathDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    // The significand is stored as two words (an `Int128` field would make every FHIRPath item 16-byte aligned).
    private var high: Int64
    private var low: UInt64
    private var storedScale: Int16
    /// A zero that prints with a minus sign: only the boundary functions make one (`(-0.0034).lowBoundary(1)`
    /// is `-0.0` in the official suite); arithmetic never does.
    private var isNegativeZero = false

    public var significand: Int128 {
        get { Int128(high) << 64 | Int128(low) }
        set {
            high = Int64(truncatingIfNeeded: newValue >> 64)
            low = UInt64(truncatingIfNeeded: newValue)
        }
    }

    /// Digits after the decimal point (0 for a whole number written without a point).
    public var scale: Int {
        get { Int(storedScale) }
        set { storedScale = Int16(newValue) }
    }

    /// The most digits after the point a result may have (the suite's `lowBoundary(32)` is empty).
    public static let maximumScale = 28
    /// The most digits after the point a written number keeps (more are rounded off as it is read).
    static let maximumParsedScale = 60
    /// The digits after the point of a quotient (the spec's Decimal step is 10^-8).
    static let divisionScale = 8

    public init(significand: Int128, scale: Int) {
        high = Int64(truncatingIfNeeded: significand >> 64)
        low = UInt64(truncatingIfNeeded: significand)
        storedScale = Int16(scale)
    }

    public init(_ integer: Int) {
        self.init(significand: Int128(integer), scale: 0)
    }

    public static let zero = FHIRPathDecimal(0)
    public static let one = FHIRPathDecimal(1)

    /// `-?digits(.digits)?`, and with `exponent` JSON's `[eE][+-]?digits`; nil for anything else or a value
    /// whose whole part has more than 38 digits. Fraction digits beyond what fits are rounded off.
    public init?(_ text: some StringProtocol, exponent allowsExponent: Bool = false) {
        var digits: Int128 = 0
        var count = 0
        var scale = 0
        var negative = false
        var sawPoint = false
        var sawDigit = false
        var exponent = 0
        var roundUp = false
        var truncated = false
        var iterator = text.utf8.makeIterator()
        var byte = iterator.next()
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            byte = iterator.next()
        }
        while let current = byte {
            if current >= 0x30, current <= 0x39 {
                sawDigit = true
                if truncated {
                    if !sawPoint { return nil }
                } else if count >= 38 || (sawPoint && scale >= Self.maximumParsedScale) {
                    guard sawPoint else { return nil }
                    truncated = true
                    roundUp = current >= 0x35
                } else {
                    digits = digits * 10 + Int128(current - 0x30)
                    if digits != 0 { count += 1 }
                    if sawPoint { scale += 1 }
                }
            } else if current == UInt8(ascii: "."), !sawPoint, sawDigit {
                sawPoint = true
                sawDigit = false
            } else if allowsExponent, current == UInt8(ascii: "e") || current == UInt8(ascii: "E"), sawDigit {
                guard let value = Self.exponent(&iterator) else { return nil }
                exponent = value
                byte = nil
                break
            } else {
                return nil
            }
            byte = iterator.next()
        }
        guard sawDigit else { return nil }
        if roundUp { digits += 1 }
        var value = FHIRPathDecimal(significand: negative ? -digits : digits, scale: scale)
        if exponent > 0 {
            for _ in 0..<exponent {
                if value.scale > 0 {
                    value.scale -= 1
                } else {
                    guard let grown = value.significand.multipliedChecked(by: 10) else { return nil }
                    value.significand = grown
                }
            }
        } else if exponent < 0 {
            // Digits past `maximumParsedScale` after the point are rounded off (a value that small is zero).
            let shifted = value.scale - exponent
            if shifted > Self.maximumParsedScale {
                guard let divisor = Self.powerOfTen(shifted - Self.maximumParsedScale) else {
                    self = FHIRPathDecimal(significand: 0, scale: Self.maximumParsedScale)
                    return
                }
                value = FHIRPathDecimal(significand: value.significand / divisor, scale: Self.maximumParsedScale)
            } else {
                value.scale = shifted
            }
        }
        self = value
    }

    private static func exponent(_ iterator: inout some IteratorProtocol<UInt8>) -> Int? {
        var negative = false
        var value = 0
        var sawDigit = false
        var byte = iterator.next()
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            byte = iterator.next()
        }
        while let current = byte {
            guard current >= 0x30, current <= 0x39, value < 10_000 else { return nil }
            value = value * 10 + Int(current - 0x30)
            sawDigit = true
            byte = iterator.next()
        }
        return sawDigit ? (negative ? -value : value) : nil
    }

    /// The value of a `Double` as its shortest decimal text reads (for the results of `exp`, `ln`, `power`).
    init?(approximating value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e18 {
            self.init(Int(value))
            return
        }
        self.init("\(value)", exponent: true)
    }

    public var isZero: Bool { significand == 0 }
    public var isNegative: Bool { significand < 0 || isNegativeZero }

    public var doubleValue: Double {
        Double(significand) / Self.powerOfTenDouble(scale)
    }

    private static func powerOfTenDouble(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<max(0, exponent) { result *= 10 }
        return result
    }

    static func powerOfTen(_ exponent: Int) -> Int128? {
        var result: Int128 = 1
        for _ in 0..<max(0, exponent) {
            guard let next = result.multipliedChecked(by: 10) else { return nil }
            result = next
        }
        return result
    }

    /// The text with exactly `scale` digits after the point: `1.10`, `-0.5`, `3`.
    public var description: String {
        var digits = String(significand.magnitude)
        if scale > 0 {
            if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        }
        return isNegative ? "-" + digits : digits
    }

    /// The same value with `newScale` digits after the point: padded with zeros, or rounded half away from
    /// zero (the spec's `round()`).
    public func rounded(to newScale: Int) -> FHIRPathDecimal {
        changingScale(to: newScale, rounding: .halfAwayFromZero)
    }

    enum Rounding {
        case halfAwayFromZero, towardZero, down, up
    }

    func changingScale(to newScale: Int, rounding: Rounding) -> FHIRPathDecimal {
        if newScale >= scale {
            var result = self
            let target = min(newScale, Self.maximumParsedScale)
            while result.scale < target, let grown = result.significand.multipliedChecked(by: 10) {
                result.significand = grown
                result.scale += 1
            }
            return result
        }
        guard let divisor = Self.powerOfTen(scale - newScale) else {
            return FHIRPathDecimal(significand: 0, scale: newScale)
        }
        let (quotient, remainder) = significand.quotientAndRemainder(dividingBy: divisor)
        var result = quotient
        if remainder != 0 {
            switch rounding {
            case .towardZero: break
            case .halfAwayFromZero:
                if remainder.magnitude * 2 >= divisor.magnitude { result += significand < 0 ? -1 : 1 }
            case .down: if significand < 0 { result -= 1 }
            case .up: if significand > 0 { result += 1 }
            }
        }
        return FHIRPathDecimal(significand: result, scale: newScale)
    }

    /// The same value without trailing zeros after the point, but keeping at least `minimumScale` digits.
    func trimmed(keeping minimumScale: Int = 0) -> FHIRPathDecimal {
        var result = self
        while result.scale > max(0, minimumScale), result.significand % 10 == 0 {
            result.significand /= 10
            result.scale -= 1
        }
        return result
    }

    /// Both values with the same scale, when their significands can hold it.
    private static func aligned(_ lhs: FHIRPathDecimal, _ rhs: FHIRPathDecimal) -> (Int128, Int128, Int)? {
        if lhs.scale == rhs.scale { return (lhs.significand, rhs.significand, lhs.scale) }
        let target = max(lhs.scale, rhs.scale)
        guard let left = lhs.significand.multipliedChecked(byPowerOfTen: target - lhs.scale),
            let right = rhs.significand.multipliedChecked(byPowerOfTen: target - rhs.scale)
        else { return nil }
        return (left, right, target)
    }

    /// The sum, with the larger scale of the two; nil when it does not fit in 38 digits.
    public static func + (lhs: FHIRPathDecimal, rhs: FHIRPathDecimal) -> FHIRPathDecimal? {
        if lhs.storedScale == rhs.storedScale, let sum = lhs.significand.addingChecked(rhs.significand) {
            return FHIRPathDecimal(significand: sum, scale: lhs.scale)
        }
        var left = lhs
        var right = rhs
        while true {
            if let (a, b, scale) = aligned(left, right), let sum = a.addingChecked(b) {
                return FHIRPathDecimal(significand: sum, scale: scale)
            }
            // Give up digits after the point of the finer operand until the sum fits.
            if left.scale >= right.scale, left.scale > 0 {
                left = left.rounded(to: left.scale - 1)
            } else if right.scale > 0 {
                right = right.rounded(to: right.scale - 1)
            } else {
                return nil
            }
        }
    }

    public static prefix func - (value: FHIRPathDecimal) -> FHIRPathDecimal {
        FHIRPathDecimal(significand: -value.significand, scale: value.scale)
    }

    public static func - (lhs: FHIRPathDecimal, rhs: FHIRPathDecimal) -> FHIRPathDecimal? {
        lhs + (-rhs)
    }

    /// The product, with the sum of the scales (at most `maximumScale`); nil when the whole part overflows.
    public static func * (lhs: FHIRPathDecimal, rhs: FHIRPathDecimal) -> FHIRPathDecimal? {
        var left = lhs
        var right = rhs
        while true {
            if let product = left.significand.multipliedChecked(by: right.significand) {
                let result = FHIRPathDecimal(significand: product, scale: left.scale + right.scale)
                return result.scale > maximumScale ? result.rounded(to: maximumScale) : result
            }
            // Too many digits: drop trailing zeros first, then digits after the point of the finer operand.
            if left.significand % 10 == 0, left.scale > 0 {
                left = left.trimmed(keeping: left.scale - 1)
            } else if right.significand % 10 == 0, right.scale > 0 {
                right = right.trimmed(keeping: right.scale - 1)
            } else if left.scale >= right.scale, left.scale > 0 {
                left = left.rounded(to: left.scale - 1)
            } else if right.scale > 0 {
                right = right.rounded(to: right.scale - 1)
            } else {
                return nil
            }
        }
    }

    /// The quotient rounded to `divisionScale` digits after the point (or the operands' own scale if finer),
    /// then stripped of trailing zeros down to the operands' scale: `1 / 2` is `0.5`, `4.0 / 2.0` is `2.0`,
    /// `1 / 3` is `0.33333333`. Nil for a zero divisor or an overflow.
    public static func / (lhs: FHIRPathDecimal, rhs: FHIRPathDecimal) -> FHIRPathDecimal? {
        guard !rhs.isZero else { return nil }
        let resultScale = min(maximumScale, max(divisionScale, lhs.scale, rhs.scale))
        // lhs / rhs = (a × 10^-s) / (b × 10^-t); scaled to resultScale: a × 10^(resultScale - s + t) / b.
        let shift = resultScale - lhs.scale + rhs.scale
        var numerator = lhs.significand
        var denominator = rhs.significand
        if shift >= 0 {
            guard let scaled = numerator.multipliedChecked(byPowerOfTen: shift) else { return nil }
            numerator = scaled
        } else {
            guard let scaled = denominator.multipliedChecked(byPowerOfTen: -shift) else { return nil }
            denominator = scaled
        }
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        var result = quotient
        if remainder != 0, remainder.magnitude * 2 >= denominator.magnitude {
            result += (numerator < 0) != (denominator < 0) ? -1 : 1
        }
        return FHIRPathDecimal(significand: result, scale: resultScale).trimmed(keeping: max(lhs.scale, rhs.scale))
    }

    /// Truncated division (`div`): the whole part of the quotient.
    func integerQuotient(_ rhs: FHIRPathDecimal) -> Int128? {
        guard !rhs.isZero, let (a, b, _) = Self.aligned(self, rhs) else { return nil }
        return a / b
    }

    /// `mod`: the remainder of truncated division, with the larger scale.
    func remainder(_ rhs: FHIRPathDecimal) -> FHIRPathDecimal? {
        guard !rhs.isZero, let (a, b, scale) = Self.aligned(self, rhs) else { return nil }
        return FHIRPathDecimal(significand: a % b, scale: scale)
    }

    public static func == (lhs: FHIRPathDecimal, rhs: FHIRPathDecimal) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Whether the two are written alike: the same value with the same digits after the point (and sign of
    /// zero), where `==` compares values only (`1.10 == 1.1`).
    public func isIdentical(to other: FHIRPathDecimal) -> Bool {
        high == other.high && low == other.low && storedScale == other.storedScale && isNegativeZero == other.isNegativeZero
    }

    public static func < (lhs: FHIRPathDecimal, rhs: FHIRPathDecimal) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// -1, 0 or 1 by value (trailing zeros do not matter).
    static func compare(_ lhs: FHIRPathDecimal, _ rhs: FHIRPathDecimal) -> Int {
        if let (a, b, _) = aligned(lhs, rhs) { return a < b ? -1 : a > b ? 1 : 0 }
        // One side has too many digits to align: compare whole parts, then the trimmed values.
        let left = lhs.trimmed()
        let right = rhs.trimmed()
        if let (a, b, _) = aligned(left, right) { return a < b ? -1 : a > b ? 1 : 0 }
        let leftWhole = left.changingScale(to: 0, rounding: .down).significand
        let rightWhole = right.changingScale(to: 0, rounding: .down).significand
        if leftWhole != rightWhole { return leftWhole < rightWhole ? -1 : 1 }
        return left.doubleValue < right.doubleValue ? -1 : left.doubleValue > right.doubleValue ? 1 : 0
    }

    public func hash(into hasher: inout Hasher) {
        let normal = trimmed()
        hasher.combine(normal.significand)
        hasher.combine(normal.scale)
    }

    /// Equivalence (`~`): equal once both are rounded to the scale of the less precise one.
    func isEquivalent(to other: FHIRPathDecimal) -> Bool {
        let scale = min(self.scale, other.scale)
        return rounded(to: scale) == other.rounded(to: scale)
    }

    /// The whole number toward negative infinity, toward positive infinity, or toward zero.
    var floor: Int128 { changingScale(to: 0, rounding: .down).significand }
    var ceiling: Int128 { changingScale(to: 0, rounding: .up).significand }
    var truncated: Int128 { changingScale(to: 0, rounding: .towardZero).significand }

    /// The least value this decimal may stand for, to `precision` digits after the point (nil past
    /// `maximumScale` or below 0). The value's own uncertainty is half a unit of its last digit: `1.587`
    /// stands for [1.5865, 1.5875). Shortened, the low end is truncated and the high end rounded half up,
    /// mirrored for negative values; this is what the official suite expects (`0.0034.highBoundary(1)` is
    /// `0.0`, `(-0.0034).lowBoundary(1)` is `-0.0`, `1.587.highBoundary(2)` is `1.59`).
    func boundary(high: Bool, precision: Int?) -> FHIRPathDecimal? {
        let precision = precision ?? Self.divisionScale
        guard precision >= 0, precision <= Self.maximumScale else { return nil }
        let negative = isNegative
        let magnitude = FHIRPathDecimal(significand: significand.magnitude <= Int128.max.magnitude ? Int128(significand.magnitude) : 0, scale: scale)
        // Towards zero for the low end of a positive value (and the high end of a negative one).
        let towardZero = high == negative
        let half = FHIRPathDecimal(significand: 5, scale: scale + 1)
        guard let end = towardZero ? magnitude - half : magnitude + half else { return nil }
        var result: FHIRPathDecimal
        if precision >= end.scale {
            result = end.rounded(to: precision)
        } else {
            result = end.changingScale(to: precision, rounding: towardZero ? .towardZero : .halfAwayFromZero)
        }
        if negative {
            result.significand = -result.significand
            result.isNegativeZero = result.significand == 0
        }
        return result
    }
}

extension Int128 {
    func multipliedChecked(by other: Int128) -> Int128? {
        let (result, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? nil : result
    }

    func addingChecked(_ other: Int128) -> Int128? {
        let (result, overflow) = addingReportingOverflow(other)
        return overflow ? nil : result
    }

    func multipliedChecked(byPowerOfTen exponent: Int) -> Int128? {
        guard exponent > 0 else { return self }
        guard let factor = FHIRPathDecimal.powerOfTen(exponent) else { return self == 0 ? 0 : nil }
        return multipliedChecked(by: factor)
    }
}
