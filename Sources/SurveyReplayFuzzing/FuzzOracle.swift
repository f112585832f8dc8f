import Foundation
import SurveyCore
import SurveyHarness

/// What fuzz targets check beyond "no crash, no hang": every error is located inside the input, and a survey
/// that loads survives checked walks without breaking the simulation's own invariants.
enum FuzzOracle {
    /// Why these findings are not all located inside the file, or nil when they are.
    static func located(_ diagnostics: [Diagnostic], in file: SourceFile) -> String? {
        for diagnostic in diagnostics {
            guard !diagnostic.message.isEmpty else { return "a finding without a message" }
            guard let position = diagnostic.position else { return "'\(diagnostic.message)' has no line and column" }
            guard position.line >= 1, position.line <= file.lineCount + 1, position.column >= 1 else {
                return "'\(diagnostic.message)' is at \(position), outside the input's \(file.lineCount) lines"
            }
        }
        return nil
    }

    /// An error must say something, and say where.
    static func locatedOrProblem(_ error: InputError, in file: SourceFile) -> String? {
        guard !error.diagnostics.isEmpty else { return "an error without any message" }
        return located(error.diagnostics, in: file)
    }

    /// The first engine error three short checked walks find (with coverage recorded, so the coverage hooks
    /// run too), or nil.
    static func walkProblem(_ survey: any Survey) -> String? {
        // Under every engine profile the format has (FHIR: r4 and c3pro), three walks each.
        let profiles: [String?] = survey.profiles.isEmpty ? [nil] : survey.profiles
        for profile in profiles {
            var walker = Walker(survey: survey, settings: SessionSettings(profile: profile), maxSteps: 25, builtInProperties: true, properties: nil)
            walker.coverage = CoverageRecorder(plan: survey.coveragePlan())
            for walk in 0..<3 {
                var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(1, walk: walk)))
                if let error = walker.walk(&stream).findings.first(where: { $0.finding.kind == .engineError }) {
                    return "walk \(walk)\(profile.map { " (profile \($0))" } ?? ""): \(error.finding.property): \(error.finding.message)"
                }
            }
        }
        return nil
    }

    /// A real golden's text, which fuzzed goldens are compared with.
    static let referenceGolden: String = {
        let path = ScenarioDiscovery.find(["Snapshots"], extension: "snap").files.sorted().first
        return path.flatMap { try? InputFiles.read($0) }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "# survey-replay golden\nstart\n"
    }()

    /// A coverage file of a few walks on the survey.
    static func coverageSeed(_ survey: any Survey) -> [UInt8] {
        let recorder = CoverageRecorder(plan: survey.coveragePlan())
        var walker = Walker(survey: survey, settings: SessionSettings(), maxSteps: 40, builtInProperties: false, properties: nil)
        walker.coverage = recorder
        for walk in 0..<5 {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(2, walk: walk)))
            _ = walker.walk(&stream)
        }
        return Array(CanonicalJSON.pretty(CoverageFile.json([(FuzzTargets.companionSurveyPath, recorder)])).utf8)
    }

    /// The payloads of walks that submitted.
    static func payloadSeeds(_ survey: any Survey) -> [[UInt8]] {
        let walker = Walker(survey: survey, settings: SessionSettings(), maxSteps: 100, builtInProperties: false, properties: nil)
        var seeds: [[UInt8]] = []
        for walk in 0..<40 where seeds.count < 5 {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(3, walk: walk)))
            var copy = walker
            let actions = copy.walk(&stream).actions
            let session = survey.makeSession(SessionSettings())
            for action in actions { _ = session.perform(action) }
            if let payload = session.payload { seeds.append(Array(CanonicalJSON.pretty(payload).utf8)) }
        }
        return seeds
    }
}
