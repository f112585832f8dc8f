import SurveyCore
import SurveyHarness

/// `survey-replay replay FILE.scenario [--json]`: replays one scenario and prints its trace.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay one scenario and print its trace.",
        operands: [.init("FILE.scenario", help: "The scenario to replay; its 'survey' line names the survey file.")],
        options: [.flag("--json", help: "Print the trace as one JSON object (the stable machine contract).")],
        discussion: """
            The trace shows, after every action, its outcome (ok, rejected with the reason, or validation failed
            with the survey's message), the current question, the visible questions in display order and any
            events (such as the submission); then the payload. With --json the keys are survey, format, steps
            (n, action, outcome, message, current, visible, submittable, events) and payload.

            Exit codes: 0 the replay held every expectation; 1 an 'expect' line failed; 2 a file is missing or
            malformed, or the scenario no longer fits the survey ("stale at step k").
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let path = invocation.arguments.operands[0]
        let runner = ScenarioRunner()
        let (scenario, survey) = try runner.load(scenarioAt: path)
        let result = runner.run(scenario, survey: survey)
        if let stale = result.staleDiagnostic(scenarioPath: path) {
            throw InputError(stale)
        }
        if invocation.arguments.flag("--json") {
            invocation.console.out(CanonicalJSON.compact(result.trace.json) + "\n")
        } else {
            invocation.console.out(result.trace.text)
        }
        for diagnostic in result.failureDiagnostics(scenarioPath: path) {
            invocation.console.error(diagnostic.description + "\n")
        }
        return result.failures.isEmpty ? ExitCode.success : ExitCode.failure
    }
}
