/// The units of the Unified Code for Units of Measure that forms and the FHIRPath suite use, with their
/// conversion to base units: enough to compare `4 'g'` with `4000 'mg'`, `185 '[lb_av]'` with `85 'kg'`,
/// `'kg/m2'` BMI values, `'mm[Hg]'`, `'Cel'` with `'[degF]'`, and time units. A unit is parsed by the UCUM
/// grammar (prefixes, exponents, `.` and `/`, parentheses, `{annotations}`, `10*3` factors); atoms are
/// defined as in the UCUM table (ucum-essence.xml), each in terms of earlier ones.
public struct UCUMUnit: Sendable, Equatable {
    /// Exponents of the base units m, s, g, rad, K, C, cd, and of "arbitrary" units ([IU]…).
    public var dimensions: SIMD8<Int8>
    /// The value of one of this unit in base units, as an exact fraction (so `'/min'` is 1/60 exactly; for
    /// special units, of one unit of difference).
    var numerator: FHIRPathDecimal
    var denominator: FHIRPathDecimal
    /// A unit on a scale that does not start at zero (`Cel`, `[degF]`); converted with an offset.
    var special: Special?

    enum Special: Sendable, Equatable {
        case celsius, fahrenheit
    }

    init(dimensions: SIMD8<Int8>, numerator: FHIRPathDecimal, denominator: FHIRPathDecimal = .one, special: Special? = nil) {
        self.dimensions = dimensions
        self.numerator = numerator
        self.denominator = denominator
        self.special = special
    }

    static let dimensionless = UCUMUnit(dimensions: .zero, numerator: .one)

    /// Whether values in the two units can be converted into each other.
    public func isCommensurable(with other: UCUMUnit) -> Bool {
        dimensions == other.dimensions
    }

    /// -1, 0 or 1 comparing the size of one unit of each (nil when either overflows).
    func compareSize(with other: UCUMUnit) -> Int? {
        guard let left = numerator * other.denominator, let right = other.numerator * denominator else { return nil }
        return FHIRPathDecimal.compare(left, right)
    }

    /// `value` in this unit expressed in `other` (nil when they are not commensurable).
    public func convert(_ value: FHIRPathDecimal, to other: UCUMUnit) -> FHIRPathDecimal? {
        guard isCommensurable(with: other) else { return nil }
        if special == nil, other.special == nil {
            if compareSize(with: other) == 0 { return value }
            guard let top = value * numerator, let top2 = top * other.denominator, let bottom = denominator * other.numerator else { return nil }
            return top2 / bottom
        }
        guard let kelvin = toKelvin(value) else { return nil }
        return other.fromKelvin(kelvin)
    }

    private static let celsiusOffset = FHIRPathDecimal("273.15")!
    private static let fahrenheitOffset = FHIRPathDecimal("459.67")!

    private func toKelvin(_ value: FHIRPathDecimal) -> FHIRPathDecimal? {
        switch special {
        case .celsius: return value + Self.celsiusOffset
        case .fahrenheit: return (value + Self.fahrenheitOffset).flatMap { $0 * FHIRPathDecimal(5) }.flatMap { $0 / FHIRPathDecimal(9) }
        case nil: return (value * numerator).flatMap { $0 / denominator }
        }
    }

    private func fromKelvin(_ kelvin: FHIRPathDecimal) -> FHIRPathDecimal? {
        switch special {
        case .celsius: return kelvin - Self.celsiusOffset
        case .fahrenheit: return (kelvin * FHIRPathDecimal(9)).flatMap { $0 / FHIRPathDecimal(5) }.flatMap { $0 - Self.fahrenheitOffset }
        case nil: return (kelvin * denominator).flatMap { $0 / numerator }
        }
    }

    func multiplied(by other: UCUMUnit) -> UCUMUnit? {
        guard special == nil, other.special == nil, let top = numerator * other.numerator, let bottom = denominator * other.denominator else { return nil }
        return UCUMUnit(dimensions: dimensions &+ other.dimensions, numerator: top, denominator: bottom)
    }

    var inverse: UCUMUnit? {
        guard special == nil, !numerator.isZero else { return nil }
        return UCUMUnit(dimensions: .zero &- dimensions, numerator: denominator, denominator: numerator)
    }

    func raised(to exponent: Int) -> UCUMUnit? {
        if exponent == 1 { return self }
        guard special == nil else { return nil }
        var result = UCUMUnit.dimensionless
        for _ in 0..<abs(exponent) {
            guard let next = result.multiplied(by: self) else { return nil }
            result = next
        }
        return exponent < 0 ? result.inverse : result
    }

    func scaled(by factor: FHIRPathDecimal) -> UCUMUnit? {
        guard special == nil, let top = numerator * factor else { return nil }
        return UCUMUnit(dimensions: dimensions, numerator: top, denominator: denominator)
    }

