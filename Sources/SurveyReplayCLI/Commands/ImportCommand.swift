import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay import PAYLOAD --survey SURVEY [-o FILE]`: a real submitted payload becomes a scenario.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "Turn a submitted payload into a scenario that reproduces it.",
        operands: [.init("PAYLOAD", help: "The payload as submitted (SurveyNative: {\"answers\": {...}}).")],
        options: [
            .value("--survey", "SURVEY", help: "The survey file the payload was submitted from (required)."),
            ScenarioOutput.outputOption, ScenarioOutput.todayOption,
        ] + WalkOptions.engineOptions,
        discussion: """
            The scenario answers every visible question the payload has an answer for, in the survey's display
            order, taps Next where the engine waits for it, and submits once Submit shows. Answers it cannot
            reproduce (questions the survey no longer reaches on that path, values it refuses, and for a
            QuestionnaireResponse items the Questionnaire lacks, repeats of items that do not repeat, answers
            of the wrong type) are listed on standard error with where they are and why. --profile decides
            how the payload is read (c3pro: as C3-PRO writes it).

            Exit codes: 0 the scenario reproduces the payload exactly; 1 it is written but some answers could not
            be reproduced (listed); 2 bad usage or an unreadable or malformed file.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        guard let surveyPath = invocation.arguments.value("--survey") else {
            throw UsageError(message: "missing --survey SURVEY: the survey the payload was submitted from", command: "import")
        }
        let payloadPath = invocation.arguments.operands[0]
        let survey = try FormatRegistry.standard.load(InputFiles.read(surveyPath))
        let payloadFile = try InputFiles.read(payloadPath)
        let today = try ScenarioOutput.today(invocation, command: "import")
        let settings = try WalkOptions.settings(invocation.arguments, today: today, command: "import", for: [survey])
        let reading = try survey.readPayload(JSONCursor(node: JSONParser.parse(payloadFile)), settings: settings)
        let result = PayloadImporter(survey: survey, settings: settings).importPayload(reading)
        try ScenarioOutput.write(
            result.actions, surveyPath: surveyPath, settings: settings, contexts: try WalkOptions.contexts(invocation.arguments, command: "import"),
            header: ["Imported with survey-replay import from \(payloadPath)."], invocation: invocation)
        for problem in result.problems {
            invocation.console.error("\(problem)\n")
        }
        return result.problems.isEmpty ? ExitCode.success : ExitCode.failure
    }
}
