import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// Every parser of the project as a fuzz target: the JSON scanner, one target per survey format (load, lint
/// and a few checked walks), scenario files, properties files, goldens, coverage files and payloads; and the
/// files around them: writing to odd names and special files, reading what is not a regular file
/// (FileFuzzTargets.swift).
public enum FuzzTargets {
    /// The survey the file kinds that need one (properties, payloads, coverage files) are read against.
    static let companionSurveyPath = "Scenarios/checkin/checkin.json"

    public static func all(registry: FormatRegistry = .standard) -> [FuzzTarget] {
        [json] + registry.formats.map { survey(format: $0.name, registry: registry) } + [scenario, properties, golden, coverage, payload, output, fifo]
    }

    public static func named(_ name: String, registry: FormatRegistry = .standard) -> FuzzTarget? {
        all(registry: registry).first { $0.name == name }
    }

    // MARK: seeds

    /// The contents of the files under the project's folders and the corpus with one of these extensions,
    /// in path order.
    static func files(_ extensions: [String], corpus: String, projectFolders: [String] = ["Scenarios"]) -> [[UInt8]] {
        ScenarioDiscovery.find((projectFolders + [corpus]).filter { FileManager.default.fileExists(atPath: $0) }, extensions: extensions)
            .files.sorted().compactMap { try? InputFiles.read($0).bytes }
    }

    /// The survey files a format recognizes.
    static func surveys(of format: String, corpus: String, registry: FormatRegistry) -> [[UInt8]] {
        files(["json"], corpus: corpus).filter { bytes in
            registry.lint(SourceFile(path: "seed.json", bytes: bytes)).format == format
        }
    }

    // MARK: targets

    static let json = FuzzTarget(
        name: "json", summary: "the JSON scanner that tracks locations: parse, then print and parse back", isJSON: true,
        seeds: { corpus in files(["json"], corpus: corpus) },
        run: { input in
            let file = SourceFile(path: "input.json", bytes: input)
            do throws(InputError) {
                let value = try JSONParser.parse(file).plain
                let printed = CanonicalJSON.compact(value)
                let again = try JSONParser.parse(SourceFile(path: "printed.json", text: printed)).plain
                return again == value ? nil : "parsed JSON printed canonically reads back as a different value"
            } catch {
                return FuzzOracle.locatedOrProblem(error, in: file)
            }
        })

    static func survey(format: String, registry: FormatRegistry) -> FuzzTarget {
        FuzzTarget(
            name: format, summary: "\(format) surveys: load, lint and three checked walks", isJSON: true,
            seeds: { corpus in surveys(of: format, corpus: corpus, registry: registry) },
            run: { input in
                let file = SourceFile(path: "input.json", bytes: input)
                if let problem = FuzzOracle.located(registry.lint(file).findings, in: file) { return "lint: \(problem)" }
                do throws(InputError) {
                    let survey = try registry.load(file)
                    return FuzzOracle.walkProblem(survey)
                } catch {
                    return FuzzOracle.locatedOrProblem(error, in: file)
                }
            })
    }

    static let scenario = FuzzTarget(
        name: "scenario", summary: "scenario files: parse, then print and parse back", isJSON: false,
        seeds: { corpus in files(["scenario"], corpus: corpus) },
        run: { input in
            let file = SourceFile(path: "input.scenario", bytes: input)
            do throws(InputError) {
                let scenario = try ScenarioParser.parse(file)
                let again = try ScenarioParser.parse(SourceFile(path: "input.scenario", text: scenario.text))
                guard again.text == scenario.text, again.actions == scenario.actions else {
                    return "a parsed scenario printed canonically does not read back the same"
                }
                return nil
            } catch {
                return FuzzOracle.locatedOrProblem(error, in: file)
            }
        })

    static let properties = FuzzTarget(
        name: "properties", summary: "properties files, read against the team's check-in survey", isJSON: false,
        seeds: { corpus in files(["properties"], corpus: corpus, projectFolders: ["Scenarios", "Tests"]) },
        run: { input in
            guard let survey = companion() else { return "the companion survey \(companionSurveyPath) does not load" }
            let file = SourceFile(path: "input.properties", bytes: input)
            do throws(InputError) {
                let properties = try PropertiesFile.parse(file, survey: survey)
                _ = properties.violations(in: survey.makeSession(SessionSettings()), payloadQuestions: nil)
                return nil
            } catch {
                return FuzzOracle.locatedOrProblem(error, in: file)
            }
        })

    static let golden = FuzzTarget(
        name: "golden", summary: "golden files, compared and diffed against a real trace's text", isJSON: false,
        seeds: { _ in files(["snap"], corpus: "Snapshots", projectFolders: []) },
        run: { input in
            let golden = String(decoding: input, as: UTF8.self)
            let new = FuzzOracle.referenceGolden
            _ = Divergence.first(golden: golden, new: new)
            let diff = LineDiff.unified(old: golden, new: new)
            return diff.isEmpty == (golden == new) ? nil : "the diff is empty exactly when the texts differ"
        })

    static let coverage = FuzzTarget(
        name: "coverage", summary: "coverage JSON files as 'coverage merge' reads them", isJSON: true,
        seeds: { _ in companion().map { [FuzzOracle.coverageSeed($0)] } ?? [] },
        run: { input in
            guard let survey = companion() else { return "the companion survey \(companionSurveyPath) does not load" }
            let file = SourceFile(path: "input.json", bytes: input)
            do throws(InputError) {
                let plan = survey.coveragePlan()
                for entry in try CoverageFile.read(file) {
                    _ = CoverageReport(plan: plan, layout: CoverageReport.layout(of: plan), counts: try CoverageFile.counts(entry, plan: plan))
                }
                return nil
            } catch {
                return FuzzOracle.locatedOrProblem(error, in: file)
            }
        })

    static let payload = FuzzTarget(
        name: "payload", summary: "submitted payloads as 'import' reads them, against the check-in survey", isJSON: true,
        seeds: { _ in companion().map(FuzzOracle.payloadSeeds) ?? [] },
        run: { input in
            guard let survey = companion() else { return "the companion survey \(companionSurveyPath) does not load" }
            let file = SourceFile(path: "input.json", bytes: input)
            do throws(InputError) {
                let answers = try survey.answers(inPayload: JSONCursor(node: JSONParser.parse(file)))
                _ = PayloadImporter(survey: survey, settings: SessionSettings()).importAnswers(answers)
                return nil
            } catch {
                return FuzzOracle.locatedOrProblem(error, in: file)
            }
        })

    /// The survey the properties, coverage and payload targets read their inputs against, loaded afresh for
    /// each input: a survey kept for the whole run would be reported by LeakSanitizer under libFuzzer (it
    /// cannot follow Swift's tagged enum pointers into memory that lives until exit).
    static func companion() -> (any Survey)? {
        try? FormatRegistry.standard.load(InputFiles.read(companionSurveyPath))
    }
}
