import Foundation
import SurveyHarness
import SurveyReplayTestSupport
import Testing

/// `--context NAME=FILE` on the commands that walk a survey or write scenarios: the host's launch contexts,
/// read as a scenario's `context` line reads its file, and named on a `context` line of every scenario they
/// write, so that it replays as it was walked.
@Suite("--context: launch contexts for walks and the scenarios they write")
struct LaunchContextOptionTests {
    /// A project holding the team's intake form (it declares a `patient` launch context, which an
    /// enableWhenExpression and initialExpressions read) and its patient beside it.
    private func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in ["intake.json", "ada.context"] {
            try folder.write("Scenarios/fhir/" + name, String(contentsOfFile: Corpus.packageRoot + "/Scenarios/fhir-sdc/" + name, encoding: .utf8))
        }
        return folder
    }

    @Test("without --context the intake form throws as it opens, and the error says which launch context to give; with it the walks run the patient's expressions")
    func fuzzEvaluatesThePatientsExpressions() throws {
        let folder = try project()
        let survey = folder.path + "/Scenarios/fhir/intake.json"
        let without = runCLI(["fuzz", survey, "--walks", "20"])
        #expect(without.status == 2)
        #expect(without.error.contains("LHC-Forms throws as the form opens"))
        #expect(without.error.contains("the Questionnaire declares the launch context 'patient', which the host does not give here"))
        #expect(without.error.contains("--context patient=FILE"))
        let with = runCLI(["fuzz", survey, "--walks", "20", "--context", "patient=" + folder.path + "/Scenarios/fhir/ada.context"])
        #expect(with.status == 0, "\(with.error)")
        #expect(!with.out.contains("throws as the form opens") && !with.error.contains("throws"))
        // pregnant is on the page (a 35-year-old woman) or off it (a birth date over 55 years ago): two lists.
        #expect(with.out.contains("findings: 0 engine errors, 0 survey hazards, 0 properties"))
        #expect(with.out.contains("distinct visible lists 2"))
    }

    @Test("a saved fuzz failure names the context file from its own folder, and replays with the patient")
    func savedFailuresCarryTheContext() throws {
        let folder = try project()
        let properties = try folder.write(
            "intake.properties", "# Nobody is asked about pregnancy once a birth date is given.\nwhenever {\"question\": \"birth\", \"operator\": \"exists\", \"answerBoolean\": true} then hidden pregnant\n")
        let context = folder.path + "/Scenarios/fhir/ada.context"
        let saved = folder.path + "/Scenarios/found"
        let result = runCLI([
            "fuzz", folder.path + "/Scenarios/fhir/intake.json", "--walks", "20", "--properties", properties, "--context", "patient=" + context,
            "--save-failures", saved,
        ])
        #expect(result.status == 1)
        #expect(result.out.contains("--context patient=\(context)"), "the replay command gives the context again")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: saved).first)
        let text = try String(contentsOfFile: saved + "/" + file, encoding: .utf8)
        #expect(text.contains("\nsurvey ../fhir/intake.json\ntoday 2026-01-01\ncontext patient ../fhir/ada.context\ncheck whenever"))
        let replay = runCLI(["replay", saved + "/" + file])
        #expect(replay.out.contains("event: computed {\"age\":35,\"birth\":\"1990-12-03\",\"name\":\"Ada Ng\"}"))
        #expect(replay.out.contains("visible: name birth age pregnant"))
        #expect(replay.error.contains("check failed"), "the saved failure keeps failing")
    }

    @Test("generate writes a context line for each --context, in the order given (repeated or comma-separated), and its scenarios replay to the coverage it reported")
    func generatedScenariosCarryTheContexts() throws {
        let folder = try project()
        let context = folder.path + "/Scenarios/fhir/ada.context"
        let output = folder.path + "/Scenarios/generated"
        let result = runCLI([
            "generate", folder.path + "/Scenarios/fhir/intake.json", "-o", output, "--context", "patient=\(context),user=\(context)", "--context", "location=\(context)",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.out.contains("take 17/17 branches (100.0%)"))
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        let first = try String(contentsOfFile: output + "/" + names[0], encoding: .utf8)
        #expect(first.contains("\ncontext patient ../fhir/ada.context\ncontext user ../fhir/ada.context\ncontext location ../fhir/ada.context\n"))
        #expect(runCLI(["coverage", output]).out.contains("branches: 17/17 taken (100.0%)"))
        let arguments = ["test", output, "--scenarios", folder.path + "/Scenarios", "--snapshots", folder.path + "/Snapshots"]
        #expect(runCLI(arguments + ["--record", "missing"]).status == 0)
        #expect(runCLI(arguments + ["--record", "never"]).out.contains(": \(names.count) passed, 0 failed"))
    }

    @Test("compare --save, import -o and coverage --walks read --context too")
    func otherCommands() throws {
        let folder = try project()
        let context = "patient=" + folder.path + "/Scenarios/fhir/ada.context"
        let old = folder.path + "/Scenarios/fhir/intake.json"
        let new = try folder.write("Scenarios/fhir/intake-30.json", String(contentsOfFile: old, encoding: .utf8).replacingOccurrences(of: "answer.value < 55", with: "answer.value < 30"))
        let compared = runCLI(["compare", old, new, "--walks", "20", "--context", context, "--save", folder.path + "/Scenarios/changed"])
        #expect(compared.status == 1)
        #expect(compared.out.contains("pregnant: before the first action, only the old version shows pregnant"))
        let difference = try String(contentsOfFile: folder.path + "/Scenarios/changed/differs-at-pregnant.scenario", encoding: .utf8)
        #expect(difference.hasSuffix("survey ../fhir/intake-30.json\ntoday 2026-01-01\ncontext patient ../fhir/ada.context\n"))

        let response = try folder.write(
            "response.json",
            #"{"resourceType": "QuestionnaireResponse", "status": "completed", "item": [{"linkId": "name", "answer": [{"valueString": "Ada Ng"}]}, {"linkId": "birth", "answer": [{"valueDate": "1990-12-03"}]}, {"linkId": "age", "answer": [{"valueInteger": 35}]}, {"linkId": "pregnant", "answer": [{"valueBoolean": false}]}]}"#)
        let imported = runCLI(["import", response, "--survey", old, "--today", "2026-01-01", "--context", context, "-o", folder.path + "/Scenarios/imported/r.scenario"])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(try String(contentsOfFile: folder.path + "/Scenarios/imported/r.scenario", encoding: .utf8).contains("\ncontext patient ../fhir/ada.context\n"))

        #expect(runCLI(["coverage", old, "--walks", "20"]).error.contains("cannot walk it: LHC-Forms throws as the form opens"))
        let covered = runCLI(["coverage", old, "--walks", "20", "--context", context])
        #expect(covered.status == 0, "\(covered.error)")
        #expect(covered.out.contains("pregnant  shown + hidden"))
    }

    @Test("a --context that is not NAME=FILE, names a launch context twice, or whose file cannot be read or holds no JSON object is a located error, exit 2")
    func badContexts() throws {
        let folder = try project()
        let survey = folder.path + "/Scenarios/fhir/intake.json"
        let bad = try folder.write("bad.context", "{\"resourceType\": }\n")
        let list = try folder.write("list.context", "[{\"resourceType\": \"Patient\"}]\n")
        let cases: [(value: String, error: String)] = [
            ("patient", "error: --context needs NAME=FILE, not 'patient'"),
            ("=ada.context", "error: --context needs NAME=FILE, not '=ada.context'"),
            ("patient=", "error: --context needs NAME=FILE, not 'patient='"),
            ("patient=a.json,patient=b.json", "error: --context names 'patient' twice; expected one file for each launch context"),
            ("patient=\(folder.path)/nope.context", "\(folder.path)/nope.context: error: the file of --context patient=\(folder.path)/nope.context: no such file"),
            ("patient=\(bad)", "\(bad):1:18: error: unexpected '}'"),
            ("patient=\(list)", "\(list):1:1: error: expected a resource object such as {\"resourceType\": \"Patient\", …} for the launch context 'patient', found an array"),
        ]
        for (value, error) in cases {
            for command in [["fuzz", survey], ["generate", survey, "-o", folder.path + "/out"], ["coverage", survey, "--walks", "1"]] {
                let result = runCLI(command + ["--context", value])
                #expect(result.status == 2, "\(command[0]) --context \(value)")
                #expect(result.error.contains(error), "\(command[0]) --context \(value): \(result.error)")
            }
        }
    }
}
