/// A submitted payload as `import` reads it: the answers it holds, by the ids scenarios use, each with where
/// it is in the payload, and what in it no scenario can reproduce (an answer to an item the survey lacks, an
/// answer of the wrong type, a repeat of something that does not repeat…), each with where and why.
public struct PayloadReading: Sendable {
    public struct Answer: Sendable {
        public let question: String
        public let value: JSONValue
        /// Where the answer is in the payload, when the format knows.
        public let location: SourceLocation?

        public init(question: String, value: JSONValue, location: SourceLocation?) {
            self.question = question
            self.value = value
            self.location = location
        }
    }

    /// The payload's file, for locating what is reported.
    public let file: String
    public var answers: [Answer]
    /// What the payload holds that no scenario can reproduce: a warning each, at its place in the payload.
    public var problems: [Diagnostic]

    public init(file: String, answers: [Answer], problems: [Diagnostic] = []) {
        self.file = file
        self.answers = answers
        self.problems = problems
    }
}

extension Survey {
    /// The default reading of a payload: its answers as `answers(inPayload:)` reads them, unlocated.
    public func readPayload(_ payload: JSONCursor, settings: SessionSettings) throws(InputError) -> PayloadReading {
        let answers = try answers(inPayload: payload)
        return PayloadReading(file: payload.file.path, answers: answers.map { PayloadReading.Answer(question: $0.question, value: $0.value, location: nil) })
    }
}
