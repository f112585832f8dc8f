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
    public func name(ofScenario path: String) -> String? { names(ofScenarios: [path])[0] }

    /// `name(ofScenario:)` of each path, the current folder read and the root made absolute once for all.
    public func names(ofScenarios paths: [String]) -> [String?] {
        let (files, root) = Self.absolute(paths, root: scenariosRoot)
        return files.map { scenarioName($0, root: root) }
    }

    private func scenarioName(_ path: String, root: String) -> String? {
        guard let relative = Self.relativePath(path, under: root), relative.hasSuffix(".scenario") else { return nil }
        return String(relative.dropLast(".scenario".count))
    }

    public func goldenPath(_ name: String) -> String { snapshotsRoot + "/" + name + "." + Self.goldenExtension }
    public func pendingPath(_ name: String) -> String { goldenPath(name) + ".new" }
    public func scenarioPath(_ name: String) -> String { scenariosRoot + "/" + name + ".scenario" }

    /// The name a golden or pending file belongs to.
    public func name(ofSnapshot path: String) -> String? { names(ofSnapshots: [path])[0] }

    /// `name(ofSnapshot:)` of each path, the current folder read and the root made absolute once for all.
    public func names(ofSnapshots paths: [String]) -> [String?] {
        let (files, root) = Self.absolute(paths, root: snapshotsRoot)
        return files.map { snapshotName($0, root: root) }
    }

    private func snapshotName(_ path: String, root: String) -> String? {
        guard let relative = Self.relativePath(path, under: root) else { return nil }
        for suffix in [Self.pendingSuffix, "." + Self.goldenExtension] where relative.hasSuffix(suffix) {
            return String(relative.dropLast(suffix.count))
        }
        return nil
    }

    /// The folder under the snapshots root that mirrors a folder under the scenarios root.
    public func snapshotFolder(mirroring folder: String) -> String? {
        let full = InputFiles.absolute(folder)
        let root = InputFiles.absolute(scenariosRoot)
        guard let relative = Self.relativePath(full, under: root) else { return full == root ? snapshotsRoot : nil }
        return snapshotsRoot + "/" + relative
    }

    /// The paths and the root made absolute against the current folder, read once.
    private static func absolute(_ paths: [String], root: String) -> (paths: [String], root: String) {
        let folder = FileManager.default.currentDirectoryPath
        return (paths.map { InputFiles.absolute($0, from: folder) }, InputFiles.absolute(root, from: folder))
    }

    /// The part of an absolute path under an absolute root, or nil when it is not under it.
    private static func relativePath(_ path: String, under root: String) -> String? {
        guard path.hasPrefix(root + "/") else { return nil }
        return String(path.dropFirst(root.count + 1))
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
