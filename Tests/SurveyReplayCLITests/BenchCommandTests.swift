import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

/// `bench` chooses formats, profiles and options as the other commands do, and reports each format's figures
/// under its key beside the earlier top-level ones. Smoke runs (`--quick --runs 1`): figures are timings, so
/// only their presence is checked.
@Suite(.requires(.corpus)) struct BenchCommandTests {
    /// Runs the built binary in the project folder, where bench finds Scenarios/ and ../shared/corpus.
    private func bench(_ arguments: [String]) throws -> CLIResult {
        try runBinary(["bench", "--quick", "--runs", "1"] + arguments, folder: URL(fileURLWithPath: Corpus.packageRoot))
    }

    private func json(_ result: CLIResult) throws -> [String: JSONValue] {
        try #require(JSONParser.parse(SourceFile(path: "out", text: result.out)).plain.objectValue)
    }

    @Test("--format fhir --profile c3pro measures the C3-PRO profile alone, under the key fhir/c3pro, on its corpus file first")
    func profileOfAFormat() throws {
        let result = try bench(["--format", "fhir", "--profile", "c3pro", "--only", "walks", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let json = try json(result)
        let formats = try #require(json["formats"]?.objectValue)
        #expect(Array(formats.keys) == ["fhir/c3pro"])
        let surveys = formats["fhir/c3pro"]?.objectValue?["surveys"]?.arrayValue ?? []
        #expect(surveys.first == "../shared/corpus/c3pro/Questionnaire-enableWhen.json")
        #expect(surveys.contains("Scenarios/c3pro/sleep-diary.json"))
        let walks = json["walkStepsPerSecond"]?.objectValue?["fhir/c3pro"]?.objectValue
        #expect(walks?["../shared/corpus/c3pro/Questionnaire-enableWhen.json"]?.objectValue?["propertiesOff"]?.objectValue?["median"]?.numberValue != nil)
        let targets = try #require(json["targets"]?.objectValue)
        #expect(targets["C3-PRO walk steps/s on Questionnaire-enableWhen.json, properties off ≥ 500,000"]?.boolValue != nil)
        #expect(targets["FHIR R4 walk steps/s on androidfhir-screener-questionnaire.json, properties off ≥ 500,000"] == .null)
        #expect(targets["walk steps/s with properties off ≥ 1,000,000"]?.boolValue != nil, "the top-level figures are the first survey's")
    }

    @Test("the size series of a format gives its load times, step costs and ratios under its key; the top-level series stay SurveyNative's")
    func sizeSeries() throws {
        let result = try bench(["--format", "sage", "--only", "sizes", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let json = try json(result)
        #expect(json["loadMilliseconds"]?.objectValue?.keys.sorted() == ["sage"])
        #expect(json["loadMilliseconds"]?.objectValue?["sage"]?.objectValue?.keys.sorted() == ["100", "1000"])
        #expect(json["stepCostRatio"]?.objectValue?["sage"]?.objectValue?["1000"]?.numberValue != nil)
        #expect(json["targets"]?.objectValue?["step cost at 10,000 questions ≤ 2× at 100"] == .null)
    }

    @Test("fuzz end to end is reported per format with the walk rate measured beside it and their ratio, and the text table shows it")
    func fuzzRatio() throws {
        let json = try json(try bench(["--format", "owlmetry", "--json"]))
        let fuzz = try #require(json["fuzzStepsPerSecond"]?.objectValue?["owlmetry"]?.objectValue?["median"]?.numberValue)
        let walk = try #require(json["fuzzWalkStepsPerSecond"]?.objectValue?["owlmetry"]?.objectValue?["median"]?.numberValue)
        #expect(fuzz > 0 && walk > 0)
        // The ratio is of the two figures measured alternately, not of the walks part's figure.
        let ratio = try #require(json["fuzzEndToEndRatio"]?.objectValue?["owlmetry"]?.numberValue)
        #expect(abs(ratio - fuzz / walk) <= 1e-9 * ratio)
        // The fuzz part alone measures both, so it gives the ratio without the walks part.
        let text = try bench(["--format", "owlmetry", "--only", "fuzz"])
        #expect(text.out.contains("Owlmetry (owlmetry)\n"))
        #expect(text.out.contains("fuzz --walks 500 on ../shared/corpus/owlmetry/owlmetry_shared_test_all_types_schema.json end to end, steps/s: "))
        #expect(text.out.contains("% of the walk steps/s (properties off) measured run by run beside it, "))
        #expect(text.out.contains("NOT met Owlmetry: fuzz --walks 20000") || text.out.contains("met     Owlmetry: fuzz --walks 20000"))
    }

    @Test("a profile or option is checked against the format named; without --format, formats that do not take it are left out")
    func settingsAreChecked() throws {
        let unknown = try bench(["--format", "surveynative", "--profile", "c3pro"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown profile 'c3pro'; the surveynative format has no profiles"))
        #expect(try bench(["--profile", "nope"]).error.contains("no format takes profile 'nope'"))
        let engine = try json(try bench(["--option", "engine=android-fhir", "--only", "walks", "--json"]))
        #expect(engine["formats"]?.objectValue?.keys.sorted() == ["fhir"])
        #expect(engine["formats"]?.objectValue?["fhir"]?.objectValue?["options"] == ["engine": "android-fhir"])
    }

    @Test("--survey must be of a format measured")
    func surveyOfAnotherFormat() throws {
        let result = try bench(["--format", "sage", "--survey", "Scenarios/checkin/checkin.json"])
        #expect(result.status == 2)
        #expect(result.error.contains("--survey Scenarios/checkin/checkin.json is a surveynative survey, and the formats measured are sage"))
    }
}
