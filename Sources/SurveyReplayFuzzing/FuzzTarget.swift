/// One parser under fuzzing: the files its inputs start from, and what it must do with any bytes. A target
/// must not crash or hang on any input; it may also find a wrong result (an input that parses but does not
/// print back the same, a session that breaks its own invariants), reported as a failure.
public struct FuzzTarget: Sendable {
    public let name: String
    public let summary: String
    /// Whether inputs are JSON, so structure-aware mutations apply.
    public let isJSON: Bool
    /// The inputs mutations start from: the project's own files and the corpus's (found from the project
    /// folder), or inputs made from them.
    public let seeds: @Sendable (_ corpus: String) -> [[UInt8]]
    /// Runs one input; nil when all is well, otherwise what went wrong.
    public let run: @Sendable (_ input: [UInt8]) -> String?

    public init(
        name: String, summary: String, isJSON: Bool, seeds: @escaping @Sendable (String) -> [[UInt8]],
        run: @escaping @Sendable ([UInt8]) -> String?
    ) {
        self.name = name
        self.summary = summary
        self.isJSON = isJSON
        self.seeds = seeds
        self.run = run
    }
}
