import SurveyCore
import Testing

@testable import SurveyFormats

/// What walks report on a Sage task: the hazards the engine runs into, and where the same path runs
/// otherwise under another release of the file's generation.
@Suite("Sage step checker")
struct SageStepCheckerTests {
    static let task = sageTask([
        simpleQuestion("a", "boolean", rules: [rule(#""matchingAnswer": true, "skipToIdentifier": "c""#)]), simpleQuestion("b"), instruction("c"),
    ])

    /// Plays the actions, checking after each, and returns every finding.
    static func findings(_ text: String, _ actions: [Action], profile: String? = nil, options: [String: String] = [:]) throws -> [Finding] {
        let session = try sageSession(text, profile: profile, options: options)
        let checker = session.survey.makeStepChecker()
        return actions.flatMap { action in checker.check(session, after: action, result: session.perform(action)) }
    }

    @Test("a Back that makes 3.4.92–4.3.8 read a stale answer is reported where the releases part, once")
    func versionDifference() throws {
        let actions: [Action] = [.answer("a", true), .tapNext, .back, .answer("a", false), .tapNext, .answer("b", 1), .tapNext]
        let found = try Self.findings(Self.task, actions)
        let differences = found.filter { $0.property == "version-difference" }
        #expect(differences.map(\.question) == ["b", "b"])
        // Releases that differ only in the result they write (3.5.94 from 3.4.92, 4.5.0 from 4.8.0) get no
        // shadow of their own.
        #expect(!differences.contains { $0.message.contains("3.4.92–3.4.93") || $0.message.contains("4.5.0–4.7.1") })
        #expect(differences.first?.message.contains("SageResearch 4.8.0–4.11.0 shows 'b'") == true)
        #expect(differences.contains { $0.message.contains("SageResearch 3.5.94–3.18.4 shows 'c'") })
        #expect(!found.contains { $0.kind == .engineError })
        // b's answer is uploaded though the path no longer goes through it.
        let abandoned = try Self.findings(Self.task, [.answer("a", false), .tapNext, .answer("b", 3), .back, .answer("a", true), .tapNext, .tapNext])
        #expect(abandoned.contains { $0.property == "abandoned-answers-uploaded" && $0.question == "b" })
        let stale = try Self.findings(Self.task, actions, profile: "sage-3.4")
        #expect(stale.contains { $0.property == "stale-answer-read" && $0.question == "a" })
    }

    @Test("AssessmentModel is compared with its other implementation: Kotlin's exit ends the run and saves nothing")
    func implementationDifference() throws {
        let text = sageTask([section("s", simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "exit""#)])), instruction("after")], extra: assessmentMarker)
        let swift = try Self.findings(text, [.answer("s/q", 1), .tapNext])
        #expect(swift.contains { $0.property == "version-difference" && $0.message.contains("AssessmentModel Kotlin (Android) shows the end of the task with nothing saved") })
        let kotlin = try Self.findings(text, [.answer("s/q", 1), .tapNext], options: ["implementation": "kotlin"])
        #expect(kotlin.contains { $0.property == "exit-saves-nothing" })
    }

    @Test("exit inside a SageResearch section, a skip target not taken and an unknown target are hazards")
    func hazards() throws {
        let exit = sageTask([section("s", simpleQuestion("q", rules: [rule(#""matchingAnswer": 1"#)])), instruction("after")])
        #expect(try Self.findings(exit, [.answer("s/q", 1), .tapNext]).contains { $0.property == "exit-drops-section-result" })
        let skip = sageTask([simpleQuestion("a", keys: #""actions": {"skip": {"type": "navigation", "skipToIdentifier": "c"}}"#), instruction("b"), instruction("c")])
        #expect(try Self.findings(skip, [.answer("a", 1), .tapNext, .back, .skip(question: nil)]).contains { $0.property == "skip-target-not-taken" })
        let unknown = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "nowhere""#)]), instruction("b")])
        #expect(try Self.findings(unknown, [.answer("a", 1), .tapNext]).contains { $0.property == "unknown-target-ends-task" })
    }
}
