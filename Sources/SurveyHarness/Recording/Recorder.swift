import SurveyCore

/// The interactive recorder: shows one question at a time, takes typed answers and commands, performs them
/// on a live session and keeps the actions, which become a scenario. Input and output are functions, so a
/// terminal, a pipe and a test drive it the same way.
public struct Recorder {
    public let survey: any Survey
    public let settings: SessionSettings

    public init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
    }

    public static let help = """
        Type an answer for the question shown, or a command:
          :next [ID]       tap Next (on the shown question, or on ID)
          :goto ID         move to a visible question, to answer it again
          :back            move to the visible question before the shown one
          :submit          tap Submit (ends the recording when it succeeds)
          :custom KEY true|false   what the host app answers for a custom condition
          :visible         list the questions on screen
          :do LINE         any action as a scenario line: :do back, :do add vitals, :do skip, :do consent accept
          :quit            stop and save
        """

    /// Runs until :quit, a successful submit, or the end of input; returns the actions performed, in order.
    public func run(read: () -> String?, write: (String) -> Void) -> [Action] {
        let session = survey.makeSession(settings)
        var actions: [Action] = []
        var focus: String?
        write("Recording \(survey.format) survey, today \(settings.today). Type :help for commands.\n")
        while true {
            let shown = focus ?? session.currentQuestion
            if let shown, let prompt = survey.prompt(for: shown, settings: settings) {
                write(describe(prompt))
            } else if session.isSubmittable {
                write("\nSubmit is shown. :submit to send, :goto ID to change an answer, :quit to stop.\n")
            } else {
                write("\nNo question is waiting and Submit is not shown. :goto ID to change an answer, or :quit.\n")
            }
            write("> ")
            guard let line = read() else {
                write("\n")
                return actions
            }
            let input = String(line.drop { $0 == " " })
            if input.isEmpty { continue }
            let action: Action
            if input.hasPrefix(":") {
                let words = input.dropFirst().split(separator: " ").map(String.init)
                switch words.first ?? "" {
                case "quit", "q": return actions
                case "help", "h":
                    write(Self.help + "\n")
                    continue
                case "visible", "v":
                    write("  visible: \(session.visibleQuestions.joined(separator: " "))\n")
                    continue
                case "next", "n": action = .next(question: words.count > 1 ? words[1] : nil)
                case "submit", "s": action = .submit
                case "goto", "g":
                    guard words.count == 2 else {
                        write("  usage: :goto ID\n")
                        continue
                    }
                    action = .goto(question: words[1])
                case "back", "b":
                    let visible = session.visibleQuestions
                    guard let here = shown.flatMap(visible.firstIndex(of:)) ?? (visible.isEmpty ? nil : visible.count), here > 0 else {
                        write("  there is no visible question before this one\n")
                        continue
                    }
                    action = .goto(question: visible[here - 1])
                case "custom":
                    guard words.count == 3, let outcome = Bool(words[2]) else {
                        write("  usage: :custom KEY true|false\n")
                        continue
                    }
                    action = .hostCondition(key: words[1], outcome: outcome)
                case "do":
                    let line = input.dropFirst().drop { $0 != " " }.drop { $0 == " " }
                    switch Self.action(in: String(line)) {
                    case .success(let parsed): action = parsed
                    case .failure(let problem):
                        write("  \(problem.message)\n")
                        continue
                    }
                default:
                    write("  unknown command '\(input)'; :help lists them\n")
                    continue
                }
            } else {
                guard let shown else {
                    write("  no question is waiting for an answer; :goto ID first\n")
                    continue
                }
                if let choices = survey.prompt(for: shown, settings: settings)?.multipleChoice, InputProblem.typedJSON(input) == nil {
                    // Numbers toggle choices as taps do, from the answer the question holds now.
                    switch MultipleChoiceInput(choices: choices).apply(input, to: session.answer(for: shown)) {
                    case .success(let (answer, said)):
                        action = .answer(question: shown, value: answer)
                        write("  " + said.joined(separator: "; ") + "\n")
                    case .failure(let problem):
                        write("  \(problem.message)\n")
                        continue
                    }
                } else {
                    switch survey.interpretInput(input, for: shown) {
                    case .success(let value): action = .answer(question: shown, value: value)
                    case .failure(let problem):
                        write("  \(problem.message)\n")
                        continue
                    }
                }
            }
            let result = session.perform(action)
            if case .doesNotFit(let reason) = result.outcome {
                write("  not possible in this survey: \(reason)\n")
                continue
            }
            actions.append(action)
            var said = summary(result)
            // What the input did: the answer the engine now holds.
            if case .answer(let question, _) = action, result.outcome == .ok {
                said += "; '\(question)' is now \(session.answer(for: question).map(CanonicalJSON.compact) ?? "unanswered")"
            }
            write("  " + said + "\n")
            if case .goto(let target) = action, result.outcome == .ok {
                focus = target
            } else {
                focus = nil
            }
            if action == .submit, result.outcome == .ok { return actions }
        }
    }

    /// The action a scenario line states, or why it states none.
    static func action(in line: String) -> Result<Action, InputProblem> {
        do throws(InputError) {
            let scenario = try ScenarioParser.parse(SourceFile(path: "input", text: "survey -\n" + line))
            guard let action = scenario.actions.first else {
                return .failure(InputProblem("'\(line)' is not an action; expected a scenario line such as 'back' or 'add vitals'"))
            }
            return .success(action)
        } catch {
            return .failure(InputProblem(error.diagnostics.first?.message ?? "'\(line)' is not a scenario line"))
        }
    }

    private func describe(_ prompt: QuestionPrompt) -> String {
        var text = "\n\(prompt.id): \(prompt.text ?? "") [\(prompt.kind)]\n"
        for (index, choice) in prompt.choices.enumerated() { text += "  \(index + 1). \(choice)\n" }
        text += "  (\(prompt.hint))\n"
        return text
    }

    private func summary(_ result: StepResult) -> String {
        var text: String
        switch result.outcome {
        case .ok: text = "ok"
        case .rejected(let reason): text = "refused: \(reason)"
        case .validationFailed(let message): text = "validation failed: \(message)"
        case .doesNotFit(let reason): text = "not possible: \(reason)"
        }
        for event in result.events { text += "; \(event.name)" }
        return text
    }
}
