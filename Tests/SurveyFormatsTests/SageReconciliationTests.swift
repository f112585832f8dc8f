import SurveyCore
import Testing

@testable import SurveyFormats

/// The points where an independent reading of the engines' source (notes/verify-sage.md) and the simulation
/// disagreed, each settled in the source and pinned here with the line that decides it. SR is
/// Sage-Bionetworks/SageResearch, AM Sage-Bionetworks/AssessmentModelKMM@08288272, JM
/// BridgeDigitalHealth/JsonModel-Swift.
@Suite("Sage: the independent reading reconciled")
struct SageReconciliationTests {
    // MARK: the task result, release by release

    /// intro, a section `s` (question `q`, instruction `r`), `done`.
    static let sectionTask = sageTask([
        instruction("intro"), section("s", simpleQuestion("q"), instruction("r")), #"{"identifier": "done", "type": "completion"}"#,
    ])

    static func sectionEntry(_ profile: String) throws -> [String: JSONValue] {
        let session = try sageSession(Self.sectionTask, profile: profile)
        session.play(.tapNext, .answer("s/q", 3), .tapNext, .tapNext)
        let history = try #require(session.payload?.objectValue?["stepHistory"]?.arrayValue)
        return try #require(history.first { $0.objectValue?["identifier"] == "s" }?.objectValue)
    }

    @Test("a section's result is a task result up to 3.4.93 and SectionResultObject (type section, no run id, no schemaInfo) from 3.5.94 (SR@v3.4.93 RSDSectionStepObject.swift:80-81, SR@v3.5.94 RSDSectionStepObject.swift:80-81, SectionResultObject.swift:40, 99-105; SR@4.0.1 SectionResultObject.swift:40, 104-110)")
    func sectionResultByRelease() throws {
        let task = try Self.sectionEntry("sage-3.4")
        #expect(task["type"] == "task")
        #expect(task["schemaInfo"] == ["identifier": "s", "revision": 1])
        #expect(task["taskRunUUID"] != nil)
        for profile in ["sage-3.5", "sage-4.0"] {
            let section = try Self.sectionEntry(profile)
            #expect(section["type"] == "section", "\(profile)")
            #expect(section["schemaInfo"] == nil && section["taskRunUUID"] == nil, "\(profile)")
            #expect(section["nodePath"] == ["q", "r"], "\(profile)")
            #expect(section["endDate"] != nil, "\(profile)")
        }
        for profile in ["sage-4.4", "sage-4.5", "sage-4"] {
            let section = try Self.sectionEntry(profile)
            #expect(section["type"] == "section", "\(profile)")
            #expect(section["path"]?.arrayValue?.count == 2, "\(profile)")
        }
    }