    /// The unit a UCUM code stands for; nil for text that is not one.
    public static func parse(_ code: String) -> UCUMUnit? {
        if let known = UCUMTable.common[code] { return known }
        var parser = UCUMParser(Array(code.utf8), lookup: UCUMTable.simpleUnit)
        return parser.parseWhole()
    }
}

/// A recursive-descent parser of UCUM's grammar over a code's bytes.
private struct UCUMParser {
    let bytes: [UInt8]
    var index = 0
    /// The unit of an atom or prefixed atom.
    let lookup: (String) -> UCUMUnit?

    init(_ bytes: [UInt8], lookup: @escaping (String) -> UCUMUnit?) {
        self.bytes = bytes
        self.lookup = lookup
    }

    mutating func parseWhole() -> UCUMUnit? {
        guard !bytes.isEmpty else { return nil }
        var result: UCUMUnit
        if bytes[0] == UInt8(ascii: "/") {
            index = 1
            guard let term = term(), let inverse = term.inverse else { return nil }
            result = inverse
        } else {
            guard let term = term() else { return nil }
            result = term
        }
        return index == bytes.count ? result : nil
    }

    private mutating func term() -> UCUMUnit? {
        guard var result = component() else { return nil }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") else { break }
            index += 1
            guard let next = component() else { return nil }
            let factor = byte == UInt8(ascii: "/") ? next.inverse : next
            guard let factor, let product = result.multiplied(by: factor) else { return nil }
            result = product
        }
        return result
    }

    private mutating func component() -> UCUMUnit? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "("):
            index += 1
            guard let inner = term(), index < bytes.count, bytes[index] == UInt8(ascii: ")") else { return nil }
            index += 1
            return skipAnnotation() ? inner : nil
        case UInt8(ascii: "{"):
            return skipAnnotation() ? .dimensionless : nil
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            // A factor (`10`), unless it starts `10*`/`10^` (an atom).
            if !startsTenPower {
                var value = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, value < 1_000_000_000 {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    index += 1
                }
                return skipAnnotation() ? UCUMUnit(dimensions: .zero, numerator: FHIRPathDecimal(value)) : nil
            }
            return annotatable()
        default:
            return annotatable()
        }
    }

    private var startsTenPower: Bool {
        index + 2 < bytes.count && bytes[index] == UInt8(ascii: "1") && bytes[index + 1] == UInt8(ascii: "0")
            && (bytes[index + 2] == UInt8(ascii: "*") || bytes[index + 2] == UInt8(ascii: "^"))
    }

    /// `{…}` after a unit: ignored (an annotation is dimensionless).
    private mutating func skipAnnotation() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return true }
        while index < bytes.count, bytes[index] != UInt8(ascii: "}") { index += 1 }
        guard index < bytes.count else { return false }
        index += 1
        return true
    }

    /// A simple unit (atom, or prefix and atom) with an optional exponent, and an optional annotation.
    private mutating func annotatable() -> UCUMUnit? {
        let start = index
        if startsTenPower { index += 3 }
        var bracketDepth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "[") { bracketDepth += 1 }
            if byte == UInt8(ascii: "]") { bracketDepth -= 1 }
            if bracketDepth == 0, [UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{")].contains(byte) { break }
            index += 1
        }
        guard bracketDepth == 0, index > start else { return nil }
        // The exponent: trailing digits, with an optional sign, outside brackets.
        var symbolEnd = index
        while symbolEnd > start, bytes[symbolEnd - 1] >= 0x30, bytes[symbolEnd - 1] <= 0x39 { symbolEnd -= 1 }
        var exponent = 1
        if symbolEnd < index {
            var signEnd = symbolEnd
            if signEnd > start, bytes[signEnd - 1] == UInt8(ascii: "-") || bytes[signEnd - 1] == UInt8(ascii: "+") { signEnd -= 1 }
            guard let digits = Int(String(decoding: bytes[symbolEnd..<index], as: UTF8.self)), digits < 100 else { return nil }
            exponent = signEnd < symbolEnd && bytes[signEnd] == UInt8(ascii: "-") ? -digits : digits
            symbolEnd = signEnd
        }
        guard symbolEnd > start else { return nil }
        let symbol = String(decoding: bytes[start..<symbolEnd], as: UTF8.self)
        guard let unit = lookup(symbol), let raised = unit.raised(to: exponent) else { return nil }
        return skipAnnotation() ? raised : nil
    }
}

