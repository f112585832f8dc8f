/// When the runner writes goldens, as the best snapshot tools do (harness-anchors.md §3-4).
public enum RecordMode: String, CaseIterable, Sendable {
    /// Write goldens that do not exist yet; a mismatch fails and leaves a `.snap.new` beside the golden.
    case missing
    /// Write every golden.
    case all
    /// Write goldens that are missing or differ.
    case failed
    /// Write nothing: a missing or different golden fails (CI).
    case never

    public static let environmentVariable = "SURVEY_REPLAY_RECORD"

    /// A value that names no mode, in `--record` or the environment variable: the same error for both.
    public struct Invalid: Error, Sendable {
        public let message: String

        public init(_ value: String, in source: String) {
            message = "'\(value)' is not a valid MODE for \(source); expected one of \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }

    /// The mode to use: the flag wins; otherwise `never` when `CI` is set (so that retries on CI cannot
    /// pass by recording), else the environment variable, else `missing`. A variable that names no mode is
    /// an error even where the flag or CI overrides it, rather than a setting silently ignored.
    public static func resolve(flag: RecordMode?, environment: [String: String]) throws(Invalid) -> (mode: RecordMode, note: String?) {
        let text = environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let requested = text.flatMap(RecordMode.init(rawValue:))
        if let text, requested == nil { throw Invalid(text, in: environmentVariable) }
        if let flag { return (flag, nil) }
        if isCI(environment) {
            let note = requested.map { $0 == .never ? nil : "\(environmentVariable)=\($0.rawValue) is ignored because CI is set; pass --record \($0.rawValue) to record on CI" } ?? nil
            return (.never, note)
        }
        return (requested ?? .missing, nil)
    }

    /// Whether the environment says this is a CI run (`CI` set to anything but empty, `0` or `false`).
    public static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"] else { return false }
        return !["", "0", "false", "False", "FALSE"].contains(value)
    }
}
