import Foundation
import SurveyHarness
import Testing

/// What a test needs from outside the repository: the third-party corpus kept beside it, or a program the
/// toolchain does not bring. A test that declares it with `.requires(…)` runs when it is there; when it is
/// not, the test is reported as skipped with what is missing and how to get it, so that `swift test` passes
/// on a fresh machine with the toolchain alone, except under `CI`, where everything must be there and a
/// missing requirement fails the test.
public enum Requirement: Sendable {
    /// `../shared/corpus` beside the package root: public survey files of other projects, read by tests but
    /// never copied into this one.
    case corpus
    /// A program on `PATH`, and the Debian package that has it.
    case tool(String, debianPackage: String)

    /// Whether it is there.
    public var isMet: Bool {
        switch self {
        case .corpus: Corpus.isPresent
        case .tool(let name, _): Self.executable(named: name) != nil
        }
    }

    /// What is missing, and how to get it.
    public var missing: String {
        switch self {
        case .corpus:
            "\(Corpus.folder) is missing (the third-party survey corpus, kept beside the project as ../shared/corpus)"
        case .tool(let name, let package):
            "\(name) is not installed (apt-get install \(package))"
        }
    }

    /// The full path of a program on `PATH`, or nil.
    public static func executable(named name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A requirement missing where it must not be (under `CI`): the test fails with this.
struct MissingRequirement: Error, CustomStringConvertible {
    let requirement: Requirement
    var description: String { "\(requirement.missing); CI must provide it, so this test fails instead of being skipped" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test (or suite) only when `requirement` is met; otherwise it is reported as skipped, saying
    /// what is missing, and under `CI` (in `environment`) it fails instead.
    public static func requires(_ requirement: Requirement, environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        .enabled(Comment(rawValue: requirement.missing)) {
            if requirement.isMet { return true }
            if RecordMode.isCI(environment) { throw MissingRequirement(requirement: requirement) }
            return false
        }
    }
}

/// Where the corpus is: `../shared/corpus` beside the package root, wherever the tests run from.
public enum Corpus {
    /// The package root: this file is `Tests/SurveyReplayTestSupport/Requirement.swift` in it.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    public static let folder = URL(fileURLWithPath: packageRoot).appendingPathComponent("../shared/corpus").standardized.path

    public static var isPresent: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// A file or folder of the corpus (`fhir`, `surveynative/ExampleQuestions.json`).
    public static func path(_ relative: String) -> String {
        folder + "/" + relative
    }

    public static func url(_ relative: String) -> URL {
        URL(fileURLWithPath: path(relative))
    }
}
