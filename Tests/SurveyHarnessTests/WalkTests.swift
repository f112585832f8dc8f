import Foundation
import Testing
import SurveyCore
import SurveyFormats
@testable import SurveyHarness

@Suite struct SplitMix64Tests {
    @Test func producesThePublishedSequence() {
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
        var one = SplitMix64(seed: 1)
        #expect([one.next(), one.next(), one.next()] == [0x910A_2DEC_8902_5CC1, 0xBEEB_8DA1_658E_EC67, 0xF893_A2EE_FB32_555E])
    }

    @Test func boundedChoicesArePinned() {
        // Values checked against an independent implementation of Lemire's method.
        var generator = SplitMix64(seed: 42)
        #expect((0..<10).map { _ in generator.next(below: 10) } == [7, 1, 2, 3, 0, 8, 2, 8, 3, 6])
        var small = SplitMix64(seed: 7)
        #expect((0..<12).map { _ in small.next(below: 3) } == [1, 0, 2, 1, 1, 0, 1, 0, 0, 1, 0, 2])
    }

    @Test func walkSeedsAreIndependentOfEachOther() {
        #expect(SplitMix64.walkSeed(1, walk: 0) != SplitMix64.walkSeed(1, walk: 1))
        #expect(SplitMix64.walkSeed(1, walk: 5) == SplitMix64.walkSeed(1, walk: 5))
    }
}

@Suite struct ChoiceStreamTests {
    @Test func aRecordingReplaysAndWrapsChoicesThatNoLongerFit() {
        var stream = ChoiceStream(recorded: [[3, 9], []])
        let began = [stream.beginStep()]
        let first = [stream.draw(5), stream.draw(4)]
        let second = [stream.beginStep()]
        let wrapped = stream.draw(7)
        let third = stream.beginStep()
        #expect(began == [true] && second == [true] && !third)
        #expect(first == [3, 1])
        #expect(wrapped == 0)
        #expect(stream.steps == [[3, 1], [0]])
    }
}

@Suite struct ReplayTokenTests {
    @Test func roundTripsAndRejectsGarbage() throws {
        let token = ReplayToken(seed: .max, walk: 123_456, maxSteps: 100, today: CalendarDate(year: 1969, month: 12, day: 31))
        #expect(token.text.hasPrefix("sr1-"))
        #expect(ReplayToken(text: token.text) == token)
        #expect(ReplayToken(text: "sr1-!!") == nil)
        #expect(ReplayToken(text: "xyz") == nil)
    }
}

/// Walk tests over small surveys written here.
private enum WalkFixtures {
    static func survey(_ json: String) throws -> any Survey {
        try FormatRegistry.standard.load(SourceFile(path: "walk.json", text: json))
    }

    /// a and b first, so a walk can fail after exactly two answers.
    static let twoFields = """
        {"questions": [
          {"id": "a", "question_type": "single_text_field"},
          {"id": "b", "question_type": "single_text_field"},
          {"id": "c", "question_type": "single_select", "options": ["Yes", "No"]},
          {"id": "d", "question_type": "multi_select", "options": ["X", "Y"], "show_if": {"id": "c", "operation": "equals", "value": "Yes"}},
          {"id": "e", "question_type": "single_select", "options": ["One", "Two"], "show_if": {"operation": "custom", "ids": ["c"], "extra": {"id": "host"}}}
        ],
        "submit": {"button_title": "Send", "url": "https://example.org"}}
        """

    static func properties(_ text: String, for survey: any Survey) throws -> PropertiesFile {
        try PropertiesFile.parse(SourceFile(path: "walk.properties", text: text), survey: survey)
    }

    static func fuzzer(_ survey: any Survey, walks: Int, seed: UInt64 = 1, shard: (Int, Int) = (0, 1), properties: PropertiesFile? = nil) -> Fuzzer {
        Fuzzer(
            survey: survey,
            configuration: Fuzzer.Configuration(
                walks: walks, seed: seed, maxSteps: 60, shard: shard, settings: SessionSettings(today: CalendarDate(year: 2026, month: 11, day: 22)),
                properties: properties))
    }
}

