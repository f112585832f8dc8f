import SurveyCore

/// The formats the harness knows. Adding a format is one folder here and one line in `standard`.
public struct FormatRegistry: Sendable {
    public let formats: [any SurveyFormat]

    public init(formats: [any SurveyFormat]) {
        self.formats = formats
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

    /// Parses a survey file, detects its format and loads it.
    public func load(_ file: SourceFile) throws(InputError) -> any Survey {
        let (format, root) = try recognize(file)
        return try format.load(JSONCursor(node: root))
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
        let root = try JSONParser.parse(file)
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