    @Test("SageResearch 4.x names the task in assessmentIdentifier (SR@4.0.1 AssessmentTaskObject.swift:153-158); from 4.8.0 JsonModel 2.x adds $schema (JM@2.1.0 AssessmentResult.swift:33, 84-85; SR@v4.11.0 RSDTaskResultObject.swift:39-41, RSDFactory.swift:73-88; JM@2.3.1 Documentable.swift:10)")
    func taskResultIdentifiersByRelease() throws {
        func payload(_ profile: String) throws -> [String: JSONValue] {
            let session = try sageSession(sageTask([simpleQuestion("a", keys: #""optional": true"#)]), profile: profile)
            session.play(.submit)
            return try #require(session.payload?.objectValue)
        }
        for profile in ["sage-4.0", "sage-4.4", "sage-4.5", "sage-4"] {
            #expect(try payload(profile)["assessmentIdentifier"] == "task", "\(profile)")
        }
        #expect(try payload("sage-4")["$schema"] == "https://bridgedigitalhealth.github.io/mobile-client-json/schemas/v2/TaskResultObject.json")
        for profile in ["sage-3.3", "sage-3.5", "sage-4.0", "sage-4.4", "sage-4.5"] {
            #expect(try payload(profile)["$schema"] == nil, "\(profile)")
        }
        #expect(try payload("sage-3.5")["assessmentIdentifier"] == nil)
        // AssessmentModel's Swift result has no assessmentIdentifier (AM Assessment.swift:211-213).
        let assessment = try sageSession(sageTask([simpleQuestion("a", keys: #""optional": true"#)], extra: assessmentMarker))
        assessment.play(.submit)
        #expect(assessment.payload?.objectValue?["assessmentIdentifier"] == nil)
        #expect(assessment.payload?.objectValue?["$schema"] == "https://bridgedigitalhealth.github.io/mobile-client-json/schemas/v2/AssessmentResultObject.json")
    }

    /// `a` (integer, optional; skip button to `c`; a rule `eq 1` to `b`), `x`, `b`, `c`.
    static let skipTask = sageTask([
        simpleQuestion(
            "a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "b""#)],
            keys: #""optional": true, "actions": {"skip": {"type": "navigation", "skipToIdentifier": "c"}}"#),
        instruction("x"), instruction("b"), instruction("c"),
    ])

    @Test("the skip button: 4.0–4.4 replace the answer by a collection result holding it in children, which the rules still read; 4.5+ wrap it so that no rule does (SR@4.0.1 RSDStepViewController.swift:789-808, RSDCollectionResultObject.swift:73-75, 98-110; SR@4.4.0 RSDStepViewController.swift:793-812; SR@4.5.0 RSDStepViewController.swift:793-810)")
    func skipMarkByRelease() throws {
        let expected = ["sage-3.3": "b", "sage-3.5": "b", "sage-4.0": "b", "sage-4.4": "b", "sage-4.5": "c", "sage-4": "c"]
        for (profile, target) in expected {
            let session = try sageSession(Self.skipTask, profile: profile)
            session.play(.answer("a", 1), .skip(question: nil))
            #expect(session.currentQuestion == target, "\(profile)")
        }
        for profile in ["sage-4.0", "sage-4.4"] {
            let session = try sageSession(Self.skipTask, profile: profile)
            session.play(.answer("a", 1), .skip(question: nil), .tapNext, .tapNext)
            let entry = try #require(session.payload?.objectValue?["stepHistory"]?.arrayValue?.first?.objectValue)
            #expect(entry["type"] == "collection", "\(profile)")
            #expect(entry["children"]?.arrayValue?.first?.objectValue?["value"] == 1, "\(profile)")
            #expect(entry["inputResults"] == nil, "\(profile)")
            #expect(entry["skipToIdentifier"] == "c", "\(profile)")
        }
    }

    @Test("SageResearch 4.4.0 and 4.5.x declare JsonModel from 1.4.0 (4.5.1: ..<1.5.0), so SwiftPM resolves ≥ 1.4.6, whose findAnswer reads the latest answer (SR@4.4.0 Package.swift:33-35, SR@4.5.1 Package.swift:33-35, JM@1.4.6 BranchNodeResult.swift:61-64)")
    func jsonModelResolution() throws {
        let text = sageTask([simpleQuestion("a", "boolean", rules: [rule(#""matchingAnswer": false, "skipToIdentifier": "c""#)]), simpleQuestion("b"), instruction("c")])
        let expected = ["sage-3.5": "b", "sage-4.0": "b", "sage-4.4": "c", "sage-4.5": "c", "sage-4": "c"]
        for (profile, target) in expected {
            let session = try sageSession(text, profile: profile)
            session.play(.answer("a", true), .tapNext, .back, .answer("a", false), .tapNext)
            #expect(session.currentQuestion == target, "\(profile)")
        }
    }

    // MARK: exit and other reserved ids, by spelling

    @Test("SageResearch compares exit exactly: a rule's Exit is a step id no navigator has, so the task finishes as completed, not early (SR@v2.8.88 RSDOrderedStepNavigator.swift:191-195, RSDTaskViewModel.swift:880-905)")
    func researchExitIsCaseSensitive() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "Exit""#)]), instruction("b")])
        let session = try sageSession(text)
        session.play(.answer("a", 1))
        let result = session.perform(.tapNext)
        #expect(result.events.first { $0.name == "task_finished" }?.detail == ["reason": "completed", "unknown_target": "Exit"])
        #expect(session.payload != nil)
        let lint = lintFindings(text).findings
        #expect(lint.map(\.rule) == ["sage-reserved-target"])
        #expect(lint.first?.severity == .error)
    }

    @Test("AssessmentModel: Swift reads reserved ids exactly, Kotlin ignoring case: Exit in a section ends only the section on iOS and the whole run, saving nothing, on Android (AM NavigationIdentifier.swift:27-33, SurveyRule.kt:40, NodeNavigator.kt:11-24, NodeState.kt:390-396)")
    func assessmentExitSpelling() throws {
        let inSection = SageCorrectionsTests.assessmentSections("Exit")
        let swift = try sageSession(inSection)
        swift.play(.tapNext, .answer("s/q", 1), .tapNext)
        #expect(swift.currentQuestion == "after")
        let kotlin = try sageSession(inSection, options: ["implementation": "kotlin"])
        kotlin.play(.tapNext, .answer("s/q", 1))
        #expect(kotlin.perform(.tapNext).events.first { $0.name == "task_finished" }?.detail == ["reason": "exit", "saved": false])
        #expect(kotlin.payload == nil)
        // At the top level Swift finishes the assessment there (as completed); NEXTSECTION is no exit anywhere.
        let top = sageTask([simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "EXIT""#)]), instruction("b")], extra: assessmentMarker)
        let swiftTop = try sageSession(top)
        swiftTop.play(.answer("q", 1))
        #expect(swiftTop.perform(.tapNext).events.first { $0.name == "task_finished" }?.detail == ["reason": "completed", "unknown_target": "EXIT"])
        let kotlinNext = try sageSession(top.replacingOccurrences(of: "EXIT", with: "NEXTSECTION"), options: ["implementation": "kotlin"])
        kotlinNext.play(.answer("q", 1))
        #expect(kotlinNext.perform(.tapNext).events.first { $0.name == "task_finished" }?.detail == ["reason": "completed"])
        let lint = lintFindings(inSection).findings
        #expect(lint.map(\.rule) == ["sage-reserved-target"])
        #expect(lint.first?.message.contains("Android (Kotlin) ignores case and reads it as exit") == true)
    }

    // MARK: a target each enclosing level reads again

    @Test("a target no section has is read again by every enclosing navigator (each re-asks its last child's rule): from a section in a section it reaches a step of the task; an id no level has completes the task with the sections' results (SR@v2.8.88 RSDOrderedStepNavigator.swift:93-122, 186-205, RSDTaskViewModel.swift:653-656, 907-931)")
    func unknownTargetClimbsEveryLevel() throws {
        let q = simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "end""#), rule(#""matchingAnswer": 2, "skipToIdentifier": "nowhere""#)])
        let text = sageTask([section("outer", section("inner", q, instruction("r")), instruction("x")), instruction("y"), instruction("end")])
        for profile in ["sage-3.3", "sage-3.5", "sage-4"] {
            let jump = try sageSession(text, profile: profile)
            jump.play(.answer("outer/inner/q", 1))
            let events = jump.perform(.tapNext).events
            #expect(jump.currentQuestion == "end", "\(profile)")
            #expect(events.filter { $0.name == "target_not_found" }.map { $0.detail?.objectValue?["in"] } == ["outer/inner", "outer"], "\(profile)")
            let ends = try sageSession(text, profile: profile)
            ends.play(.answer("outer/inner/q", 2))
            #expect(ends.perform(.tapNext).events.first { $0.name == "task_finished" }?.detail == ["reason": "completed", "unknown_target": "nowhere"], "\(profile)")
            #expect(historyNames(ends.payload) == ["outer"], "\(profile)")
            let outer = ends.payload?.objectValue?["stepHistory"]?.arrayValue?.first
            #expect(historyNames(outer) == ["inner"], "\(profile)")
        }
    }

    // MARK: AssessmentModel comparisons

    static func assessmentRule(_ type: String, _ members: String) -> String {
        sageTask([simpleQuestion("a", type, rules: [rule(members + #", "skipToIdentifier": "c""#)]), instruction("b"), instruction("c")], extra: assessmentMarker)
    }

    @Test("Swift's ne is !(match == answer) with JsonElement ==, which reads a numeric string as a number: ne 5 is false for the answer \"5\" (AM SurveyRule.swift:83, JM@7b81f56 JsonElement.swift:120-135, 212-219)")
    func swiftNotEqualReadsNumericStrings() throws {
        let notFive = Self.assessmentRule("string", #""ruleOperator": "ne", "matchingAnswer": 5"#)
        for implementation in ["swift", "kotlin"] {
            for (answer, target) in [("5", "b"), ("6", "c")] {
                let session = try sageSession(notFive, options: ["implementation": implementation])
                session.play(.answer("a", .string(answer)), .tapNext)
                #expect(session.currentQuestion == target, "\(implementation) \(answer)")
            }
        }
        // The other way round Swift's == is false (a string equals only a string); Kotlin compares the text.
        let equalsText = Self.assessmentRule("integer", #""matchingAnswer": "5""#)
        for (implementation, target) in [("swift", "b"), ("kotlin", "c")] {
            let session = try sageSession(equalsText, options: ["implementation": implementation])
            session.play(.answer("a", 5), .tapNext)
            #expect(session.currentQuestion == target, "\(implementation)")
        }
    }

    // MARK: AssessmentModel buttons

    @Test("Swift hides Skip by the step's own list, or the assessment's for its direct children; a section's list does not reach its steps. Android asks the section (or the step at the top level) and its parents (AM Assessment.swift:105-108, NodeSerializer.swift:153-155, AssessmentViewModel.swift:359-370; QuestionHeader.kt:81-83, NodeState.kt:132-138)")
    func skipHiding() throws {
        let sectionHides = sageTask(
            [section("s", simpleQuestion("q"), instruction("r"), keys: #""shouldHideActions": ["skip"]"#), instruction("after")], extra: assessmentMarker)
        #expect(try sageSession(sectionHides).otherActions.contains(.skip(question: nil)))
        #expect(try !sageSession(sectionHides, options: ["implementation": "kotlin"]).otherActions.contains(.skip(question: nil)))
        let assessmentHides = sageTask(
            [simpleQuestion("top"), section("s", simpleQuestion("q"), instruction("r"))], extra: assessmentMarker + #", "shouldHideActions": ["skip"]"#)
        let swift = try sageSession(assessmentHides)
        #expect(!swift.otherActions.contains(.skip(question: nil)))
        swift.play(.answer("top", 1), .tapNext)
        #expect(swift.currentQuestion == "s/q")
        #expect(swift.otherActions.contains(.skip(question: nil)))
        let kotlin = try sageSession(assessmentHides, options: ["implementation": "kotlin"])
        kotlin.play(.answer("top", 1), .tapNext)
        #expect(!kotlin.otherActions.contains(.skip(question: nil)))
    }

    @Test("a completion step never shows Back in Swift; in Kotlin only when its actions name goBackward (AM CompletionStep.swift:14-16, NodeNavigator.swift:88-91, 101-103; Assessment.kt:495, Navigator.kt:59-64)")
    func completionBack() throws {
        func steps(_ done: String) -> String { sageTask([simpleQuestion("q", keys: #""optional": true"#), done], extra: assessmentMarker) }
        let plain = steps(#"{"identifier": "done", "type": "completion"}"#)
        let withBack = steps(#"{"identifier": "done", "type": "completion", "actions": {"goBackward": {"type": "default", "buttonTitle": "Back"}}}"#)
        for (text, implementation, shows) in [(plain, "swift", false), (withBack, "swift", false), (plain, "kotlin", false), (withBack, "kotlin", true)] {
            let session = try sageSession(text, options: ["implementation": implementation])
            let arrived = session.perform(.tapNext)
            #expect(session.currentQuestion == "done")
            #expect(session.otherActions.contains(.back) == shows, "\(implementation)")
            // A completion step Back cannot leave marks the assessment ready to save as it shows.
            #expect(arrived.events.contains { $0.name == "result_saved" } == !shows, "\(implementation)")
        }
    }

    @Test("Android's Skip inside a section clears nothing (the root's current child is the section's state), so the rules read the answer; at the top level, and on iOS, Skip clears it (AM presentation/…/AssessmentViewModel.kt:34-38; NodeState.swift:162-164)")
    func androidSkipInASection() throws {
        let q = simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "r2""#)])
        let text = sageTask([section("s", q, instruction("r1"), instruction("r2"))], extra: assessmentMarker)
        for (implementation, target) in [("swift", "s/r1"), ("kotlin", "s/r2")] {
            let session = try sageSession(text, options: ["implementation": implementation])
            session.play(.answer("s/q", 1), .skip(question: nil))
            #expect(session.currentQuestion == target, "\(implementation)")
        }
        let top = sageTask([simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "r2""#)]), instruction("r1"), instruction("r2")], extra: assessmentMarker)
        let kotlin = try sageSession(top, options: ["implementation": "kotlin"])
        kotlin.play(.answer("q", 1), .skip(question: nil))
        #expect(kotlin.currentQuestion == "r1")
    }

    // MARK: Kotlin's results

    @Test("Kotlin appends a step's result only when leaving it and only after another step's: a rule looping a question onto itself never records the new visit, and its rules read the first answer (AM NodeState.kt:285-291, 463-469, NavigationRule.kt:46)")
    func kotlinSelfLoop() throws {
        let text = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "a""#)]), instruction("b")], extra: assessmentMarker)
        let swift = try sageSession(text)
        swift.play(.answer("a", 1), .tapNext, .answer("a", 2), .tapNext)
        #expect(swift.currentQuestion == "b")
        let kotlin = try sageSession(text, options: ["implementation": "kotlin"])
        kotlin.play(.answer("a", 1))
        #expect(kotlin.perform(.tapNext).events.contains { $0.name == "visit_not_recorded" })
        kotlin.play(.answer("a", 2), .tapNext)
        #expect(kotlin.currentQuestion == "a")
        // The state starts from a copy of the last recorded result (`previousResult()`, NodeState.kt:140-141, QuestionState.kt:77): 1.
        #expect(kotlin.answer(for: "a") == 1)
    }

    // MARK: what loads on one build and not another

    @Test("AssessmentModel rules: no skipToIdentifier loads at 08288272 but not at v1.1.4; a key Kotlin's rule class lacks fails Android's strict decoder (AM@v1.1.4 JsonSurveyRuleObject.swift:9-16; Serialization.kt:26-30, Nodes.kt:382-386)")
    func assessmentRuleKeys() {
        let missing = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1"#)]), instruction("b")], extra: assessmentMarker)
        #expect(lintFindings(missing).findings.map(\.rule) == ["sage-rule-without-target"])
        let extra = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "b", "cohort": "x""#)]), instruction("b")], extra: assessmentMarker)
        let findings = lintFindings(extra).findings
        #expect(findings.map(\.rule) == ["sage-kotlin-unknown-key"])
        #expect(findings.first?.pointer == "/steps/0/surveyRules/0/cohort")
    }
}
