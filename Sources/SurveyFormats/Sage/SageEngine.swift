import SurveyCore

/// Which release of which engine runs a task: a scenario's `profile` line picks one, and without it a file
/// runs under the newest release that renders its generation. Each release is a set of behaviours read in
/// its source (docs/sage.md cites the lines); the session, the rules and the result writer ask the engine,
/// never the release name.
public struct SageEngine: Sendable, Hashable {
    public enum Release: String, Sendable, CaseIterable {
        /// SageResearch v2.8.88, the last of the 2.x line: legacy forms only, Back truncates the history.
        case sage2 = "sage-2"
        /// SageResearch 3.1.86 to 3.3.91: forms and question steps, Back truncates the history.
        case sage33 = "sage-3.3"
        /// SageResearch 3.4.92 and 3.4.93: the history keeps every visit, the path is `nodePath`, rules read
        /// the first answer of a step; a section's result is a task result.
        case sage34 = "sage-3.4"
        /// SageResearch 3.5.94 to 3.18.4: 3.4.92's navigation; a section's result is a `SectionResultObject`.
        case sage35 = "sage-3.5"
        /// SageResearch 4.0.1 to 4.3.8: question steps only; like 3.5.94 with JsonModel answers.
        case sage40 = "sage-4.0"
        /// SageResearch 4.4.0 with the JsonModel 1.x SwiftPM resolves (`from: 1.4.0`, so ≥ 1.4.6): JsonModel
        /// results, `path` markers, rules read the latest answer, the skip button still wraps the answer in a
        /// collection result.
        case sage44 = "sage-4.4"
        /// SageResearch 4.5.0 to 4.7.1 (JsonModel 1.4.x–1.6.x): the skip wrapper no rule reads.
        case sage45 = "sage-4.5"
        /// SageResearch 4.8.0 to 4.11.0 (JsonModel 2.x): 4.5.0's navigation; the task result writes `$schema`.
        case sage4 = "sage-4"
        /// AssessmentModelKMM (Swift, as iOS ships it; `option implementation kotlin` for Android).
        case assessment

        /// The generations the release renders.
        public var renders: [Sage.Generation] {
            switch self {
            case .sage2: [.legacy]
            case .sage33, .sage34, .sage35: [.legacy, .v3]
            case .sage40, .sage44, .sage45, .sage4: [.v3]
            case .assessment: [.assessment]
            }
        }

        /// The releases, newest first.
        static let newestFirst: [Release] = [.assessment, .sage4, .sage45, .sage44, .sage40, .sage35, .sage34, .sage33, .sage2]

        /// What the profile is, for messages and docs.
        public var summary: String {
            switch self {
            case .sage2: "SageResearch v2.8.88 (2.x line)"
            case .sage33: "SageResearch 3.1.86–3.3.91"
            case .sage34: "SageResearch 3.4.92–3.4.93"
            case .sage35: "SageResearch 3.5.94–3.18.4"
            case .sage40: "SageResearch 4.0.1–4.3.8"
            case .sage44: "SageResearch 4.4.0"
            case .sage45: "SageResearch 4.5.0–4.7.1"
            case .sage4: "SageResearch 4.8.0–4.11.0"
            case .assessment: "AssessmentModelKMM 08288272 (v1.1.4 + 15 commits)"
            }
        }
    }

    /// AssessmentModel's two implementations (`option implementation swift|kotlin`).
    public enum Implementation: String, Sendable, CaseIterable {
        case swift, kotlin
    }

    public let release: Release
    public let implementation: Implementation
    /// `option cohort-tracking on`: the app registered an `RSDCohortTrackingRule` with the factory
    /// (`RSDFactory.shared.trackingRules`, empty unless the app adds one).
    public let tracksCohorts: Bool
    /// `option abbreviated-instructions on`: the app asks for abbreviated instructions, so instruction
    /// steps with `fullInstructionsOnly` are passed over.
    public let abbreviatesInstructions: Bool

    public static let implementationOption = "implementation"
    public static let cohortOption = "cohort-tracking"
    public static let instructionsOption = "abbreviated-instructions"

    /// The engine a session of a file of this generation runs under these settings (the caller has checked
    /// the settings with `Survey.problem(with:)`).
    init(generation: Sage.Generation, settings: SessionSettings) {
        release = settings.profile.flatMap(Release.init(rawValue:)) ?? Self.defaultRelease(for: generation)
        implementation = settings.options[Self.implementationOption].flatMap(Implementation.init(rawValue:)) ?? .swift
        tracksCohorts = settings.options[Self.cohortOption] == "on"
        abbreviatesInstructions = settings.options[Self.instructionsOption] == "on"
    }

    init(release: Release, implementation: Implementation = .swift, tracksCohorts: Bool = false, abbreviatesInstructions: Bool = false) {
        self.release = release
        self.implementation = implementation
        self.tracksCohorts = tracksCohorts
        self.abbreviatesInstructions = abbreviatesInstructions
    }

    /// The newest release that renders the generation.
    static func defaultRelease(for generation: Sage.Generation) -> Release {
        Release.newestFirst.first { $0.renders.contains(generation) } ?? .sage4
    }

    /// The profiles that render a generation, the default first.
    static func profiles(for generation: Sage.Generation) -> [String] {
        Release.newestFirst.filter { $0.renders.contains(generation) }.map(\.rawValue)
    }

