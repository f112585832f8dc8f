import Foundation
import SurveyCore

/// Where goldens live: `Snapshots/` mirrors `Scenarios/`, with `.snap` for `.scenario`, and a pending
/// `.snap.new` beside a golden that no longer matches.
public struct SnapshotLayout: Sendable {
    public let scenariosRoot: String
    public let snapshotsRoot: String

    public static let goldenExtension = "snap"
    public static let pendingSuffix = ".snap.new"

    public init(scenariosRoot: String = "Scenarios", snapshotsRoot: String = "Snapshots") {
        self.scenariosRoot = InputFiles.normalize(scenariosRoot)
        self.snapshotsRoot = InputFiles.normalize(snapshotsRoot)
    }

    /// The scenario's path under the scenarios root without its extension (`checkin/happy-path`), or nil
    /// when it is not under the root.
    public func name(ofScenario path: String) -> String? {
        guard let relative = relativePath(path, under: scenariosRoot), relative.hasSuffix(".scenario") else { return nil }
        return String(relative.dropLast(".scenario".count))
    }

    public func goldenPath(_ name: String) -> String { snapshotsRoot + "/" + name + "." + Self.goldenExtension }
    public func pendingPath(_ name: String) -> String { goldenPath(name) + ".new" }
    public func scenarioPath(_ name: String) -> String { scenariosRoot + "/" + name + ".scenario" }

    /// The name a golden or pending file belongs to.
    public func name(ofSnapshot path: String) -> String? {
        guard let relative = relativePath(path, under: snapshotsRoot) else { return nil }
        for suffix in [Self.pendingSuffix, "." + Self.goldenExtension] where relative.hasSuffix(suffix) {
            return String(relative.dropLast(suffix.count))
        }
        return nil
    }

    /// The folder under the snapshots root that mirrors a folder under the scenarios root.
    public func snapshotFolder(mirroring folder: String) -> String? {
        guard let relative = relativePath(folder, under: scenariosRoot) else {
            return InputFiles.absolute(folder) == InputFiles.absolute(scenariosRoot) ? snapshotsRoot : nil
        }
        return snapshotsRoot + "/" + relative
    }

    private func relativePath(_ path: String, under root: String) -> String? {
        let full = InputFiles.absolute(path)
        let base = InputFiles.absolute(root)
        guard full.hasPrefix(base + "/") else { return nil }
        return String(full.dropFirst(base.count + 1))
    }
}

/// The golden text of a scenario: a header naming it, then the trace.
public enum GoldenFile {
    public static func text(of trace: Trace, scenarioName: String) -> String {
        "# survey-replay golden of \(scenarioName).scenario; update with: survey-replay test --record failed\n" + trace.text
    }

    /// The golden at `path`, or nil when there is none. It is read like every input (a symbolic link loop,
    /// a named pipe or a directory is an error, never taken for a missing golden), and with line endings
    /// read as LF, so that a checkout that turned them into CRLF still matches; goldens are written with LF.
    public static func read(_ path: String) throws(InputError) -> String? {
        var info = stat()
        if lstat(path, &info) != 0, errno == ENOENT { return nil }
        if stat(path, &info) != 0, errno == ENOENT { return nil }
        let text = String(decoding: try InputFiles.read(path).bytes, as: UTF8.self)
        return text.contains("\r\n") ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
    }

    /// The git conflict markers a bad merge left in a golden (`<<<<<<<`, `=======`, `>>>>>>>`, in that
    /// order), as an error at the first one; nil when there are none.
    public static func conflict(in text: String, path: String) -> Diagnostic? {
        var start: Int?
        var middle = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("<<<<<<<"), start == nil {
                start = index + 1
            } else if line.hasPrefix("======="), start != nil {
                middle = true
            } else if line.hasPrefix(">>>>>>>"), let start, middle {
                return Diagnostic(
                    file: path, position: SourcePosition(line: start, column: 1),
                    message: "a git merge conflict: lines \(start) to \(index + 1) hold two versions between '<<<<<<<' and '>>>>>>>'; expected one golden",
                    hint: "resolve the conflict in the file, or record the golden afresh with 'survey-replay test --record all' on its scenario")
            }
        }
        return nil
    }
}
