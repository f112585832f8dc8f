import SurveyCore
import SurveyFormats

/// A survey the report draws: the loaded survey (or why it cannot load), its lint findings, and its
/// coverage added up scenario by scenario, remembering which scenario first took each branch.
final class SurveyEntry {
    /// What took a branch first.
    enum Source: Equatable {
        case scenario(String)
        case walks(Int, seed: UInt64)
    }

    let path: String
    let survey: (any Survey)?
    let loadErrors: [Diagnostic]
    let recorder: CoverageRecorder?
    let layout: [CoverageReport.BranchInfo]
    let lint: [Diagnostic]
    /// Per branch position in `layout`: what took it first.
    private(set) var firstTaker: [Int: Source] = [:]

    init(path: String, registry: FormatRegistry) {
        self.path = path
        var survey: (any Survey)?
        var errors: [Diagnostic] = []
        var lint: [Diagnostic] = []
        do throws(InputError) {
            let file = try InputFiles.read(path)
            // The suite's lint settings apply here as they do to `lint`; a malformed settings file is shown.
            var settings = LintConfig()
            do throws(InputError) {
                if let found = LintConfig.find(for: path) {
                    settings = try LintConfig.read(InputFiles.read(found), rules: Set(registry.lintRules.keys)).applying(to: path, commandLine: LintConfig())
                }
            } catch {
                lint = error.diagnostics
            }
            lint += registry.lint(file).findings.filter(settings.shows)
            survey = try registry.load(file)
        } catch {
            errors = error.diagnostics
        }
        self.survey = survey
        self.loadErrors = errors
        self.lint = lint
        let plan = survey?.coveragePlan()
        self.recorder = plan.map(CoverageRecorder.init(plan:))
        self.layout = plan.map(CoverageReport.layout(of:)) ?? []
    }

    func add(_ counts: CoverageCounts, by source: Source) {
        guard let recorder else { return }
        for index in CoverageReport.taken(layout, in: counts, plan: recorder.plan).sorted() where firstTaker[index] == nil {
            firstTaker[index] = source
        }
        recorder.merge(counts)
    }

    var coverage: CoverageReport? { recorder.map(CoverageReport.init) }

    var format: String { survey?.format ?? "not loaded" }
}
