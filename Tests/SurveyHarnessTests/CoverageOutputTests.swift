import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import SurveyHarness

/// The fixture survey after one respondent said Yes, gave 3 a day, finished and submitted.
private func coveredFixture() throws -> CoverageRecorder {
    let survey = try Fixtures.survey()
    let recorder = CoverageRecorder(plan: survey.coveragePlan())
    let scenario = try ScenarioParser.parse(
        SourceFile(path: "s.scenario", text: "survey smoking.json\nanswer smoker \"Yes\"\nanswer per_day \"3\"\nanswer done \"Yes\"\nsubmit\n"))
    #expect(ScenarioRunner().run(scenario, survey: survey, coverage: recorder).passed)
    return recorder
}

private func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-coverage-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("coverage outputs")
struct CoverageOutputTests {
    @Test("LCOV: a DA record for each line with branches, a BRDA for each possible branch, '-' where never reached")
    func lcovRecords() throws {
        let text = LCOVReport.text([("smoking.json", try coveredFixture())])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "TN:survey_replay")
        #expect(lines.contains("SF:smoking.json"))
        #expect(lines.last == "end_of_record")
        let branches = lines.filter { $0.hasPrefix("BRDA:") }
        #expect(branches.count == 17)
        // The Yes path never fails the validation and never picks No.
        #expect(lines.contains("BRF:17"))
        #expect(lines.contains("BRH:13"))
        for branch in branches {
            let line = branch.dropFirst(5).split(separator: ",")[0]
            #expect(lines.contains { $0.hasPrefix("DA:\(line),") }, "no DA record for line \(line)")
        }
    }

    @Test("genhtml renders the survey file itself from the LCOV tracefile", .requires(.tool("genhtml", debianPackage: "lcov")))
    func genhtmlAcceptsTheTracefile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Fixtures.surveyJSON.write(toFile: folder + "/smoking.json", atomically: true, encoding: .utf8)
        try LCOVReport.text([("smoking.json", try coveredFixture())]).write(toFile: folder + "/coverage.info", atomically: true, encoding: .utf8)
        let genhtml = try Program.run("genhtml", ["--branch-coverage", "coverage.info", "-o", "html"], in: folder)
        #expect(genhtml.status == 0, "genhtml failed:\n\(genhtml.out)\(genhtml.error)")
        #expect((genhtml.out + genhtml.error).contains("branches...: 76.5% (13 of 17 branches)"))
        // genhtml names the page after the file, in a folder named after the one the file is in.
        let pages = FileManager.default.subpaths(atPath: folder + "/html") ?? []
        guard let page = pages.first(where: { $0.hasSuffix("/smoking.json.gcov.html") }) else {
            Issue.record("no page for smoking.json among \(pages)")
            return
        }
        // The survey's own lines, with a mark for each branch taken and not taken.
        let html = try String(contentsOfFile: folder + "/html/" + page, encoding: .utf8)
        #expect(html.contains("Do you smoke?"))
        #expect(html.components(separatedBy: #"class="branchCov""#).count - 1 == 13)
        #expect(html.components(separatedBy: #"class="branchNoCov""#).count - 1 == 4)
    }

    @Test("dot renders the skip-logic picture", .requires(.tool("dot", debianPackage: "graphviz")))
    func dotAcceptsTheGraph() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = CoverageDOT.text([("smoking.json", try coveredFixture())])
        // One edge per leaf, from the question it reads, labelled with the decision and coloured by coverage
        // (only the true outcome was taken); survey order kept by invisible edges; a legend.
        #expect(text.contains(##""0:smoker" -> "0:per_day" [label="show_if: smoker equals \"Yes\"", color="#c77700""##))
        #expect(text.contains(##""0:smoker" -> "0:per_day" [style=invis, weight=100];"##))
        #expect(text.contains("subgraph \"cluster_legend\""))
        #expect(text.contains(##""0:per_day" [label="per_day", fillcolor="#d9f2df""##))
        try text.write(toFile: folder + "/logic.dot", atomically: true, encoding: .utf8)
        let dot = try Program.run("dot", ["-Tsvg", "logic.dot", "-o", "logic.svg"], in: folder)
        #expect(dot.status == 0, "dot failed:\n\(dot.error)")
        let svg = try String(contentsOfFile: folder + "/logic.svg", encoding: .utf8)
        #expect(svg.contains("per_day"))
    }

    @Test("Cobertura XML parses, and its totals are the report's")
    func coberturaParses() throws {
        let xml = CoberturaReport.xml([("smoking.json", try coveredFixture())])
        final class Attributes: NSObject, XMLParserDelegate {
            var coverage: [String: String] = [:]
            var lines = 0
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                if name == "coverage" { coverage = attributes }
                if name == "line" { lines += 1 }
            }
        }
        let parser = XMLParser(data: Data(xml.utf8))
        let attributes = Attributes()
        parser.delegate = attributes
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        #expect(attributes.coverage["branches-covered"] == "13")
        #expect(attributes.coverage["branches-valid"] == "17")
        #expect(attributes.lines > 0)
        #expect(xml == CoberturaReport.xml([("smoking.json", try coveredFixture())]), "the same run gives the same bytes")
    }

    @Test("a coverage file reads back to the same counts, and merging adds them")
    func coverageFileRoundTrip() throws {
        let recorder = try coveredFixture()
        let text = CanonicalJSON.pretty(CoverageFile.json([("smoking.json", recorder)]))
        let entries = try CoverageFile.read(SourceFile(path: "c.json", text: text))
        #expect(entries.map(\.path) == ["smoking.json"])
        let counts = try CoverageFile.counts(entries[0], plan: recorder.plan)
        #expect(counts == recorder.counts)
        let merged = CoverageRecorder(plan: recorder.plan)
        merged.merge(counts)
        merged.merge(counts)
        #expect(merged.counts.decisions[0] == recorder.counts.decisions[0].map { $0 * 2 })
        #expect(CoverageReport(merged).totals == CoverageReport(recorder).totals)
    }

    @Test("counts of another version of the survey are refused with their location")
    func countsOfAnotherVersion() throws {
        let recorder = try coveredFixture()
        let text = CanonicalJSON.pretty(CoverageFile.json([("smoking.json", recorder)]))
        let entries = try CoverageFile.read(SourceFile(path: "c.json", text: text))
        let smaller = CoveragePlan(file: "other.json")
        #expect {
            _ = try CoverageFile.counts(entries[0], plan: smaller)
        } throws: { error in
            "\(error)".contains("c.json:") && "\(error)".contains("has changed since these counts were recorded")
        }
    }

    @Test("the terminal table: per question shown/hidden seen and branches taken, then what was not taken and why")
    func table() throws {
        let text = CoverageTable.text(path: "smoking.json", try coveredFixture())
        #expect(text.contains("smoker    shown           4/6"))
        #expect(text.contains("branches: 13/17 taken (76.5%)"))
        #expect(text.contains("smoking.json:3:104: 'smoker' option \"No\" picked (reached, not taken)"))
    }
}