    /// The options a file of this generation reads, each with its values (the first is the default).
    static func options(for generation: Sage.Generation) -> [String: [String]] {
        switch generation {
        case .assessment: [implementationOption: Implementation.allCases.map(\.rawValue)]
        case .legacy, .v3: [cohortOption: ["off", "on"], instructionsOption: ["off", "on"]]
        }
    }

    /// How a trace names the engine.
    var name: String {
        var name = "profile \(release.rawValue)"
        if release == .assessment { name += ", implementation \(implementation.rawValue)" }
        if tracksCohorts { name += ", cohort-tracking on" }
        if abbreviatesInstructions { name += ", abbreviated-instructions on" }
        return name
    }

    /// The engine in words, for findings.
    var displayName: String {
        isAssessmentModel ? "AssessmentModel \(isKotlin ? "Kotlin (Android)" : "Swift (iOS)")" : release.summary
    }

    // MARK: behaviours

    public var isAssessmentModel: Bool { release == .assessment }
    var isKotlin: Bool { isAssessmentModel && implementation == .kotlin }

    /// Whether the step history keeps every visit (SageResearch from 3.4.92, AssessmentModel) or Back and
    /// backward jumps cut it (up to 3.3.91 and the 2.x line).
    var keepsHistory: Bool { release != .sage2 && release != .sage33 }

    /// How the result records the path.
    enum PathRecord { case none, nodePath, markers }
    var pathRecord: PathRecord {
        switch release {
        case .sage2, .sage33: .none
        case .sage34, .sage35, .sage40: .nodePath
        case .sage44, .sage45, .sage4, .assessment: .markers
        }
    }

    /// Whether the results are JsonModel's classes (SageResearch 4.4+, AssessmentModel).
    private var hasJsonModelResults: Bool { [.sage44, .sage45, .sage4, .assessment].contains(release) }

    /// Whether a section's result is one shared object, so that an entry written earlier shows the state
    /// the section reached later (JsonModel's `BranchNodeResultObject` class: SageResearch 4.4+ and
    /// AssessmentModel); SageResearch's `RSDTaskResultObject` up to 4.3 is a struct, copied when appended.
    var sharesBranchResults: Bool { hasJsonModelResults }

    /// Whether rules find a step's answer from the end of the history (the latest visit) or from its start:
    /// JsonModel's `findAnswer` searches from the end from 1.4.6, the least SwiftPM resolves for SageResearch
    /// 4.4.0 (`from: 1.4.0`, so the newest 1.x).
    var readsLatestAnswer: Bool { hasJsonModelResults }

    /// Whether a v3 question's answer is JsonModel's `AnswerResultObject` (SageResearch 4.x), which is not a
    /// navigation result: the skip button wraps it.
    var answersAreJsonModel: Bool { [.sage40, .sage44, .sage45, .sage4].contains(release) }

    /// The release whose navigation this one shares: releases that differ only in the result they write
    /// (3.5.94 from 3.4.92, 4.8.0 from 4.5.0) navigate alike, so walks compare only one of them.
    var navigationTwin: Release {
        switch release {
        case .sage35: .sage34
        case .sage45: .sage4
        default: release
        }
    }

    /// What the skip button does to the step's result in SageResearch.
    enum SkipMark {
        /// The result itself carries `skipToIdentifier` (legacy collections, 3.x `AnswerResultObject`).
        case onResult
        /// A JsonModel answer is wrapped in a collection result that carries it (4.0–4.4).
        case collectionWrapper
        /// A JsonModel answer is wrapped in `RSDNavigationResultObject`, which no rule can read (4.5+).
        case transientWrapper
    }
    func skipMark(for generation: Sage.Generation) -> SkipMark {
        switch release {
        case .sage40, .sage44: .collectionWrapper
        case .sage45, .sage4: .transientWrapper
        default: .onResult
        }
    }

    /// The shape of the task result written.
    enum ResultStyle {
        /// `RSDTaskResultObject` of 2.x/3.x: `schemaInfo`, `type: task` (3.4+: `nodePath`); sections are task
        /// results up to 3.4.93, `SectionResultObject`s from 3.5.94.
        case schemaInfo
        /// `RSDTaskResultObject` of 4.0–4.3: `nodePath`, optional `assessmentIdentifier`… (no schemaInfo).
        case identifiers
        /// JsonModel's `AssessmentResultObject` / `BranchNodeResultObject`: `path` markers.
        case jsonModel
    }
    var resultStyle: ResultStyle {
        switch release {
        case .sage2, .sage33, .sage34, .sage35: .schemaInfo
        case .sage40: .identifiers
        case .sage44, .sage45, .sage4, .assessment: .jsonModel
        }
    }

    /// Whether a section's result is SageResearch's `SectionResultObject` (`type: section`, no run id, no
    /// `schemaInfo`) or JsonModel's branch result, rather than a task result (up to 3.4.93).
    var writesSectionResults: Bool { ![.sage2, .sage33, .sage34].contains(release) }

    /// The `$schema` the task result writes: JsonModel 2.1+ writes one for an assessment result
    /// (AssessmentModel's `AssessmentResultObject`; SageResearch 4.8+ resolves JsonModel 2.x, and its
    /// `RSDTaskResultObject` names its model `TaskResultObject`); JsonModel 1.x writes none.
    var resultSchema: String? {
        switch release {
        case .assessment: "https://bridgedigitalhealth.github.io/mobile-client-json/schemas/v2/AssessmentResultObject.json"
        case .sage4: "https://bridgedigitalhealth.github.io/mobile-client-json/schemas/v2/TaskResultObject.json"
        default: nil
        }
    }
}
