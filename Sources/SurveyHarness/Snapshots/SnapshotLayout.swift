import Foundation

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
}
