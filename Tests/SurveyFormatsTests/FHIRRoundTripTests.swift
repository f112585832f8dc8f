import Foundation
import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// A corpus Questionnaire with a QuestionnaireResponse beside it.
struct ResponsePair: Sendable, CustomTestStringConvertible {
    let folder: URL
    let response: String
    let questionnaire: String

    var testDescription: String { response }

    func file(_ name: String) throws -> SourceFile {
        let url = folder.appendingPathComponent(name)
        return SourceFile(path: name, text: try String(contentsOf: url, encoding: .utf8))
    }

    /// Every response of the FHIR corpus (`X.QuestionnaireResponse.json` answers `X.json`) and C3-PRO's sample
    /// responses, which are STU3: under r4 their wrapper items without linkId are not R4-readable, so every
    /// answer in them must be listed.
    static let all: [ResponsePair] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FHIRCorpus.folder.path)) ?? []
        let fhir = names.filter { $0.hasSuffix(".QuestionnaireResponse.json") }.sorted().map {
            ResponsePair(folder: FHIRCorpus.folder, response: $0, questionnaire: $0.replacingOccurrences(of: ".QuestionnaireResponse.json", with: ".json"))
        }
        return fhir + C3PROCorpus.responses.map { ResponsePair(folder: C3PROCorpus.folder, response: $0.0, questionnaire: $0.1) }
    }()
}

/// The answers of a response as multisets per linkId occurrence: the key is the path of linkIds with each
/// one's occurrence among its siblings (`g[2]/x[1]`), items under an answer keyed by that answer
/// (`q[1]={code}/days[1]`); a Coding counts by system and code. Each answer keeps where it is.
struct AnswerMultisets: Equatable {
    private(set) var answers: [String: [String]] = [:]
    private(set) var locations: [String: [SourcePosition]] = [:]

    init(_ items: [JSONCursor]) {
        add(items, path: "")
    }

    static func key(_ value: JSONCursor) -> String {
        let json = value.node.plain
        if let coding = json.objectValue, coding["code"] != nil || coding["system"] != nil {
            return "\(coding["system"]?.stringValue ?? "")|\(coding["code"]?.stringValue ?? "")"
        }
        return CanonicalJSON.compact(json)
    }

    private mutating func add(_ items: [JSONCursor], path: String) {
        var seen: [String: Int] = [:]
        for item in items {
            guard let object = item.object else { continue }
            let linkId = object["linkId"]?.stringValue ?? "(no linkId)"
            let occurrence = (seen[linkId] ?? 0) + 1
            seen[linkId] = occurrence
            let here = "\(path)\(linkId)[\(occurrence)]"
            for answer in object["answer"]?.elements ?? [] {
                guard let answerObject = answer.object, let value = FHIRValues.members(answerObject, prefix: "value").first else { continue }
                let key = Self.key(value.cursor)
                answers[here, default: []].append(key)
                answers[here]?.sort()
                locations["\(here)=\(key)", default: []].append(answer.position)
                add(answerObject["item"]?.elements ?? [], path: "\(here)=\(key)/")
            }
            add(object["item"]?.elements ?? [], path: "\(here)/")
        }
    }

    var count: Int { answers.values.reduce(0) { $0 + $1.count } }

    /// The answers here that `other` lacks, with where each is: (key, value, positions).
    func missing(from other: AnswerMultisets) -> [(path: String, value: String, positions: [SourcePosition])] {
        var result: [(String, String, [SourcePosition])] = []
        for (path, values) in answers.sorted(by: { $0.key < $1.key }) {
            var theirs = other.answers[path] ?? []
            for value in values {
                if let index = theirs.firstIndex(of: value) {
                    theirs.remove(at: index)
                } else {
                    result.append((path, value, locations["\(path)=\(value)"] ?? []))
                }
            }
        }
        return result
    }
}

@Suite("FHIR round trip: import, replay, response", .requires(.corpus))
struct FHIRRoundTripTests {
    /// Imports the pair's response under r4, replays the scenario (every action taken) and submits: the
    /// response's answers, the payload's, and what import listed.
    private func roundTrip(_ pair: ResponsePair) throws -> (original: AnswerMultisets, replayed: AnswerMultisets, problems: [Diagnostic]) {
        let survey = try #require(try FormatRegistry.standard.load(pair.file(pair.questionnaire)) as? FHIRSurvey)
        let settings = SessionSettings(today: testToday)
        let root = try JSONParser.parse(pair.file(pair.response))
        let imported = PayloadImporter(survey: survey, settings: settings).importPayload(try survey.readPayload(JSONCursor(node: root), settings: settings))
        let session = survey.makeSession(settings)
        for action in imported.actions { #expect(session.perform(action).outcome == .ok, "\(action)") }
        let payload = try JSONParser.parse(SourceFile(path: "payload", text: CanonicalJSON.compact(try #require(session.payload))))
        return (
            AnswerMultisets(JSONCursor(node: root).object?["item"]?.elements ?? []), AnswerMultisets(JSONCursor(node: payload).object?["item"]?.elements ?? []),
            imported.problems
        )
    }

    @Test(
        "each corpus Questionnaire with a response beside it: import under r4, replay, and the payload holds the response's answers (multisets per linkId occurrence, Codings by system and code), or import lists each difference at its place",
        arguments: ResponsePair.all)
    func roundTrip(pair: ResponsePair) throws {
        let (original, replayed, problems) = try roundTrip(pair)
        #expect(original.count > 0)
        #expect(replayed.missing(from: original).isEmpty, "the replay answers what the response does not: \(replayed.missing(from: original).map(\.path))")
        let listed = Set(problems.compactMap(\.position))
        for lost in original.missing(from: replayed) {
            #expect(lost.positions.contains(where: listed.contains), "\(lost.path) = \(lost.value) is lost without being listed")
        }
        if original == replayed { #expect(problems.isEmpty, "\(problems.map(\.description))") }
    }

    @Test("the corpus response of lforms q-items-under-repeating-choice-item round-trips exactly; C3-PRO's STU3 responses are not R4-readable, every answer listed")
    func corpusOutcomes() throws {
        var outcomes: [String: [Int]] = [:]
        for pair in ResponsePair.all {
            let (original, replayed, problems) = try roundTrip(pair)
            outcomes[pair.response] = [original.count, replayed.count, problems.count]
        }
        #expect(outcomes == [
            "lforms-q-items-under-repeating-choice-item.QuestionnaireResponse.json": [30, 30, 0], "QuestionnaireResponse-choices.json": [5, 0, 5],
            "QuestionnaireResponse-dates.json": [3, 0, 3], "QuestionnaireResponse-textvalues.json": [6, 0, 6],
        ])
    }
}
