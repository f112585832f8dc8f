import SurveyCore

/// The formats the harness knows. Adding a format is one folder here and one line in `standard`.
public struct FormatRegistry: Sendable {
    public let formats: [any SurveyFormat]
    /// How large a survey may be; past a limit loading stops with a located error.
    public var limits: InputLimits

    public init(formats: [any SurveyFormat], limits: InputLimits = .standard) {
        self.formats = formats
        self.limits = limits
    }

    public static let standard = FormatRegistry(formats: [
        SurveyNativeFormat(),
        FHIRFormat(),
        SageFormat(),
        OwlmetryFormat(),
    ])

    public func format(named name: String) -> (any SurveyFormat)? {
        formats.first { $0.name == name }
    }

    /// The format a survey file is in, or why none recognizes it.
    public func format(of file: SourceFile) throws(InputError) -> any SurveyFormat {
        try recognize(file).0
    }

    /// Parses a survey file, detects its format and loads it.
    public func load(_ file: SourceFile) throws(InputError) -> any Survey {
        let (format, root) = try recognize(file)
        let survey = try format.load(JSONCursor(node: root))
        try checkLimits(survey, file)
        return survey
    }

    /// The survey's size against `InputLimits`: too many questions, or an id too long, is an error at
    /// the question that passes the limit.
    private func checkLimits(_ survey: any Survey, _ file: SourceFile) throws(InputError) {
        let ids = survey.questionIDs
        let tooMany = ids.count > limits.questions ? limits.questions : nil
        guard let index = tooMany ?? ids.firstIndex(where: { $0.utf8.count > limits.idLength && $0.count > limits.idLength }) else {
            return
        }
        let id = ids[index]
        let location = survey.coveragePlan().questions.first { $0.id == id }?.location
        let message = tooMany != nil
            ? "the survey has \(ids.count) questions; expected at most \(limits.questions) (the harness's limit)"
            : "question id of \(id.count) characters ('\(id.prefix(40))…'); expected at most \(limits.idLength)"
        throw InputError(Diagnostic(file: file.path, position: location?.position ?? file.position(of: 0), message: message))
    }

    /// Every format's lint rules, by id.
    public var lintRules: [String: LintRule] {
        Dictionary(formats.flatMap(\.lintRules).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Lints a survey file: its syntax errors, or what its format finds in it, in file order.
    public func lint(_ file: SourceFile) -> (format: String?, findings: [Diagnostic]) {
        do throws(InputError) {
            let (format, root) = try recognize(file)
            let findings = format.lint(JSONCursor(node: root)).sorted { left, right in
                (left.position ?? SourcePosition(line: 0, column: 0), left.rule ?? "") < (right.position ?? SourcePosition(line: 0, column: 0), right.rule ?? "")
            }
            return (format.name, findings)
        } catch {
            return (nil, error.diagnostics)
        }
    }

    /// The parsed file and the format that recognizes it.
    private func recognize(_ file: SourceFile) throws(InputError) -> (any SurveyFormat, JSONNode) {
        let root = try JSONParser.parse(file, maximumDepth: limits.nestingDepth)
        guard let format = formats.first(where: { $0.recognizes(root) }) else {
            let kinds = formats.map(\.signature).joined(separator: "; or ")
            throw InputError(
                Diagnostic(
                    file: file.path, position: file.position(of: root.offset),
                    message: "cannot tell which survey format this is; expected \(kinds)"))
        }
        return (format, root)
    }
}
