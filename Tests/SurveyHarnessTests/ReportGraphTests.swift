import Foundation
import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// A survey with an or over an and, a forward reference and a question no scenario reaches.
private let treeSurvey = """
    {"questions": [
      {"id": "a", "question": "A?", "question_type": "single_select", "options": ["Yes", "No"]},
      {"id": "b", "question": "B?", "question_type": "single_select", "options": ["Yes", "No"]},
      {"id": "c", "question": "C & <co>?", "question_type": "single_text_field",
       "show_if": {"operation": "or", "subconditions": [
         {"id": "a", "operation": "equals", "value": "Yes"},
         {"operation": "and", "subconditions": [{"id": "b", "operation": "equals", "value": "Yes"}, {"id": "d", "operation": "equals", "value": "x"}]}]}},
      {"id": "d", "question": "D?", "question_type": "single_text_field"}
    ], "submit": {"button_title": "Send", "url": "https://example.org/r"}}
    """

@Suite("the report's skip-logic graph and markup")
struct ReportGraphTests {
    private func covered(_ actions: String) throws -> CoverageReport {
        let survey = try FormatRegistry.standard.load(SourceFile(path: "tree.json", text: treeSurvey))
        let recorder = CoverageRecorder(plan: survey.coveragePlan())
        let scenario = try ScenarioParser.parse(SourceFile(path: "t.scenario", text: "survey tree.json\n" + actions))
        _ = ScenarioRunner().run(scenario, survey: survey, coverage: recorder)
        return CoverageReport(recorder)
    }

    @Test("the graph keeps and/or nodes, draws one edge per leaf from the question it reads, questions in survey order")
    func graphShape() throws {
        let texts = ["a": "A?", "b": "B?", "c": "C & <co>?", "d": "D?"]
        let graph = SkipLogicGraph(report: try covered("answer a \"Yes\"\nanswer b \"No\"\n")) { texts[$0] }
        #expect(graph.questions.map(\.id) == ["a", "b", "c", "d"])
        guard case .any(let children)? = graph.decisions.first?.root, case .all(let inner) = children[1] else {
            Issue.record("the or over an and was flattened: \(String(describing: graph.decisions.first?.root))")
            return
        }
        #expect(inner.count == 2)
        let svg = SkipLogicSVG(graph: graph).svg
        #expect(svg.components(separatedBy: "<path class=\"edge ").count - 1 == 3)
        #expect(svg.contains(">show_if: any of</text>") && svg.contains(">all of</text>"))
        #expect(svg.contains("C &amp; &lt;co&gt;?"))
        // Questions top to bottom in survey order.
        let rows = ["a — A?", "b — B?", "c — C &amp; &lt;co&gt;?", "d — D?"].map { svg.range(of: ">\($0)</text>")?.lowerBound }
        #expect(rows.allSatisfy { $0 != nil })
        let ys = rows.compactMap { $0 }.map { index -> Int in
            let head = svg[..<index]
            let y = head.range(of: " y=\"", options: .backwards)!.upperBound
            return Int(head[y...].prefix { $0.isNumber })!
        }
        #expect(ys == ys.sorted() && Set(ys).count == 4)
        // Colours by coverage: a = "Yes" was true when c came up; b and d were never evaluated (short-circuit).
        #expect(svg.contains("class=\"edge edge-one-way\""))
        #expect(svg.contains("class=\"edge edge-never\""))
        #expect(svg.contains("class=\"legend\""))
    }

    @Test("lanes: edges sharing a lane never overlap, for many random spans")
    func lanesNeverOverlap() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let spans = (0..<Int(generator.next() % 40)).map { _ -> (low: Int, high: Int) in
                let a = Int(generator.next() % 60)
                let b = Int(generator.next() % 60)
                return (min(a, b), max(a, b))
            }
            let lanes = SkipLogicSVG.lanes(spans)
            for i in spans.indices {
                for j in spans.indices where i < j && lanes[i] == lanes[j] {
                    #expect(spans[i].high < spans[j].low || spans[j].high < spans[i].low, "\(spans[i]) and \(spans[j]) share lane \(lanes[i])")
                }
            }
            #expect(SkipLogicSVG.lanes(spans) == lanes)
        }
    }

    @Test("escaping: markup characters, quotes and control characters cannot break a page")
    func escaping() {
        #expect(HTML.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(HTML.escape("bell\u{07}tab\t") == "bell\u{FFFD}tab\t")
        #expect(HTML.text("p", [("title", "x\"y"), ("hidden", nil)], "<i>") == "<p title=\"x&quot;y\">&lt;i&gt;</p>")
        #expect(ReportPage.href("scenarios/a b#c.html", depth: 1) == "../scenarios/a%20b%23c.html")
    }

    @Test("page names are distinct and safe even when names differ only in characters a file cannot hold")
    func pageNames() {
        var names = PageNames()
        for key in ["a/b", "a_b", "a?b", "A?B", "../x/y.json"] { names.register(key, folder: "s") }
        let paths = ["a/b", "a_b", "a?b", "A?B", "../x/y.json"].compactMap(names.path)
        #expect(paths.count == 5)
        #expect(Set(paths.map { $0.lowercased() }).count == 5)
        #expect(paths.allSatisfy { $0.hasPrefix("s/") && !$0.dropFirst(2).contains("/") })
        #expect(names.path("../x/y.json") == "s/x--y.json.html")
    }
}
