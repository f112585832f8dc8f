import Foundation
import Testing
@testable import SurveyHarness

@Suite("Paths: normalizing and naming")
struct PathNamingTests {
    /// `InputFiles.normalize` as it was before paths already in shape were given back unchanged.
    private static func reference(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    @Test("normalize gives what splitting and joining gives, on examples and on 20,000 random paths")
    func normalizeAgreesWithTheReference() {
        let examples = [
            "", ".", "..", "/", "//", "/.", "/..", "./", "../", "a", "a/", "a//b", "./a", "a/.", "a/..", "../a", "../../a/b", "a/../..",
            "/a/b", "/a/./b", "/a/../b", "/../a", "...", ".../a", "a/.../b", ".a/b.", "Scenarios/checkin/happy-path.scenario",
            "/tmp/x/Scenarios/copy3/fhir-sdc/bmi.scenario", "a/\u{301}b", "/\u{301}a", "..\u{301}/a", "../\u{301}../x", "a/.\u{301}",
        ]
        for path in examples {
            #expect(InputFiles.normalize(path) == Self.reference(path), "\(path.debugDescription)")
        }
        let pieces = ["/", "/", "/", ".", ".", "a", "bc", "\u{301}", "é"]
        var generator = SplitMix64(seed: 19)
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 9)
            let path = (0..<length).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(InputFiles.normalize(path) == Self.reference(path), "\(path.debugDescription)")
        }
    }

    @Test("names of many scenarios and goldens at once are each one's name")
    func namesInBulkAreNamesOneByOne() {
        let layout = SnapshotLayout(scenariosRoot: "Scenarios/", snapshotsRoot: "./Snapshots")
        let scenarios = [
            "Scenarios/a/b.scenario", "Scenarios/a/b.json", "Other/a.scenario", "Scenarios/../Scenarios/c.scenario",
            FileManager.default.currentDirectoryPath + "/Scenarios/d/e.scenario", "Scenarios", "/elsewhere/Scenarios/f.scenario",
        ]
        #expect(layout.names(ofScenarios: scenarios) == scenarios.map(layout.name(ofScenario:)))
        #expect(layout.names(ofScenarios: scenarios) == ["a/b", nil, nil, "c", "d/e", nil, nil])
        let snapshots = ["Snapshots/a/b.snap", "Snapshots/a/b.snap.new", "Snapshots/a/b.txt", "Scenarios/a/b.snap"]
        #expect(layout.names(ofSnapshots: snapshots) == snapshots.map(layout.name(ofSnapshot:)))
        #expect(layout.names(ofSnapshots: snapshots) == ["a/b", "a/b", nil, nil])
    }
}
