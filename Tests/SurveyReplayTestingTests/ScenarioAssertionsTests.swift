import Foundation
import Testing
import SurveyHarness
@testable import SurveyReplayTesting

@Suite struct ScenarioAssertionsTests {
    /// The package root, where `swift test` runs and where Scenarios/ and Snapshots/ are.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theProjectsOwnSuiteHoldsThroughTheLibrary() {
        assertScenarios(in: Self.root + "/Scenarios", snapshots: Self.root + "/Snapshots", record: .never)
    }

    @Test func aDivergentScenarioIsOneFailureWithItsDiff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sr-testing-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/Scenarios/s", withIntermediateDirectories: true)
        try """
            {"questions": [{"id": "a", "question_type": "single_select", "options": ["Yes", "No"]},
                           {"id": "b", "question_type": "single_text_area"}],
             "submit": {"button_title": "Go", "url": "https://x.example"}}
            """.write(toFile: folder + "/Scenarios/s/survey.json", atomically: true, encoding: .utf8)
        try "survey survey.json\nanswer a \"Yes\"\n".write(toFile: folder + "/Scenarios/s/one.scenario", atomically: true, encoding: .utf8)
        try "survey survey.json\nanswer a \"No\"\n".write(toFile: folder + "/Scenarios/s/two.scenario", atomically: true, encoding: .utf8)

        let first = ScenarioSuiteCheck.failures(in: folder + "/Scenarios", snapshots: folder + "/Snapshots", record: .missing, environment: [:])
        #expect(first.isEmpty)
        try "survey survey.json\nanswer a \"No\"\nanswer b \"x\"\n".write(toFile: folder + "/Scenarios/s/two.scenario", atomically: true, encoding: .utf8)
        let second = ScenarioSuiteCheck.failures(in: folder + "/Scenarios", snapshots: folder + "/Snapshots", record: .never, environment: [:])
        #expect(second.count == 1)
        #expect(second.first?.contains("two.scenario: the number of steps differs from step 2 on") == true)
        #expect(second.first?.contains("+step 2: answer b \"x\"") == true)
    }
}

@Suite struct ScenarioPathResolutionTests {
    @Test("relative paths are resolved from the package of the calling test file, not the current folder")
    func resolvedFromTheTestFilesPackage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sr-resolve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/pkg/Tests/MyTests", withIntermediateDirectories: true)
        try "// swift-tools-version: 6.0\n".write(toFile: folder + "/pkg/Package.swift", atomically: true, encoding: .utf8)
        let testFile = folder + "/pkg/Tests/MyTests/SurveyTests.swift"
        #expect(ScenarioSuiteCheck.resolve("Scenarios", from: testFile) == folder + "/pkg/Scenarios")
        #expect(ScenarioSuiteCheck.resolve("../Shared/Scenarios", from: testFile) == folder + "/Shared/Scenarios")
        #expect(ScenarioSuiteCheck.resolve("/abs/Scenarios", from: testFile) == "/abs/Scenarios")
        // Without a Package.swift above it, from the test file's folder.
        #expect(ScenarioSuiteCheck.resolve("Scenarios", from: folder + "/loose/T.swift") == folder + "/loose/Scenarios")
    }

    @Test("this package's own suite holds through the library with the default, relative paths")
    func defaultPathsFromThisPackage() {
        assertScenarios(record: .never)
    }
}
