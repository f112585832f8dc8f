import Testing
@testable import FHIRPath

@Suite struct FHIRPathDecimalTests {
    @Test("a decimal keeps the digits written after its point, and equal values compare equal whatever their precision")
    func keepsPrecision() {
        #expect(decimal("1.10").description == "1.10")
        #expect(decimal("1.10").scale == 2)
        #expect(decimal("1.10") == decimal("1.1"))
        #expect(decimal("1.10").hashValue == decimal("1.1").hashValue)
        #expect(decimal("-0.5").description == "-0.5")
        #expect(decimal("0.00000001").description == "0.00000001")
        #expect(decimal("1234567890987654321.0").description == "1234567890987654321.0")
        #expect(FHIRPathDecimal("1.") == nil)
        #expect(FHIRPathDecimal("1.a") == nil)
        #expect(FHIRPathDecimal("1e3") == nil)
        #expect(FHIRPathDecimal("1.5e2", exponent: true)?.description == "150")
        #expect(FHIRPathDecimal("15e-3", exponent: true)?.description == "0.015")
    }

    @Test("sums and products are exact (0.1 + 0.2 is 0.3), with the scales the spec's examples show")
    func exactArithmetic() {
        #expect((decimal("0.1") + decimal("0.2"))! == decimal("0.3"))
        #expect((decimal("1.2") * decimal("1.8"))!.description == "2.16")
        #expect((decimal("1.8") - decimal("1.2"))!.description == "0.6")
        #expect((decimal("2.0") * decimal("2.0"))!.description == "4.00")
    }

    @Test("a quotient has eight digits after the point at most, trailing zeros trimmed to the operands' own scale")
    func division() {
        #expect((decimal("1") / decimal("3"))!.description == "0.33333333")
        #expect((decimal("1") / decimal("2"))!.description == "0.5")
        #expect((decimal("4.0") / decimal("2.0"))!.description == "2.0")
        #expect((decimal("2") / decimal("3"))!.description == "0.66666667")
        #expect(decimal("1") / decimal("0") == nil)
    }

    @Test("round() rounds half away from zero")
    func rounding() {
        #expect(decimal("1.5").rounded(to: 0).description == "2")
        #expect(decimal("-1.5").rounded(to: 0).description == "-2")
        #expect(decimal("3.14159").rounded(to: 3).description == "3.142")
        #expect(decimal("1").rounded(to: 2).description == "1.00")
    }

    @Test("equivalence rounds both values to the precision of the less precise one")
    func equivalence() {
        #expect((decimal("1.2") / decimal("1.8"))!.isEquivalent(to: decimal("0.67")))
        #expect(!(decimal("1.2") / decimal("1.8"))!.isEquivalent(to: decimal("0.6")))
        #expect(decimal("4").isEquivalent(to: decimal("4.04")))
    }

    @Test("boundaries: the low end truncated, the high end rounded, mirrored for negative values, as the official suite expects")
    func boundaries() {
        #expect(decimal("1.587").boundary(high: false, precision: nil)?.description == "1.58650000")
        #expect(decimal("1.587").boundary(high: true, precision: 2)?.description == "1.59")
        #expect(decimal("1.587").boundary(high: false, precision: 2)?.description == "1.58")
        #expect(decimal("-1.587").boundary(high: false, precision: 0)?.description == "-2")
        #expect(decimal("0.0034").boundary(high: true, precision: 1)?.description == "0.0")
        #expect(decimal("-0.0034").boundary(high: false, precision: 1)?.description == "-0.0")
        #expect(decimal("120").boundary(high: false, precision: 2)?.description == "119.50")
        #expect(decimal("1.587").boundary(high: true, precision: 29) == nil)
        #expect(decimal("1.587").boundary(high: true, precision: -1) == nil)
    }

    @Test("values too large for 38 digits are refused, not wrapped")
    func overflow() {
        let huge = decimal("99999999999999999999999999999999999999")
        #expect(huge + huge == nil)
        #expect(huge * decimal("10") == nil)
        #expect(FHIRPathDecimal("1" + String(repeating: "0", count: 40)) == nil)
    }

    @Test("comparison works across scales and signs")
    func comparison() {
        #expect(decimal("1.0") < decimal("1.05"))
        #expect(decimal("-2") < decimal("-1.999"))
        #expect(FHIRPathDecimal.compare(decimal("10.000"), decimal("10")) == 0)
    }
}

@Suite struct FHIRPathDecimalEdgeTests {
    @Test("numbers with thousands of digits after the point, or huge exponents, are read without a trap and rounded off")
    func longNumbers() throws {
        let tiny = try #require(FHIRPathDecimal("0." + String(repeating: "0", count: 40_000) + "1"))
        #expect(tiny.isZero)
        let small = try #require(FHIRPathDecimal("1e-99999", exponent: true))
        #expect(small.isZero)
        #expect(FHIRPathDecimal("1e99999", exponent: true) == nil)
        #expect(decimal("1.5").rounded(to: 100_000).scale <= FHIRPathDecimal.maximumParsedScale)
        #expect(decimal("0").rounded(to: 100_000).scale == FHIRPathDecimal.maximumParsedScale)
        #expect(try evaluate("0.5.round(2147483647)").count == 1)
    }
}