@Suite struct FuzzerTests {
    @Test func aPropertyThatFailsWhenTwoQuestionsAreAnsweredShrinksToExactlyThoseTwoAnswers() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        let properties = try WalkFixtures.properties(
            """
            # c must stay hidden once a and b are both positive
            whenever {"operation":"and","subconditions":[{"id":"a","operation":"greater than","value":"0"},{"id":"b","operation":"greater than","value":"0"}]} then hidden c
            """, for: survey)
        let result = WalkFixtures.fuzzer(survey, walks: 50, properties: properties).run()
        let report = try #require(result.findings.first { $0.finding.kind == .property })
        #expect(report.finding.property == "c must stay hidden once a and b are both positive")
        #expect(report.shrunk == [.answer(question: "a", value: "1"), .answer(question: "b", value: "1")])
        #expect(report.originalSteps > 2)
    }

    @Test func findsTheHiddenAnswerHazardWithAPathFromWhichNoActionCanBeRemoved() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        let fuzzer = WalkFixtures.fuzzer(survey, walks: 100)
        let result = fuzzer.run()
        #expect(!result.findings.contains { $0.finding.kind == .engineError })
        let report = try #require(result.findings.first { $0.finding.property == "hidden-answer-submitted" })
        #expect(report.finding.question == "d")
        let walker = Walker(survey: survey, settings: fuzzer.configuration.settings, maxSteps: 60, builtInProperties: true, properties: nil)
        #expect(walker.check(report.shrunk).findings.contains { $0.finding.key == report.finding.key })
        for index in report.shrunk.indices {
            var shorter = report.shrunk
            shorter.remove(at: index)
            #expect(!walker.check(shorter).findings.contains { $0.finding.key == report.finding.key }, "action \(index) could be removed")
        }
    }

    @Test func theSameSeedGivesTheSameRunAndAnotherSeedAnother() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        let first = WalkFixtures.fuzzer(survey, walks: 40, seed: 9).run()
        let second = WalkFixtures.fuzzer(survey, walks: 40, seed: 9).run()
        let other = WalkFixtures.fuzzer(survey, walks: 40, seed: 10).run()
        #expect(first.steps == second.steps)
        #expect(first.findings.map(\.shrunk) == second.findings.map(\.shrunk))
        #expect(first.steps != other.steps || first.distinctPaths != other.distinctPaths)
    }

    @Test func shardsTogetherRunExactlyTheWholeRun() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        let whole = WalkFixtures.fuzzer(survey, walks: 30).run()
        let shards = (0..<3).map { index in WalkFixtures.fuzzer(survey, walks: 30, shard: (index, 3)).run() }
        #expect(shards.map(\.walks).reduce(0, +) == whole.walks)
        #expect(shards.map(\.steps).reduce(0, +) == whole.steps)
        #expect(shards.map(\.submitted).reduce(0, +) == whole.submitted)
        let wholeKeys = Dictionary(uniqueKeysWithValues: whole.findings.map { ($0.finding.key, $0) })
        var union: [String: Int] = [:]
        for shard in shards {
            for report in shard.findings { union[report.finding.key] = min(union[report.finding.key] ?? .max, report.firstWalk) }
        }
        #expect(Set(union.keys) == Set(wholeKeys.keys))
        for (key, firstWalk) in union { #expect(wholeKeys[key]?.firstWalk == firstWalk) }
    }

    @Test func aReplayTokenReproducesTheFinding() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        let fuzzer = WalkFixtures.fuzzer(survey, walks: 100)
        let report = try #require(fuzzer.run().findings.first)
        let replayed = fuzzer.replay(try #require(ReplayToken(text: report.token.text))).findings
        #expect(replayed.contains { $0.finding.key == report.finding.key && $0.shrunk == report.shrunk })
    }

    @Test func walksOverTheTeamSurveysFindNoEngineError() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        for path in ["Scenarios/checkin/checkin.json", "Scenarios/quirks/quirks.json"] {
            let survey = try FormatRegistry.standard.load(InputFiles.read(root + "/" + path))
            let result = WalkFixtures.fuzzer(survey, walks: 150).run()
            #expect(result.walks == 150)
            #expect(result.submitted > 0)
            #expect(!result.findings.contains { $0.finding.kind == .engineError }, "\(path): \(result.findings.map(\.finding.message))")
        }
    }

    @Test("a multi_text_field without fields and a table_select without rows take no answer, and walks offer them none (an empty object would not fit)")
    func questionsWithNothingToFillAreNotAnswered() throws {
        let survey = try WalkFixtures.survey(
            """
            {"questions": [
              {"id": "household", "question_type": "multi_text_field", "fields": []},
              {"id": "name", "question_type": "single_text_field"},
              {"id": "grid", "question_type": "table_select", "options": ["Yes", "No"], "table_questions": []}
            ],
            "submit": {"button_title": "Send", "url": "https://example.org"}}
            """)
        let settings = SessionSettings(today: CalendarDate(year: 2026, month: 11, day: 22))
        let session = survey.makeSession(settings)
        #expect(survey.candidateValues(for: "household", settings: settings).isEmpty)
        #expect(survey.candidateValues(for: "grid", settings: settings).isEmpty)
        // What walks offered before: it does not fit the question, so walks reported an engine error.
        if case .doesNotFit = session.perform(.answer(question: "household", value: .object([:]))).outcome {} else {
            Issue.record("an empty object fits 'household'")
        }
        let result = WalkFixtures.fuzzer(survey, walks: 100).run()
        #expect(!result.findings.contains { $0.finding.kind == .engineError }, "\(result.findings.map(\.finding.message))")
        // Next gets past the multi_text_field: walks answer the question after it.
        #expect(result.findings.contains { $0.finding.property == "submit-unreachable" && $0.finding.question == "grid" })
    }

    @Test func theQuirksSurveysDeadEndIsFoundAsAHazard() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let survey = try FormatRegistry.standard.load(InputFiles.read(root + "/Scenarios/quirks/quirks.json"))
        let result = WalkFixtures.fuzzer(survey, walks: 150).run()
        let deadEnd = try #require(result.findings.first { $0.finding.property == "dead-end" })
        #expect(deadEnd.finding.question == "email")
        #expect(deadEnd.shrunk.last == .answer(question: "consent", value: "No"))
    }
}

