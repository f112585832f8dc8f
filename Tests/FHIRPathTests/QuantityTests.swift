import Testing
@testable import FHIRPath

@Suite struct QuantityTests {
    @Test("UCUM codes parse with prefixes, exponents, division, parentheses and annotations; nonsense does not")
    func parsing() throws {
        for code in ["mg", "kg/m2", "mm[Hg]", "/min", "{beats}/min", "10*3/uL", "mg/dL", "[lb_av]", "m2", "(kg.m)/s2", "%", "Cel", "[degF]", "kat", "[IU]/L"] {
            #expect(UCUMUnit.parse(code) != nil, "\(code)")
        }
        for code in ["", "[s]", "kgg", "m/", "(m", "foo", "mCel2"] {
            #expect(UCUMUnit.parse(code) == nil, "\(code)")
        }
    }

    @Test("conversions between commensurable units are exact where the factors are")
    func conversions() throws {
        let pound = try #require(UCUMUnit.parse("[lb_av]"))
        let gram = try #require(UCUMUnit.parse("g"))
        #expect(pound.convert(decimal("1"), to: gram) == decimal("453.59237"))
        let perMinute = try #require(UCUMUnit.parse("/min"))
        let perSecond = try #require(UCUMUnit.parse("/s"))
        #expect(perMinute.convert(decimal("60"), to: perSecond) == decimal("1"))
        let celsius = try #require(UCUMUnit.parse("Cel"))
        let fahrenheit = try #require(UCUMUnit.parse("[degF]"))
        #expect(celsius.convert(decimal("100"), to: fahrenheit) == decimal("212"))
        #expect(gram.convert(.one, to: perSecond) == nil)
    }

    @Test("equality converts to a common unit; calendar years and months are not equal to UCUM 'a' and 'mo', only equivalent")
    func equality() {
        func q(_ value: String, _ unit: String) -> FHIRPathQuantity { FHIRPathQuantity(value: decimal(value), unit: unit) }
        #expect(FHIRPathQuantity.equals(q("4.0000", "g"), q("4000.0", "mg")) == true)
        #expect(FHIRPathQuantity.equals(q("7", "days"), q("1", "week")) == true)
        #expect(FHIRPathQuantity.equals(q("1", "hour"), q("3600", "s")) == true)
        #expect(FHIRPathQuantity.equals(q("1", "year"), q("1", "a")) == nil)
        #expect(FHIRPathQuantity.isEquivalent(q("1", "year"), q("1", "a")))
        #expect(FHIRPathQuantity.equals(q("1", "cm"), q("1", "s")) == nil)
        #expect(FHIRPathQuantity.isEquivalent(q("4", "g"), q("4040", "mg")))
        #expect(FHIRPathQuantity.compare(q("6", "days"), q("1", "week")) == -1)
    }

    @Test("addition happens in the finer unit; products and quotients combine units")
    func arithmetic() throws {
        func q(_ value: String, _ unit: String) -> FHIRPathQuantity { FHIRPathQuantity(value: decimal(value), unit: unit) }
        let sum = try #require(FHIRPathQuantity.add(q("1", "m"), q("20", "cm"), subtracting: false))
        #expect(sum.unit == "cm" && sum.value == decimal("120"))
        let area = try #require(FHIRPathQuantity.multiply(q("2.0", "cm"), q("2.0", "m"), dividing: false))
        #expect(FHIRPathQuantity.equals(area, q("0.040", "m2")) == true)
        let ratio = try #require(FHIRPathQuantity.multiply(q("1.0", "m"), q("1.0", "m"), dividing: true))
        #expect(ratio.unit == "1")
        #expect(FHIRPathQuantity.add(q("1", "m"), q("1", "g"), subtracting: false) == nil)
    }

    @Test("a BMI computed from a weight and a squared height compares with kg/m2")
    func bmi() throws {
        let value = try evaluate("(70 'kg' / (1.75 'm' * 1.75 'm')).toQuantity('kg/m2').value.round(1)")
        #expect(value == ["22.9 (decimal)"])
    }
}
