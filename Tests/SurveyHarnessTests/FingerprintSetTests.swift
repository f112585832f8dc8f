import SurveyCore
import Testing

@testable import SurveyHarness

/// `FingerprintSet` counts distinct fingerprints as `Set<UInt64>` does: checked against one, through many
/// doublings of its table and with fingerprints that share their low bits (long probe runs).
@Suite struct FingerprintSetTests {
    private static func checkAgainstSet(_ fingerprints: [UInt64], capacity: Int = 0) {
        var set = FingerprintSet(capacity: capacity)
        var reference: Set<UInt64> = []
        for fingerprint in fingerprints {
            set.insert(fingerprint)
            reference.insert(fingerprint)
            #expect(set.count == reference.count)
        }
    }

    @Test("mixed fingerprints, each several times, are counted once each through the table's growth")
    func mixedFingerprints() {
        let fingerprints = (0..<3_000).map { StableHash.mix(UInt64($0 % 1_000)) }
        Self.checkAgainstSet(fingerprints)
        Self.checkAgainstSet(fingerprints, capacity: 1_000)
    }

    @Test("fingerprints with the same low bits, zero among them, probe past each other")
    func sharedLowBits() {
        let fingerprints = (0..<200).map { UInt64($0 % 50) << 40 }
        Self.checkAgainstSet(fingerprints + fingerprints.reversed())
    }
}
