import FHIRPath
import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// Expressions that read top-level items by linkId are evaluated on the response cut down to those items,
/// and their results are kept with it (`FHIRResponseSlice`, `FHIRExpressionResults`): which expressions
/// qualify, the work a change saves, and walks that give what evaluating on the whole response gives.
@Suite("FHIR SDC expressions read the response cut to the items they name")
struct FHIRResponseSliceTests {
    static func slice(_ text: String) throws -> [String]? {
        let expression = try FHIRPathExpression(text)
        return FHIRResponseSlice.linkIds(of: expression.syntax, dependencies: expression.dependencies)?.sorted()
    }

    @Test("an expression is cut when every read of the response picks top-level items by linkId, and only then")
    func whichExpressions() throws {
        #expect(try Self.slice("%resource.item.where(linkId = 'a').answer.value") == ["a"])
        #expect(try Self.slice("%resource.item.where('a' = linkId).answer.value + %rootResource.item.where(linkId='b').answer.value") == ["a", "b"])
        #expect(try Self.slice("%resource.item.where(linkId = 'a' and answer.exists()).answer.value") == ["a"])
        #expect(try Self.slice("%resource.item.where(answer.exists() and (linkId = 'a')).item.where(linkId = 'n').answer.value") == ["a"])
        #expect(try Self.slice("%questionnaire.item.where(linkId = 'q').answerOption.where(valueCoding.code = %resource.item.where(linkId = 'q').answer.valueCoding.code)") == ["q"])
        #expect(try Self.slice("%va + 1") == [])
        // Reads that may reach other items, or the instance's own place in the response.
        #expect(try Self.slice("%resource.item.where(linkId = 'a' or linkId = 'b').answer.value") == nil)
        #expect(try Self.slice("%resource.item.where(linkId ~ 'a').answer.value") == nil)
        #expect(try Self.slice("%resource.item.where(linkId = 'a').answer.value + %resource.item.count()") == nil)
        #expect(try Self.slice("%resource.item[0].item.where(linkId = 'a').answer.value") == nil)
        #expect(try Self.slice("%resource.repeat(item).where(linkId = 'a').answer.value") == nil)
        #expect(try Self.slice("%resource.item.where(linkId = 'a' and %resource.item.exists()).answer") == nil)
        #expect(try Self.slice("%context.item.where(linkId = 'a').answer.value") == nil)
        #expect(try Self.slice("item.where(linkId = 'a').answer.value") == nil)
        #expect(try Self.slice("%resource.item.where(linkId = 'a').answer.value.where($this > 2)") == ["a"])
    }

