/// A question as the interactive recorder shows it: its text, its type, the choices it offers and how
/// to type an answer.
public struct QuestionPrompt: Sendable, Equatable {
    public var id: String
    public var text: String?
    public var kind: String
    /// Options, values or picker bounds the respondent can pick from, in display order.
    public var choices: [String]
    /// How to type an answer at the prompt.
    public var hint: String
    /// For a question answered by picking several of its choices: what each one adds to the answer, so that
    /// typed numbers toggle choices as taps do.
    public var multipleChoice: MultipleChoice?

    public init(id: String, text: String?, kind: String, choices: [String], hint: String, multipleChoice: MultipleChoice? = nil) {
        self.id = id
        self.text = text
        self.kind = kind
        self.choices = choices
        self.hint = hint
        self.multipleChoice = multipleChoice
    }

    /// The choices of a multiple choice, numbered as `choices` shows them.
    public struct MultipleChoice: Sendable, Equatable {
        /// What each choice adds to the answer list; nil for a choice whose typed text is added instead (an
        /// Other row, whose text is one more element).
        public var values: [JSONValue?]
        /// The indices of choices that deselect every other when picked, and are deselected by any other.
        public var exclusive: Set<Int>

        public init(values: [JSONValue?], exclusive: Set<Int> = []) {
            self.values = values
            self.exclusive = exclusive
        }
    }
}

extension InputProblem {
    /// What a person typed at the recorder's prompt read as JSON, when it starts like JSON (`[`, `{` or a
    /// quote); nil when it does not, so the format reads it its own way.
    public static func typedJSON(_ typed: String) -> Result<JSONValue, InputProblem>? {
        guard let first = typed.unicodeScalars.first, "[{\"".unicodeScalars.contains(first) else { return nil }
        let bytes = Array(typed.utf8)
        switch JSONParser.parsePrefix(bytes, from: 0) {
        case .success(let parsed) where parsed.end == bytes.count: return .success(parsed.node.plain)
        case .success: return .failure(InputProblem("unexpected text after the JSON value"))
        case .failure(let error): return .failure(InputProblem("not valid JSON: \(error.message)"))
        }
    }
}
