import SurveyCore

/// A resource the host app hands the engine as the survey opens, under a name, from a JSON file: FHIR's SDC
/// launch contexts (`context patient ada.context` in a scenario, `--context patient=ada.context` to the
/// commands that walk a survey or write scenarios). `SessionSettings.launchContext` holds what it reads.
public struct LaunchContextFile: Sendable, Equatable {
    public var name: String
    /// The file: relative to the current folder (or absolute) where it is read, relative to the scenario's
    /// folder on a scenario's `context` line.
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// The resource in the file. A file that cannot be read is the error `unreadable` makes of the reason,
    /// located where the file was named (a scenario's line, an option); bad JSON is located in the file, and
    /// so is a value that is not a resource object.
    public func read(unreadable: (_ reason: String) -> Diagnostic) throws(InputError) -> JSONValue {
        let source: SourceFile
        do {
            source = try InputFiles.read(path)
        } catch {
            throw InputError(unreadable(error.diagnostics.first?.message ?? "cannot be read"))
        }
        let root = try JSONParser.parse(source)
        guard root.kind == .object else {
            throw JSONCursor(node: root).typeError(expected: "a resource object such as {\"resourceType\": \"Patient\", …}", for: "the launch context '\(name)'")
        }
        return root.plain
    }

    /// The file as a scenario written to `scenarioPath` names it, relative to that scenario's folder (a
    /// scenario reads its `context` lines so); as given for a scenario not written to a file (nil).
    public func named(fromScenarioAt scenarioPath: String?) -> LaunchContextFile {
        guard let scenarioPath else { return self }
        return LaunchContextFile(name: name, path: InputFiles.relativePath(of: path, fromFolder: InputFiles.folder(of: scenarioPath)))
    }
}
