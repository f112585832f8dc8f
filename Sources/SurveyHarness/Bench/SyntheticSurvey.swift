import SurveyCore

/// Large surveys of one format made on the spot for benchmarks and complexity tests: the same file for a
/// given size and seed on every machine. Every file loads without errors under `settings` and its walks
/// take steps.
public protocol SyntheticSurvey: Sendable {
    /// The format's name in `FormatRegistry`.
    var format: String { get }
    /// The settings the files are made for (a profile, where the format has several).
    var settings: SessionSettings { get }
    /// A survey file of `size` questions (items or steps, groups and sections included), as a file is
    /// written, with indentation.
    func text(size: Int, seed: UInt64) -> String
}

extension SyntheticSurvey {
    /// The file of `size` questions with the default seed, named after the format, profile and size.
    public func file(size: Int, seed: UInt64 = 7) -> SourceFile {
        SourceFile(path: "synthetic-\(settings.profile ?? format)-\(size).json", text: text(size: size, seed: seed))
    }
}
