import Testing
import SurveyCore
@testable import SurveyHarness

@Suite struct ScenarioParserTests {
    private func parse(_ text: String) throws(InputError) -> Scenario {
        try ScenarioParser.parse(SourceFile(path: "s.scenario", text: text))
    }

    private func diagnostics(_ text: String) -> [Diagnostic] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func printingAParsedCanonicalFileGivesTheSameBytes() throws {
        let text = """
            # What this path checks.
            survey "surveys/my survey.json"
            today 2026-11-22
            custom check_age false
            answer ice_cream "Chocolate"
            answer music_types ["Pop","Rock"]
            next
            next music_types
            answer ice_cream {"Other":"Mint"}  # scroll back and change an earlier answer

            answer "id with #hash" {"a":[1,2.5,null,true]}
            goto ice_cream
            back
            clear ice_cream
            expect visible ice_cream perfect_day
            expect hidden go_to_concerts
            expect current none
            expect current "none"
            expect current age
            expect answer ice_cream {"Other":"Mint"}
            expect payload null
            expect submittable false
            submit

            """
        let scenario = try parse(text)
        #expect(scenario.text == text)
        #expect(scenario.surveyPath == "surveys/my survey.json")
        #expect(scenario.today == CalendarDate(year: 2026, month: 11, day: 22))
        #expect(scenario.actions.count == 11)
    }

    @Test func readsAndPrintsTheVerbsOfEveryFormat() throws {
        let text = """
            survey q.json
            today 2026-11-22
            profile c3pro
            option not-equals-unanswered android-fhir
            add vitals
            remove "vitals#2"
            skip
            skip pain
            launch
            foreground
            wait 1d12h
            wait 90s
            consent later
            quit
            resume

            """
        let scenario = try parse(text)
        #expect(scenario.text == text.replacingOccurrences(of: "wait 90s", with: "wait 1m30s"))
        #expect(scenario.settings == SessionSettings(
            today: CalendarDate(year: 2026, month: 11, day: 22), profile: "c3pro", options: ["not-equals-unanswered": "android-fhir"]))
        #expect(scenario.actions == [
            .add(group: "vitals"), .remove(instance: "vitals#2"), .skip(question: nil), .skip(question: "pain"), .app(.launch),
            .app(.foreground), .app(.wait(seconds: 129_600)), .app(.wait(seconds: 90)), .app(.consent(.later)), .app(.quit), .app(.resume),
        ])
    }

    @Test func readsAndPrintsLaunchContextsAtTheTop() throws {
        let text = "survey q.json\ncontext patient \"records/ada patient.json\"\nanswer a 1\n"
        let scenario = try parse(text)
        #expect(scenario.text == text)
        #expect(scenario.contexts.map(\.name) == ["patient"])
        #expect(scenario.contexts.map(\.path) == ["records/ada patient.json"])
        #expect(diagnostics("survey a.json\nanswer a 1\ncontext patient p.json\n").first?.message == "'context' after the first action; expected it at the top, before any action")
        #expect(diagnostics("survey a.json\ncontext patient\n").first?.message.contains("the resource's JSON file") == true)
    }

    @Test func reportsBadDurationsConsentsAndLateProfiles() {
        #expect(diagnostics("survey a.json\nwait 3x\n").first?.description == "s.scenario:2:6: error: '3x' is not a duration; expected numbers with units d, h, m, s in that order, e.g. 3d or 1d12h")
        #expect(diagnostics("survey a.json\nwait 3h2d\n").first?.message.contains("is not a duration") == true)
        #expect(diagnostics("survey a.json\nwait\n").first?.message == "expected a duration such as 3d, 12h, 30m or 1d12h here")
        #expect(diagnostics("survey a.json\nconsent acept\n").first?.message == "'acept' is not a consent choice; expected accept, later or never; did you mean 'accept'?")
        #expect(diagnostics("survey a.json\nlaunch\nprofile c3pro\n").first?.message == "'profile' after the first action; expected it at the top, before any action")
    }

    @Test func readsIdsAndValuesFromSpacedAndCommentedLines() throws {
        let scenario = try parse("survey a.json\n   answer  q1   [\"x\", \"y\"]   # why\nexpect current \"none\"\nexpect current none\n")
        #expect(scenario.lines[1].statement == .action(.answer(question: "q1", value: ["x", "y"])))
        #expect(scenario.lines[1].comment == " why")
        #expect(scenario.lines[2].statement == .expect(.current("none")))
        #expect(scenario.lines[3].statement == .expect(.current(nil)))
        // Non-canonical spacing prints canonically.
        #expect(scenario.text == "survey a.json\nanswer q1 [\"x\",\"y\"]  # why\nexpect current \"none\"\nexpect current none\n")
    }

    @Test func reportsAnUnknownVerbWithASuggestionAtItsColumn() {
        let found = diagnostics("survey a.json\n  answr q1 \"x\"\n")
        #expect(found.count == 1)
        #expect(found.first?.position == SourcePosition(line: 2, column: 3))
        #expect(found.first?.message.contains("did you mean 'answer'?") == true)
    }

    @Test func reportsMalformedJSONValuesWhereTheyBreak() {
        let found = diagnostics("survey a.json\nanswer q1 [\"x\",]\n")
        #expect(found.first?.position == SourcePosition(line: 2, column: 16))
        #expect(found.first?.message.contains("expected a value") == true)
    }

    @Test func reportsEveryBadLineTogether() {
        let found = diagnostics("survey a.json\nanswer\ncustom k maybe\ntoday 2026-13-01\nexpect visble q\nnext q junk\n")
        #expect(found.map { $0.position?.line } == [2, 3, 4, 5, 6])
        #expect(found[1].message.contains("'maybe' is not true or false"))
        #expect(found[3].message.contains("did you mean 'visible'?"))
    }

    @Test func requiresOneSurveyLineBeforeAnyAction() {
        #expect(diagnostics("answer q \"x\"\n").contains { $0.message.contains("no 'survey' line") })
        #expect(diagnostics("survey a.json\nanswer q \"x\"\ntoday 2026-01-01\n").contains { $0.message.contains("'today' after the first action") })
        #expect(diagnostics("survey a.json\nsurvey b.json\n").contains { $0.message.contains("a second 'survey' line") })
    }

    @Test func makesAScenarioFromActions() {
        let scenario = Scenario.make(
            path: "x.scenario", surveyPath: "s.json", settings: SessionSettings(today: CalendarDate(year: 2026, month: 1, day: 2)),
            header: ["Found by fuzz --seed 1"], actions: [.answer(question: "a", value: "b"), .submit])
        #expect(scenario.text == "# Found by fuzz --seed 1\nsurvey s.json\ntoday 2026-01-02\nanswer a \"b\"\nsubmit\n")
    }
}
