import SurveyCore
import SurveyFormats
import SurveyHarness

/// `survey-replay record SURVEY [-o FILE]`: an interactive session, one question at a time, saved as a
/// scenario. Works on a terminal and with answers piped on standard input.
enum RecordCommand {
    static let spec = CommandSpec(
        name: "record",
        summary: "Answer a survey interactively, one question at a time, and save the session as a scenario.",
        operands: [.init("SURVEY", help: "The survey file.")],
        options: [ScenarioOutput.outputOption, ScenarioOutput.todayOption] + WalkOptions.engineOptions,
        discussion: """
            Each question is shown with its choices and how to type an answer; refusals and validation messages
            are shown as the engine gives them. Commands: :next [ID], :goto ID, :back, :submit, :custom KEY
            true|false, :visible, :do LINE (any action written as a scenario line: :do back, :do add vitals), :quit, :help. The recording ends at a successful :submit, at :quit, or at the
            end of input, and is written with a header naming the survey and the date.
            Prompts go to standard output when -o is given, otherwise to standard error (so that standard
            output is the scenario).

            Example: printf '2\\n1990\\n:quit\\n' | survey-replay record survey.json -o new.scenario --today 2026-11-22
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let surveyPath = invocation.arguments.operands[0]
        let survey = try FormatRegistry.standard.load(InputFiles.read(surveyPath))
        let today = try ScenarioOutput.today(invocation, command: "record")
        let console = invocation.console
        let promptsToOut = ScenarioOutput.outputFile(invocation) != nil
        let settings = try WalkOptions.settings(invocation.arguments, today: today, command: "record", for: [survey])
        let recorder = Recorder(survey: survey, settings: settings)
        let actions = recorder.run(read: { readLine(strippingNewline: true) }, write: { promptsToOut ? console.out($0) : console.error($0) })
        try ScenarioOutput.write(
            actions, surveyPath: surveyPath, settings: settings, contexts: try WalkOptions.contexts(invocation.arguments, command: "record"),
            header: [recordedHeader(surveyPath: surveyPath, today: today, clockGiven: invocation.arguments.value("--today") != nil)],
            invocation: invocation)
        if let output = ScenarioOutput.outputFile(invocation) {
            console.out("saved \(actions.count) action\(actions.count == 1 ? "" : "s") to \(output)\n")
        }
        return ExitCode.success
    }

    /// The header line: the day of the recording when it is known, which `--today` (the scenario's clock)
    /// is not; the `today` line below it gives the clock either way.
    static func recordedHeader(surveyPath: String, today: CalendarDate, clockGiven: Bool) -> String {
        "Recorded with survey-replay record from \(surveyPath)" + (clockGiven ? "; the clock is set by --today." : " on \(today).")
    }
}
