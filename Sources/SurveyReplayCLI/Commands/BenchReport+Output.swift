import FHIRPathConformance
import Foundation
import SurveyCore
import SurveyHarness

extension BenchReport {
    private func figureJSON(_ figure: BenchFigure) -> JSONValue {
        ["min": .number(figure.min), "median": .number(figure.median), "max": .number(figure.max)]
    }

    private func sizesJSON(_ series: [(size: Int, figure: BenchFigure)]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: series.map { (String($0.size), figureJSON($0.figure)) })
    }

    private func ratiosJSON(_ figures: FormatFigures) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: BenchReport.sizes.dropFirst().compactMap { size in figures.ratio(size).map { (String(size), JSONValue.number($0)) } })
    }

    private func memoryJSON(_ memory: (at100k: Int, at1M: Int, peak: Int)) -> [String: JSONValue] {
        [
            "residentBytesAt100kSteps": .number(Double(memory.at100k)), "residentBytesAt1MSteps": .number(Double(memory.at1M)),
            "peakBytes": .number(Double(memory.peak)), "growthBytes": .number(Double(memory.at1M - memory.at100k)),
        ]
    }

    /// The figures as JSON: those of the earlier issues at the top level of each object, as before, and each
    /// format's under its key (`walkStepsPerSecond.fhir`, `stepCostRatio.fhir/c3pro`…).
    var json: JSONValue {
        let sizes = surveyNativeSizes
        var walkSteps: [String: JSONValue] = ["propertiesOff": walkOff.map(figureJSON) ?? .null, "propertiesOn": walkOn.map(figureJSON) ?? .null]
        var load = sizesJSON(sizes?.loadMilliseconds ?? [])
        var step = sizesJSON(sizes?.stepNanoseconds ?? [])
        var ratio = sizes.map(ratiosJSON) ?? [:]
        var memoryObject = memory.map(memoryJSON) ?? [:]
        var fuzz: [String: JSONValue] = [:]
        var fuzzRatio: [String: JSONValue] = [:]
        var fuzzWalk: [String: JSONValue] = [:]
        var described: [String: JSONValue] = [:]
        for figures in formats {
            let key = figures.workload.key
            let settings = figures.workload.settings
            described[key] = [
                "label": .string(figures.workload.label), "format": .string(figures.workload.format), "profile": settings.profile.map(JSONValue.string) ?? .null,
                "options": .object(settings.options.mapValues(JSONValue.string)), "surveys": .array(figures.surveys.map(JSONValue.string)),
                "skipped": .array(figures.skipped.map { ["survey": .string($0.survey), "reason": .string($0.reason)] }),
            ]
            if !figures.walks.isEmpty {
                walkSteps[key] = .object(
                    Dictionary(uniqueKeysWithValues: figures.walks.map { ($0.survey, ["propertiesOff": figureJSON($0.off), "propertiesOn": figureJSON($0.on)]) }))
            }
            if !figures.loadMilliseconds.isEmpty {
                load[key] = .object(sizesJSON(figures.loadMilliseconds))
                step[key] = .object(sizesJSON(figures.stepNanoseconds))
                ratio[key] = .object(ratiosJSON(figures))
            }
            if let memory = figures.memory { memoryObject[key] = .object(memoryJSON(memory)) }
            if let measured = figures.fuzz {
                fuzz[key] = figureJSON(measured.figure)
                fuzzWalk[key] = figureJSON(measured.walk)
                fuzzRatio[key] = figures.fuzzRatio.map(JSONValue.number) ?? .null
            }
        }
        var object: [String: JSONValue] = [
            "survey": .string(survey),
            "formats": .object(described),
            "walkStepsPerSecond": .object(walkSteps),
            "replayStepsPerSecond": replay.map(figureJSON) ?? .null,
            "loadMilliseconds": .object(load),
            "stepNanoseconds": .object(step),
            "stepCostRatio": .object(ratio),
            "fuzzStepsPerSecond": .object(fuzz),
            "fuzzEndToEndRatio": .object(fuzzRatio),
            "fuzzWalkStepsPerSecond": .object(fuzzWalk),
            "targets": .object(Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0.met.map(JSONValue.bool) ?? .null) })),
        ]
        if !memoryObject.isEmpty { object["memory"] = .object(memoryObject) }
        if let suite { object["suiteSeconds"] = ["scenarios": .number(Double(suite.scenarios)), "seconds": figureJSON(suite.figure)] }
        if let jobs {
            object["jobsScaling"] = [
                "scenarios": .number(Double(jobs.scenarios)), "jobs1Seconds": figureJSON(jobs.one), "jobs2Seconds": figureJSON(jobs.two),
                "speedup": .number(jobs.one.median / jobs.two.median),
            ]
        }
        if fhirpathScore != nil || fhirpathSuite != nil {
            object["fhirpath"] = [
                "scoreExpression": .string(FHIRPathBenchmark.scoreExpression),
                "scoreEvaluationsPerSecond": fhirpathScore.map { figureJSON($0.cpu) } ?? .null,
                "scoreEvaluationsPerWallSecond": fhirpathScore.map { figureJSON($0.wall) } ?? .null,
                "suiteExpressionsPerSecond": fhirpathSuite.map { figureJSON($0.cpu) } ?? .null,
                "suiteExpressionsPerWallSecond": fhirpathSuite.map { figureJSON($0.wall) } ?? .null,
                "suiteTests": fhirpathSuite.map { .number(Double($0.tests)) } ?? .null,
            ]
        }
        if !generation.isEmpty {
            object["generation"] = .array(
                generation.map { figure in
                    [
                        "survey": .string(figure.path), "scenarios": .number(Double(figure.scenarios)), "actions": .number(Double(figure.actions)),
                        "branchesTaken": .number(Double(figure.taken)), "branchesPossible": .number(Double(figure.possible)),
                        "branchesImpossible": .number(Double(figure.impossible)), "searchWalks": .number(Double(figure.searchWalks)),
                        "seconds": .number(figure.seconds), "randomWalksToSameCoverage": figure.randomWalks.map { .number(Double($0)) } ?? .null,
                        "randomWalksCap": .number(Double(figure.randomCap)), "randomWalkActions": .number(Double(figure.randomSteps)),
                    ]
                })
        }
        return .object(object)
    }

    var text: String {
        let count = { (value: Double) in String(Int(value.rounded())) }
        let decimal = { (value: Double) in String(format: "%.2f", value) }
        var lines = ["bench (release build recommended); figures are median (min, max)"]
        for figures in formats { lines += text(of: figures) }
        var global: [String] = []
        if let replay { global.append("replay steps/s on \(survey): \(Self.figure(replay, count))") }
        if let suite { global.append("survey-replay test on the project's \(suite.scenarios) scenarios, s: \(Self.figure(suite.figure, { String(format: "%.3f", $0) }))") }
        if let jobs {
            global.append(
                "--jobs 2 on \(jobs.scenarios) scenarios: \(decimal(jobs.one.median / jobs.two.median))× faster than --jobs 1 "
                    + "(s: \(Self.figure(jobs.one, decimal)) against \(Self.figure(jobs.two, decimal)))")
        }
        if let fhirpathScore {
            global.append(
                "FHIRPath \(FHIRPathBenchmark.scoreExpression) evaluations/s: \(Self.figure(fhirpathScore.cpu, count)) of CPU time, \(Self.figure(fhirpathScore.wall, count)) of wall clock")
        }
        if let fhirpathSuite {
            global.append(
                "FHIRPath suite (\(fhirpathSuite.tests) tests) expressions parsed and evaluated/s: \(Self.figure(fhirpathSuite.cpu, count)) of CPU time, \(Self.figure(fhirpathSuite.wall, count)) of wall clock")
        }
        if !generation.isEmpty {
            if !global.isEmpty { global.append("") }
            global.append("generate: covering scenarios beside random walks to the same number of branches taken")
            for figure in generation {
                let random =
                    figure.randomWalks.map { "\($0) walk\($0 == 1 ? "" : "s") (\(figure.randomSteps) actions)" }
                    ?? "more than \(figure.randomCap) walks (\(figure.randomSteps) actions)"
                global.append(
                    "  \(figure.path): \(figure.scenarios) scenario\(figure.scenarios == 1 ? "" : "s") (\(figure.actions) actions) take "
                        + "\(figure.taken)/\(figure.possible) branches, found in \(decimal(figure.seconds)) s (\(figure.searchWalks) search walks); "
                        + "random walks need \(random)")
            }
        }
        if !global.isEmpty { lines += [""] + global }
        lines.append("")
        lines.append("targets:")
        for (name, met) in targets { lines.append("  \(met.map { $0 ? "met    " : "NOT met" } ?? "n/a    ") \(name)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func figure(_ value: BenchFigure, _ format: (Double) -> String) -> String {
        "\(format(value.median)) (min \(format(value.min)), max \(format(value.max)))"
    }

    /// A format's lines of the table.
    private func text(of figures: FormatFigures) -> [String] {
        let count = { (value: Double) in String(Int(value.rounded())) }
        let decimal = { (value: Double) in String(format: "%.2f", value) }
        let settings = figures.workload.settings
        let described = ([settings.profile.map { "profile \($0)" }] + settings.options.sorted { $0.key < $1.key }.map { "option \($0.key) \($0.value)" }).compactMap { $0 }
        var lines = ["", "\(figures.workload.label) (\(([figures.workload.key] + described).joined(separator: ", ")))"]
        for walk in figures.walks {
            lines.append("  walk steps/s on \(walk.survey): properties off \(Self.figure(walk.off, count)); built-in properties \(Self.figure(walk.on, count))")
        }
        for (size, value) in figures.loadMilliseconds { lines.append("  load of \(size) questions, ms: \(Self.figure(value, decimal))") }
        for (size, value) in figures.stepNanoseconds {
            let ratio = size == 100 ? "" : figures.ratio(size).map { "; \(decimal($0))× the cost at 100" } ?? ""
            lines.append("  walk step cost at \(size) questions, ns: \(Self.figure(value, count))\(ratio)")
        }
        if let memory = figures.memory, let main = figures.surveys.first {
            lines.append(
                "  memory for 1,000,000 walk steps on \(main): peak \(memory.peak / 1_000_000) MB; resident \(memory.at100k / 1_000_000) MB at 100,000 steps, "
                    + "\(memory.at1M / 1_000_000) MB at 1,000,000")
        }
        if let fuzz = figures.fuzz, let main = figures.surveys.first {
            let ratio = figures.fuzzRatio.map { "; \(Int(($0 * 100).rounded()))% of the walk steps/s (properties off) measured run by run beside it, \(Self.figure(fuzz.walk, count))" } ?? ""
            lines.append("  fuzz --walks \(fuzz.walks) on \(main) end to end, steps/s: \(Self.figure(fuzz.figure, count))\(ratio)")
        }
        for (survey, reason) in figures.skipped { lines.append("  left out \(survey): \(reason)") }
        return lines
    }
}