/// The atoms and prefixes, resolved once.
enum UCUMTable {
    private static let prefixes: [String: FHIRPathDecimal] = [
        "Y": pow10(24), "Z": pow10(21), "E": pow10(18), "P": pow10(15), "T": pow10(12), "G": pow10(9), "M": pow10(6), "k": pow10(3),
        "h": pow10(2), "da": pow10(1), "d": pow10(-1), "c": pow10(-2), "m": pow10(-3), "u": pow10(-6), "n": pow10(-9), "p": pow10(-12),
        "f": pow10(-15), "a": pow10(-18), "z": pow10(-21), "y": pow10(-24),
    ]

    private static func pow10(_ exponent: Int) -> FHIRPathDecimal {
        exponent >= 0
            ? FHIRPathDecimal(significand: FHIRPathDecimal.powerOfTen(exponent)!, scale: 0)
            : FHIRPathDecimal(significand: 1, scale: -exponent)
    }

    /// Atom, whether it takes prefixes, its value, and the unit that value is in ("" for a base unit;
    /// the definitions refer only to atoms above them). From the UCUM table of units.
    private static let definitions: [(atom: String, metric: Bool, value: String, unit: String)] = [
        ("m", true, "1", ""), ("s", true, "1", ""), ("g", true, "1", ""), ("rad", true, "1", ""), ("K", true, "1", ""), ("C", true, "1", ""),
        ("cd", true, "1", ""),
        ("10*", false, "10", "1"), ("10^", false, "10", "1"), ("[pi]", false, "3.1415926535897932384626433833", "1"),
        ("%", false, "0.01", "1"), ("[ppth]", false, "0.001", "1"), ("[ppm]", false, "0.000001", "1"), ("[ppb]", false, "0.000000001", "1"),
        ("mol", true, "602213670000000000000000", "1"), ("sr", true, "1", "rad2"), ("Hz", true, "1", "s-1"), ("N", true, "1", "kg.m/s2"),
        ("Pa", true, "1", "N/m2"), ("J", true, "1", "N.m"), ("W", true, "1", "J/s"), ("A", true, "1", "C/s"), ("V", true, "1", "J/C"),
        ("F", true, "1", "C/V"), ("Ohm", true, "1", "V/A"), ("S", true, "1", "Ohm-1"), ("Wb", true, "1", "V.s"), ("T", true, "1", "Wb/m2"),
        ("H", true, "1", "Wb/A"), ("lm", true, "1", "cd.sr"), ("lx", true, "1", "lm/m2"), ("Bq", true, "1", "s-1"), ("Gy", true, "1", "J/kg"),
        ("Sv", true, "1", "J/kg"), ("deg", false, "0.0174532925199432957692369077", "rad"), ("gon", false, "0.9", "deg"),
        ("l", true, "1", "dm3"), ("L", true, "1", "l"), ("ar", true, "100", "m2"), ("min", false, "60", "s"), ("h", false, "60", "min"),
        ("d", false, "24", "h"), ("a_t", false, "365.24219", "d"), ("a_j", false, "365.25", "d"), ("a_g", false, "365.2425", "d"),
        ("a", false, "1", "a_j"), ("wk", false, "7", "d"), ("mo_s", false, "29.53059", "d"), ("mo_j", false, "30.4375", "d"),
        ("mo_g", false, "30.436875", "d"), ("mo", false, "1", "mo_j"), ("t", true, "1000", "kg"), ("bar", true, "100000", "Pa"),
        ("u", true, "0.0000000000000000000000016605402", "g"), ("eV", true, "0.000000000000000000160217733", "J"),
        ("[g]", false, "9.80665", "m/s2"), ("atm", false, "101325", "Pa"), ("kat", true, "1", "mol/s"), ("U", true, "1", "umol/min"),
        ("cal", true, "4.184", "J"), ("[Cal]", false, "1", "kcal"), ("gf", true, "1", "g.[g]"), ("dyn", true, "1", "g.cm/s2"),
        ("erg", true, "1", "dyn.cm"), ("P", true, "1", "dyn.s/cm2"), ("St", true, "1", "cm2/s"), ("G", true, "0.0001", "T"),
        ("Ci", true, "37000000000", "Bq"), ("R", true, "0.000258", "C/kg"), ("RAD", true, "100", "erg/g"), ("REM", true, "1", "RAD"),
        ("Ao", false, "0.1", "nm"), ("eq", true, "1", "mol"), ("osm", true, "1", "mol"), ("g%", true, "1", "g/dl"),
        ("[in_i]", false, "2.54", "cm"), ("[ft_i]", false, "12", "[in_i]"), ("[yd_i]", false, "3", "[ft_i]"), ("[mi_i]", false, "5280", "[ft_i]"),
        ("[nmi_i]", false, "1852", "m"), ("[sin_i]", false, "1", "[in_i]2"), ("[sft_i]", false, "1", "[ft_i]2"), ("[cin_i]", false, "1", "[in_i]3"),
        ("[cft_i]", false, "1", "[ft_i]3"), ("[lb_av]", false, "453.59237", "g"), ("[oz_av]", false, "0.0625", "[lb_av]"),
        ("[dr_av]", false, "0.0625", "[oz_av]"), ("[gr]", false, "64.79891", "mg"), ("[stone_av]", false, "14", "[lb_av]"),
        ("[ston_av]", false, "2000", "[lb_av]"), ("[lton_av]", false, "2240", "[lb_av]"), ("[lbf_av]", false, "1", "[lb_av].[g]"),
        ("[gal_us]", false, "231", "[cin_i]"), ("[qt_us]", false, "0.25", "[gal_us]"), ("[pt_us]", false, "0.5", "[qt_us]"),
        ("[gil_us]", false, "0.25", "[pt_us]"), ("[foz_us]", false, "0.25", "[gil_us]"), ("[tbs_us]", false, "0.5", "[foz_us]"),
        ("[cup_us]", false, "16", "[tbs_us]"), ("[tsp_us]", false, "1", "[tbs_us]/3"), ("[drp]", false, "1", "ml/20"),
        ("[gal_br]", false, "4.54609", "l"), ("[pt_br]", false, "0.125", "[gal_br]"), ("[foz_br]", false, "0.05", "[pt_br]"),
        ("m[Hg]", true, "133.322", "kPa"), ("m[H2O]", true, "9.80665", "kPa"), ("[in_i'Hg]", false, "1", "m[Hg].[in_i]/m"),
        ("[psi]", false, "1", "[lbf_av]/[in_i]2"), ("[car_m]", false, "0.2", "g"), ("bit", true, "1", "1"), ("By", true, "8", "bit"),
    ]