    @Test("a change of another item neither builds a response nor works out a cut expression again; the same answer again finds its result (counted)")
    func workSaved() throws {
        let items = [
            fhirItem("a", "integer"), fhirItem("b", "integer"), fhirItem("c", "integer"),
            fhirItem("da", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("a")) * 2"))),
            fhirItem("db", "integer", #""readOnly": true, "# + extensions(calculated("\(answerOf("b")) * 2"))),
        ]
        let survey = try loadQuestionnaire(questionnaireText(items, extra: #""status": "active""#))
        let session = try #require(survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
        session.play(.answer("a", 1), .answer("b", 1))
        let changed = session.work(.answer("b", 2))
        #expect(session.answer(for: "db") == 4)
        #expect((changed.evaluations, changed.responses, changed.computed) == (1, 1, 1))
        // Back to an answer seen before: the cut response and the result are found.
        let again = session.work(.answer("b", 1))
        #expect(session.answer(for: "db") == 2)
        #expect((again.evaluations, again.responses, again.computed) == (1, 0, 0))
        // c is read by nothing.
        let other = session.work(.answer("c", 7))
        #expect((other.evaluations, other.responses, other.computed) == (0, 0, 0))
        // Another session of the survey finds them too.
        let second = try #require(survey.makeSession(SessionSettings(today: testToday)) as? FHIRSession)
        let shared = second.work(.answer("a", 1))
        #expect(second.answer(for: "da") == 2)
        #expect((shared.responses, shared.computed) == (0, 0))
    }

    @Test("a kept result is given only for identical variable values: a variable that changes works the result out again")
    func variablesCompared() throws {
        let session = try sdcSession(
            [
                fhirItem("a", "integer"), fhirItem("factor", "integer"),
                fhirItem("scaled", "integer", #""readOnly": true, "# + extensions(
                    sdcExtension("variable", answerOf("factor"), name: "f"), calculated("\(answerOf("a")) * %f"))),
            ])
        session.play(.answer("a", 3), .answer("factor", 2))
        #expect(session.answer(for: "scaled") == 6)
        let work = session.work(.answer("factor", 5))
        #expect(session.answer(for: "scaled") == 15)
        // %f (cut to factor) and the scaled value (cut to a, found, but with another %f) are worked out.
        #expect(work.computed == 2)
    }

    /// The same survey with every `%resource.item` read as `%resource.select(item)`: the same items, by a
    /// path no cut applies to, so every expression reads the whole response.
    static func uncut(_ text: String) -> String {
        text.replacingOccurrences(of: "%resource.item", with: "%resource.select(item)")
    }

    /// The first difference between the cut and the whole-response reading on seeded walks, or nil.
    static func firstDifference(_ file: SourceFile, options: [String: String], walks: Int) throws -> String? {
        let cut = try #require(try FormatRegistry.standard.load(file) as? FHIRSurvey)
        let whole = try #require(try FormatRegistry.standard.load(SourceFile(path: file.path, text: uncut(String(decoding: file.bytes, as: UTF8.self)))) as? FHIRSurvey)
        #expect(whole.expressionProgram.nodes.allSatisfy { $0.responseSlice == nil || $0.responseSlice == [] })
        let settings = SessionSettings(today: testToday, options: options)
        guard cut.problem(with: settings) == nil else { return nil }
        let chooser = ActionChooser(survey: cut, settings: settings)
        for walk in 0..<walks {
            let a = cut.makeSession(settings)
            let b = whole.makeSession(settings)
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(7, walk: walk)))
            for step in 0..<60 {
                guard stream.beginStep() else { break }
                let action = chooser.choose(in: a, stream: &stream)
                let (x, y) = (a.perform(action), b.perform(action))
                let place = "walk \(walk) step \(step) (\(action))"
                if x.outcome != y.outcome { return "\(place): outcome \(x.outcome) but \(y.outcome) on the whole response" }
                if x.events != y.events { return "\(place): events \(x.events) but \(y.events) on the whole response" }
                if a.visibleQuestions != b.visibleQuestions { return "\(place): shows \(a.visibleQuestions) but \(b.visibleQuestions)" }
                for id in a.visibleQuestions where a.answer(for: id) != b.answer(for: id) {
                    return "\(place): '\(id)' is \(String(describing: a.answer(for: id))) but \(String(describing: b.answer(for: id)))"
                }
                if a.payload != b.payload { return "\(place): the responses differ" }
                if action == .submit, x.outcome == SurveyCore.Outcome.ok { break }
            }
        }
        return nil
    }

    @Test("walks of the corpus forms with expressions give what reading the whole response gives, under both engines", .requires(.corpus))
    func corpusForms() throws {
        var cutForms = 0
        for name in FHIRCorpus.questionnaires {
            let file = try FHIRCorpus.file(name)
            let survey = try FHIRCorpus.load(name)
            guard survey.expressionProgram.nodes.contains(where: { !($0.responseSlice ?? []).isEmpty }) else { continue }
            cutForms += 1
            for options in FHIRIncrementalTests.engines {
                if let difference = try Self.firstDifference(file, options: options, walks: 40) { Issue.record("\(name) \(options): \(difference)") }
            }
        }
        // PHQ-9, the fruit scores and AUDIT (the nested sums read `%resource.item[0]`: not cut).
        #expect(cutForms >= 3)
    }

    @Test("walks of the project's SDC forms give what reading the whole response gives, under both engines")
    func projectForms() throws {
        let folder = URL(fileURLWithPath: Corpus.packageRoot).appendingPathComponent("Scenarios/fhir-sdc")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var cutForms = 0
        for name in names {
            let file = SourceFile(path: name, text: try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
            guard let survey = try? FormatRegistry.standard.load(file) as? FHIRSurvey,
                survey.expressionProgram.nodes.contains(where: { !($0.responseSlice ?? []).isEmpty })
            else { continue }
            cutForms += 1
            for options in FHIRIncrementalTests.engines {
                if let difference = try Self.firstDifference(file, options: options, walks: 40) { Issue.record("\(name) \(options): \(difference)") }
            }
        }
        #expect(cutForms >= 5)
    }
}