extension FuzzerTests {
    @Test("walks find the stall as a hazard: a multi_select tap hides the active question and the survey does not move on (SQ:1292-1298); Next on the multi_select still reaches Submit")
    func theMultiSelectStallIsFoundAsAHazard() throws {
        let survey = try WalkFixtures.survey(
            """
            {"questions": [
              {"id": "music", "question_type": "multi_select", "options": ["Pop", "Rock"]},
              {"id": "gig", "question_type": "single_select", "options": ["Yes", "No"], "show_if": {"id": "music", "operation": "contains", "value": "Rock"}},
              {"id": "end", "question_type": "single_select", "options": ["Yes", "No"]}
            ],
            "submit": {"button_title": "Send", "url": "https://example.org"}}
            """)
        let result = WalkFixtures.fuzzer(survey, walks: 100).run()
        let stall = try #require(result.findings.first { $0.finding.property == "multi-select-stall" })
        #expect(stall.finding.kind == .hazard && stall.finding.question == "gig")
        #expect(stall.shrunk == [.answer(question: "music", value: ["Rock"]), .next(question: nil), .answer(question: "music", value: [])])
        #expect(!result.findings.contains { $0.finding.property == "submit-unreachable" || $0.finding.kind == .engineError })
    }
}

@Suite struct PropertiesFileTests {
    @Test func readsEveryAssertionAndNamesThemFromTheirComment() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        let file = try WalkFixtures.properties(
            """
            # d only after c is Yes
            whenever {"id":"c","operation":"not equals","value":"Yes"} then hidden d
            whenever {"id":"c","operation":"equals","value":"Yes"} then visible d  # trailing comments are fine

            always {"id":"a","operation":"not equals","value":"forbidden"}
            whenever {"id":"a","operation":"equals","value":"x"} then submittable false
            payload never contains d unless {"id":"c","operation":"equals","value":"Yes"}
            payload never contains e
            """, for: survey)
        #expect(file.properties.map(\.name) == ["d only after c is Yes", "walk.properties:3", "walk.properties:5", "walk.properties:6", "walk.properties:7", "walk.properties:8"])
    }

    @Test func reportsMistakesWhereTheyAre() throws {
        let survey = try WalkFixtures.survey(WalkFixtures.twoFields)
        func problems(_ text: String) -> [Diagnostic] {
            do {
                _ = try WalkFixtures.properties(text, for: survey)
                return []
            } catch let error as InputError {
                return error.diagnostics
            } catch {
                return []
            }
        }
        #expect(problems("whenver {} then hidden a").first?.message.contains("did you mean 'whenever'?") == true)
        #expect(problems("whenever {\"id\":\"zz\",\"operation\":\"equals\",\"value\":\"1\"} then hidden a").first?.message.contains("no question has") == true)
        #expect(problems("whenever {\"id\":\"a\",\"operation\":\"equals\",\"value\":\"1\"} then hidden q").first?.message.contains("no question 'q'") == true)
        #expect(problems("whenever {\"id\":\"a\",\"operation\":\"equals\"} then hidden b").first?.message.contains("has no \"value\"") == true)
        let located = problems("\n\nalways {\"id\": \"a\",}")
        #expect(located.first?.position == SourcePosition(line: 3, column: 19))
        #expect(problems("payload never contains b unless").first?.message.contains("expected a condition") == true)
    }
}

@Suite struct ComparerTests {
    @Test func twoVersionsThatDifferInOneConditionDifferExactlyThere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let text = String(decoding: try InputFiles.read(root + "/Scenarios/checkin/checkin.json").bytes, as: UTF8.self)
        let edited = text.replacingOccurrences(
            of: "\"operation\": \"less than or equal to\",\n        \"value\": \"2\"", with: "\"operation\": \"less than or equal to\",\n        \"value\": \"3\"")
        #expect(edited != text)
        let old = try FormatRegistry.standard.load(SourceFile(path: "old.json", text: text))
        let new = try FormatRegistry.standard.load(SourceFile(path: "new.json", text: edited))
        let settings = SessionSettings(today: CalendarDate(year: 2026, month: 11, day: 22))
        let differences = Comparer(old: old, new: new, settings: settings, maxSteps: 60).run(walks: 80, seed: 1)
        #expect(differences.map(\.question) == ["support"])
        let path = try #require(differences.first?.actions)
        #expect(path.last == .answer(question: "mood", value: "3"))
        #expect(Comparer(old: old, new: old, settings: settings, maxSteps: 60).run(walks: 30, seed: 1).isEmpty)
    }
}
