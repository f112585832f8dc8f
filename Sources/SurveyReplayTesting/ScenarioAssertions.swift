import Foundation
import SurveyCore
import SurveyHarness
import Testing
import XCTest

/// Golden-snapshot checks of scenario suites from a package's own tests.
///
/// Swift Testing:
/// ```swift
/// @Test func surveysBehaveAsRecorded() {
///     assertScenarios(in: "Scenarios")
/// }
/// ```
/// XCTest: `XCTAssertScenarios(in: "Scenarios")`. Each scenario that does not hold is one failure, with
/// its first divergent step and diff. Record modes follow the command line: `SURVEY_REPLAY_RECORD`, and
/// `never` when `CI` is set. Relative paths are resolved against the package of the calling test file (the
/// nearest folder above it with a `Package.swift`), not the current folder, so that `swift test`, Xcode and
/// any other runner find the same files.
public enum ScenarioSuiteCheck {
    /// `path` as the calling test file means it: absolute as it is; relative, from the root of the package
    /// that holds `testFile` (or from the test file's folder when no `Package.swift` is above it).
    public static func resolve(_ path: String, from testFile: String) -> String {
        if path.hasPrefix("/") { return path }
        var folder = InputFiles.folder(of: testFile)
        while folder != "/", folder != "." {
            if FileManager.default.fileExists(atPath: folder + "/Package.swift") { return InputFiles.normalize(folder + "/" + path) }
            folder = InputFiles.folder(of: folder)
        }
        return InputFiles.resolve(path, relativeTo: testFile)
    }

    /// Runs the suite and returns one message per scenario that did not hold (and per obsolete golden on CI).
    public static func failures(
        in scenarios: String, snapshots: String, record: RecordMode?, environment: [String: String]
    ) -> [String] {
        let mode: RecordMode
        do {
            mode = try RecordMode.resolve(flag: record, environment: environment).mode
        } catch {
            return [error.message]
        }
        let runner = SuiteRunner(layout: SnapshotLayout(scenariosRoot: scenarios, snapshotsRoot: snapshots), mode: mode)
        let result = runner.run(paths: [])
        var messages = result.problems.map(\.description)
        for report in result.reports where !report.passed {
            var message = "\(report.scenarioPath): "
            if !report.invalid.isEmpty {
                message += report.invalid.map(\.description).joined(separator: "\n")
            }
            switch report.golden {
            case .mismatched(let divergence, let golden, let pendingWritten)?:
                message += divergence.description + (pendingWritten ? " (pending: \(report.goldenPath).new)" : "") + "\n"
                message += LineDiff.unified(old: golden, new: report.newText ?? "", oldName: report.goldenPath, newName: "this run")
            case .missing?:
                message += "no golden at \(report.goldenPath) (record mode \(mode.rawValue) writes none)"
            default: break
            }
            message += report.expectationFailures.map { "\n" + $0.description }.joined()
            messages.append(message)
        }
        if RecordMode.isCI(environment) {
            messages += result.obsolete.map { "obsolete snapshot \($0): no scenario for it" }
        }
        return messages
    }
}

/// Swift Testing: records one issue per scenario under `scenarios` whose trace differs from its golden.
/// Relative paths are resolved against the package of the calling test file.
public func assertScenarios(
    in scenarios: String = "Scenarios", snapshots: String = "Snapshots", record: RecordMode? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let file = sourceLocation.filePath
    let messages = ScenarioSuiteCheck.failures(
        in: ScenarioSuiteCheck.resolve(scenarios, from: file), snapshots: ScenarioSuiteCheck.resolve(snapshots, from: file), record: record,
        environment: ProcessInfo.processInfo.environment)
    for message in messages {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// XCTest: one failure per scenario under `scenarios` whose trace differs from its golden. Relative paths
/// are resolved against the package of the calling test file.
public func XCTAssertScenarios(
    in scenarios: String = "Scenarios", snapshots: String = "Snapshots", record: RecordMode? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    let path = "\(file)"
    let messages = ScenarioSuiteCheck.failures(
        in: ScenarioSuiteCheck.resolve(scenarios, from: path), snapshots: ScenarioSuiteCheck.resolve(snapshots, from: path), record: record,
        environment: ProcessInfo.processInfo.environment)
    for message in messages {
        XCTFail(message, file: file, line: line)
    }
}
