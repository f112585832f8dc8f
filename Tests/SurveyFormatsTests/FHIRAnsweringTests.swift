import SurveyCore
import Testing

@testable import SurveyFormats

@Suite("FHIR answers matched to options")
struct FHIRAnsweringTests {
    @Test("a Coding answer picks the option the matching rule picks first, whether found by its code or compared with every option")
    func codedOptions() throws {
        // Options sharing codes across systems, one without a system, one without a code.
        let written = [
            #"{"system": "s1", "code": "a", "display": "A1"}"#, #"{"system": "s2", "code": "a", "display": "A2"}"#, #"{"code": "b", "display": "B"}"#,
            #"{"system": "s1", "code": "b", "display": "B1"}"#, #"{"system": "s2", "display": "D"}"#,
        ]
        let options = written.map { #"{"valueCoding": \#($0)}"# }.joined(separator: ", ")
        let survey = try loadQuestionnaire(questionnaireText([fhirItem("q", "choice", #""answerOption": [\#(options)]"#)]))
        let item = try #require(survey.items.firstIndex { $0.linkId == "q" })
        var given: [JSONValue] = []
        for code: JSONValue? in [nil, "a", "b", "c", .null] {
            for system: JSONValue? in [nil, "s1", "s2", "s3", .null] {
                for display: JSONValue? in [nil, "D", "A1"] {
                    var object: [String: JSONValue] = [:]
                    object["code"] = code
                    object["system"] = system
                    object["display"] = display
                    given.append(.object(object))
                }
            }
        }
        var picked = 0
        for json in given {
            let expected = survey.items[item].options.first { FHIRSurvey.option($0.value, matches: json) }?.value
            let found = try? survey.interpret(json, forItem: item).get().first
            #expect(found == expected, "\(CanonicalJSON.compact(json))")
            if expected != nil { picked += 1 }
        }
        // 19 of the 75 pick an option (by code and system, or by display without a code); 56 miss.
        #expect(picked == 19 && given.count == 75, "\(picked) of \(given.count)")
        // Without a system, the first option with the code; with one, that system's.
        #expect(try survey.interpret(["code": "a"], forItem: item).get().first?.json.objectValue?["display"] == "A1")
        #expect(try survey.interpret(["code": "a", "system": "s2"], forItem: item).get().first?.json.objectValue?["display"] == "A2")
        #expect(try survey.interpret(["code": "b", "system": "s1"], forItem: item).get().first?.json.objectValue?["display"] == "B1")
    }

    @Test("an option's own object (what a walk answers with) picks what an equal object written apart picks: the first option with its code and system")
    func ownOptionObjects() throws {
        // The third repeats the first's code and system (it is never picked); the fourth has no code.
        let written = [
            #"{"system": "s1", "code": "a", "display": "A1"}"#, #"{"system": "s2", "code": "a", "display": "A2"}"#,
            #"{"system": "s1", "code": "a", "display": "again"}"#, #"{"display": "no code"}"#,
        ]
        let options = written.map { #"{"valueCoding": \#($0)}"# }.joined(separator: ", ")
        let survey = try loadQuestionnaire(questionnaireText([fhirItem("q", "choice", #""answerOption": [\#(options)]"#)]))
        let item = try #require(survey.items.firstIndex { $0.linkId == "q" })
        let own = survey.items[item].options.map(\.value.json)
        var displays: [String] = []
        for json in own {
            var members: [String: JSONValue] = [:]
            for (name, value) in json.objectValue ?? [:] { members[name] = value }
            let apart = JSONValue.object(members)
            #expect(apart.objectAddress != json.objectAddress)
            let found = try survey.interpret(json, forItem: item).get().first
            #expect(found == (try survey.interpret(apart, forItem: item).get().first), "\(CanonicalJSON.compact(json))")
            displays.append(found?.json.objectValue?["display"]?.stringValue ?? "?")
        }
        #expect(displays == ["A1", "A2", "A1", "no code"])
    }
}
