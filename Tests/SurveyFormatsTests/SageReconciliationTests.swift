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
}
