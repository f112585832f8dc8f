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

    public init(id: String, text: String?, kind: String, choices: [String], hint: String) {
        self.id = id
        self.text = text
        self.kind = kind
        self.choices = choices
        self.hint = hint
    }
}
