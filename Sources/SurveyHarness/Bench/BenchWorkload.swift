import SurveyCore
import SurveyFormats

/// What `bench` measures for one format, or one profile of a format: its survey files under its settings and,
/// where the format can be large, its synthetic surveys for the size series.
public struct BenchWorkload: Sendable {
    /// How tables and targets name it: "FHIR R4", "C3-PRO".
    public var label: String
    /// The format's name in `FormatRegistry`.
    public var format: String
    public var settings: SessionSettings
    /// The survey files, the one the targets name first (walk rate, memory and fuzz are measured on it).
    public var surveys: [String]
    /// The size series' surveys; nil for a format whose surveys stay small (an Owlmetry schema holds at most
    /// 30 questions).
    public var synthetic: (any SyntheticSurvey)?

    public init(label: String, format: String, settings: SessionSettings = SessionSettings(), surveys: [String], synthetic: (any SyntheticSurvey)?) {
        self.label = label
        self.format = format
        self.settings = settings
        self.surveys = surveys
        self.synthetic = synthetic
    }

    /// The key of its figures in `bench --json`: the format's name, then the profile after a slash
    /// (`fhir/c3pro`).
    public var key: String {
        settings.profile.map { "\(format)/\($0)" } ?? format
    }

    /// One workload a format, and the C3-PRO profile, on the corpus files the performance targets name
    /// (`corpus` is the shared corpus folder) and some more of it.
    public static func standard(corpus: String) -> [BenchWorkload] {
        [
            BenchWorkload(
                label: "SurveyNative", format: SurveyNativeFormat.name,
                surveys: ["Scenarios/checkin/checkin.json", corpus + "/surveynative/ExampleQuestions.json"], synthetic: SyntheticSurveyNative()),
            BenchWorkload(
                label: "FHIR R4", format: FHIRFormat.name, surveys: [corpus + "/fhir/androidfhir-screener-questionnaire.json", corpus + "/fhir/lforms-phq9.json"],
                synthetic: SyntheticFHIR()),
            BenchWorkload(
                label: "C3-PRO", format: FHIRFormat.name, settings: SyntheticC3PRO().settings, surveys: [corpus + "/c3pro/Questionnaire-enableWhen.json"],
                synthetic: SyntheticC3PRO()),
            BenchWorkload(
                label: "SageResearch", format: SageFormat.name,
                surveys: [corpus + "/sage/sageresearch_FactoryTest_TaskFoo.json", corpus + "/sage/assessmentmodel_surveyB.json"], synthetic: SyntheticSage()),
            BenchWorkload(
                label: "Owlmetry", format: OwlmetryFormat.name, surveys: [corpus + "/owlmetry/owlmetry_shared_test_all_types_schema.json"], synthetic: nil),
        ]
    }

    /// The workload with the project's own surveys added after its own: those of `project` in this format
    /// that its scenarios run under this workload's profile (a scenario without a profile runs the survey's
    /// default one).
    public func addingProjectSurveys(_ project: [ProjectSurvey]) -> BenchWorkload {
        var workload = self
        for survey in project where survey.format == format && !workload.surveys.contains(survey.path) {
            if (settings.profile ?? survey.defaultProfile) == (survey.profile ?? survey.defaultProfile) { workload.surveys.append(survey.path) }
        }
        return workload
    }

    /// A survey file the project's scenarios run, with the profile one of them names.
    public struct ProjectSurvey: Sendable, Equatable {
        public var path: String
        public var format: String
        public var profile: String?
        /// The profile the survey runs under when a scenario names none.
        public var defaultProfile: String?
    }

    /// Every survey file and profile the scenarios under `scenariosRoot` run, in path order; scenarios or
    /// surveys that do not read or load are left out (the suite reports them).
    public static func projectSurveys(under scenariosRoot: String, registry: FormatRegistry = .standard) -> [ProjectSurvey] {
        var found: [ProjectSurvey] = []
        var loaded: [String: (format: String, defaultProfile: String?)?] = [:]
        for path in ScenarioDiscovery.find([scenariosRoot], extension: "scenario").files.sorted() {
            guard let scenario = try? ScenarioParser.parse(InputFiles.read(path)), let surveyPath = scenario.surveyPath else { continue }
            let survey = InputFiles.resolve(surveyPath, relativeTo: path)
            if loaded[survey] == nil {
                loaded[survey] = .some(
                    (try? InputFiles.read(survey)).flatMap { file in
                        guard let format = try? registry.format(of: file), let loaded = try? registry.load(file) else { return nil }
                        return (format.name, loaded.profiles.first)
                    })
            }
            guard let (format, defaultProfile) = loaded[survey] ?? nil else { continue }
            let entry = ProjectSurvey(path: survey, format: format, profile: scenario.profile, defaultProfile: defaultProfile)
            if !found.contains(entry) { found.append(entry) }
        }
        return found.sorted { ($0.path, $0.profile ?? "") < ($1.path, $1.profile ?? "") }
    }
}