    /// Units on arbitrary scales: comparable only with themselves (and their prefixed forms).
    private static let arbitrary: [(atom: String, metric: Bool)] = [
        ("[IU]", true), ("[iU]", true), ("[arb'U]", true), ("[USP'U]", false), ("[HPF]", false), ("[LPF]", false), ("[CFU]", true),
        ("[U]", false),
    ]

    private static let atoms: [String: (unit: UCUMUnit, metric: Bool)] = {
        var table: [String: (unit: UCUMUnit, metric: Bool)] = [:]
        for (index, (atom, metric, value, unit)) in definitions.enumerated() {
            guard let amount = FHIRPathDecimal(value) else { continue }
            if unit.isEmpty {
                var dimensions = SIMD8<Int8>.zero
                dimensions[index] = 1
                table[atom] = (UCUMUnit(dimensions: dimensions, numerator: .one), metric)
                continue
            }
            var parser = UCUMParser(Array(unit.utf8)) { simpleUnit($0, in: table) }
            guard let base = unit == "1" ? .dimensionless : parser.parseWhole(), let scaled = base.scaled(by: amount) else { continue }
            table[atom] = (scaled, metric)
        }
        let kelvin = table["K"]!.unit.dimensions
        table["Cel"] = (UCUMUnit(dimensions: kelvin, numerator: .one, special: .celsius), false)
        table["[degF]"] = (UCUMUnit(dimensions: kelvin, numerator: FHIRPathDecimal(5), denominator: FHIRPathDecimal(9), special: .fahrenheit), false)
        var arbitraryDimension = SIMD8<Int8>.zero
        arbitraryDimension[7] = 1
        for (atom, metric) in arbitrary {
            table[atom] = (UCUMUnit(dimensions: arbitraryDimension, numerator: .one), metric)
        }
        return table
    }()

    /// Units parsed once for the codes the suite and forms use most.
    static let common: [String: UCUMUnit] = {
        var cache: [String: UCUMUnit] = [:]
        for code in ["1", "g", "mg", "kg", "m", "cm", "mm", "s", "ms", "min", "h", "d", "wk", "mo", "a", "[lb_av]", "kg/m2", "mm[Hg]", "%"] {
            var parser = UCUMParser(Array(code.utf8), lookup: simpleUnit)
            if let unit = parser.parseWhole() { cache[code] = unit }
        }
        return cache
    }()

    static func simpleUnit(_ symbol: String) -> UCUMUnit? {
        simpleUnit(symbol, in: atoms)
    }

    /// An atom, or a prefix followed by a metric atom.
    private static func simpleUnit(_ symbol: String, in table: [String: (unit: UCUMUnit, metric: Bool)]) -> UCUMUnit? {
        if symbol == "1" { return .dimensionless }
        if let atom = table[symbol] { return atom.unit }
        for length in [2, 1] where symbol.count > length {
            guard let factor = prefixes[String(symbol.prefix(length))], let atom = table[String(symbol.dropFirst(length))], atom.metric,
                let scaled = atom.unit.scaled(by: factor)
            else { continue }
            return scaled
        }
        return nil
    }
}
