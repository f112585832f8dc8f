import SurveyCore

extension Scenario {
    /// The canonical text: one statement a line, single spaces, values as compact canonical JSON, a
    /// trailing comment two spaces after the statement, and a final newline.
    public var text: String {
        var output = ""
        for line in lines {
            switch (line.statement, line.comment) {
            case (let statement?, let comment?): output += ScenarioSyntax.text(of: statement) + "  #" + comment
            case (let statement?, nil): output += ScenarioSyntax.text(of: statement)
            case (nil, let comment?): output += "#" + comment
            case (nil, nil): break
            }
            output += "\n"
        }
        return output
    }

    /// A scenario for a list of actions, as `record`, `fuzz`, `generate` and `import` write it: the clock,
    /// the profile and options when there are any, the launch contexts the settings were read from (their
    /// files as the scenario names them: `LaunchContextFile.named(fromScenarioAt:)`), and the properties to
    /// check, in the header.
    public static func make(
        path: String, surveyPath: String, settings: SessionSettings, contexts: [LaunchContextFile] = [], header: [String] = [], checks: [Check] = [],
        actions: [Action]
    ) -> Scenario {
        var lines = header.map { Line(nil, comment: " " + ScenarioSyntax.comment($0)) }
        lines.append(Line(.survey(surveyPath)))
        lines.append(Line(.today(settings.today)))
        if let profile = settings.profile { lines.append(Line(.profile(profile))) }
        for (name, value) in settings.options.sorted(by: { $0.key < $1.key }) { lines.append(Line(.option(name: name, value: value))) }
        lines += contexts.map { Line(.context(name: $0.name, path: $0.path)) }
        lines += checks.map { Line(.check($0)) }
        lines += actions.map { Line(.action($0)) }
        return Scenario(path: path, lines: lines)
    }
}
