import Foundation
import SurveyCore
import SurveyFormats

/// Runs a suite of scenarios against their goldens: replay, render, compare, and record per the mode.
public struct SuiteRunner: Sendable {
    public var layout: SnapshotLayout
    public var mode: RecordMode
    public var jobs: Int
    public var filter: String?
    public var registry: FormatRegistry

    public init(layout: SnapshotLayout, mode: RecordMode, jobs: Int = 1, filter: String? = nil, registry: FormatRegistry = .standard) {
        self.layout = layout
        self.mode = mode
        self.jobs = max(1, jobs)
        self.filter = filter
        self.registry = registry
    }

    /// Runs every scenario under `paths` (the scenarios root when empty) and reports each, in path order.
    /// `progress` is called after each scenario with the number done and the total.
    public func run(paths: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) -> SuiteResult {
        let roots = paths.isEmpty ? [layout.scenariosRoot] : paths
        var (files, problems) = ScenarioDiscovery.find(roots, extension: "scenario")
        problems = problems.map(suggestingScenarioPath)
        files.sort()
        var scenarios: [(name: String, path: String)] = []
        var filteredOut: [String] = []
        for (file, name) in zip(files, layout.names(ofScenarios: files)) {
            guard let name else {
                problems.append(
                    Diagnostic(file: file, position: nil, message: "is not under the scenarios folder \(layout.scenariosRoot)/; expected scenarios there (or pass --scenarios DIR)"))
                continue
            }
            if let filter, !name.contains(filter) {
                filteredOut.append(name)
                continue
            }
            scenarios.append((name, file))
        }
        let work = scenarios
        // Goldens without a scenario are looked for while the scenarios run, and the temporary files of
        // writes an earlier run was killed in the middle of are cleared (unless the mode writes nothing).
        let obsoleteScan = BackgroundValue { [self] in
            filter == nil ? obsoleteSnapshots(roots: roots, names: Set(work.map(\.name))) : []
        }
        let cleanup = BackgroundValue { [self] in
            mode == .never ? [] : snapshotFolders(roots).flatMap(AtomicFile.removeAbandoned(under:))
        }
        let reports = ParallelMap.run(count: work.count, jobs: jobs, progress: progress, makeWorker: { [registry] in SurveyCache(registry: registry) }) { cache, index in
            runOne(name: work[index].name, path: work[index].path, cache: &cache)
        }.results
        return SuiteResult(
            reports: reports, obsolete: obsoleteScan.value, removedTemporaries: cleanup.value, problems: problems, mode: mode,
            filteredOut: filteredOut)
    }

    private func runOne(name: String, path: String, cache: inout SurveyCache) -> ScenarioReport {
        var report = ScenarioReport(name: name, scenarioPath: path, goldenPath: layout.goldenPath(name))
        let scenario: Scenario
        let survey: any Survey
        do throws(InputError) {
            scenario = try ScenarioParser.parse(InputFiles.read(path))
            survey = try ScenarioRunner(registry: registry).loadSurvey(of: scenario) { (file: String) throws(InputError) in try cache.survey(at: file) }
        } catch {
            report.invalid = error.diagnostics
            return report
        }
        let result = ScenarioRunner(registry: registry).run(scenario, survey: survey)
        if let stale = result.staleDiagnostic(scenarioPath: path) {
            report.invalid = [stale]
            return report
        }
        report.expectationFailures = result.failureDiagnostics(scenarioPath: path)
        let text = GoldenFile.text(of: result.trace, scenarioName: name)
        report.newText = text
        do throws(InputError) {
            report.golden = try compareAndRecord(text, name: name)
        } catch {
            report.invalid = error.diagnostics
        }
        return report
    }

    private func compareAndRecord(_ text: String, name: String) throws(InputError) -> GoldenOutcome {
        let goldenPath = layout.goldenPath(name)
        let pendingPath = layout.pendingPath(name)
        let existing = try GoldenFile.read(goldenPath)
        // A golden a bad merge left in two versions is not a difference to record over: only 'all' replaces it.
        if let existing, mode != .all, let conflict = GoldenFile.conflict(in: existing, path: goldenPath) {
            throw InputError(conflict)
        }
        guard let existing else {
            if mode == .never { return .missing }
            try AtomicFile.write(text, to: goldenPath)
            AtomicFile.remove(pendingPath)
            return .recorded
        }
        if existing == text {
            if mode == .all { try AtomicFile.write(text, to: goldenPath) }
            if mode != .never { AtomicFile.remove(pendingPath) }
            return .matched
        }
        let divergence = Divergence.first(golden: existing, new: text) ?? Divergence(place: .header)
        switch mode {
        case .all, .failed:
            try AtomicFile.write(text, to: goldenPath)
            AtomicFile.remove(pendingPath)
            return .updated(divergence)
        case .missing:
            try AtomicFile.write(text, to: pendingPath)
            return .mismatched(divergence, golden: existing, pendingWritten: true)
        case .never:
            return .mismatched(divergence, golden: existing, pendingWritten: false)
        }
    }

    /// Goldens and pending files, under the snapshot folders mirroring `roots`, whose scenario is gone.
    private func obsoleteSnapshots(roots: [String], names: Set<String>) -> [String] {
        let (snapshots, _) = ScenarioDiscovery.find(snapshotFolders(roots), extensions: [SnapshotLayout.goldenExtension, "new"])
        return zip(snapshots, layout.names(ofSnapshots: snapshots)).compactMap { file, name in
            guard let name, !names.contains(name), !FileManager.default.fileExists(atPath: layout.scenarioPath(name)) else { return nil }
            return file
        }.sorted()
    }

    /// The existing snapshot folders mirroring the scenario folders among `roots`.
    private func snapshotFolders(_ roots: [String]) -> [String] {
        let folders = roots.compactMap { root -> String? in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return layout.snapshotFolder(mirroring: root)
        }
        return folders.filter { FileManager.default.fileExists(atPath: $0) }
    }
}

/// What happened to a scenario's golden.
public enum GoldenOutcome: Equatable, Sendable {
    case matched
    /// Written because it did not exist.
    case recorded
    /// Rewritten because it differed (record mode all or failed).
    case updated(Divergence)
    case mismatched(Divergence, golden: String, pendingWritten: Bool)
    /// Absent, and the mode writes nothing.
    case missing
}

public struct ScenarioReport: Sendable {
    public let name: String
    public let scenarioPath: String
    public let goldenPath: String
    /// Parse or load errors, or the stale step: the scenario could not be checked.
    public var invalid: [Diagnostic] = []
    public var expectationFailures: [Diagnostic] = []
    public var golden: GoldenOutcome?
    /// The golden text this run rendered.
    public var newText: String?

    public var passed: Bool {
        guard invalid.isEmpty, expectationFailures.isEmpty, let golden else { return false }
        switch golden {
        case .matched, .recorded, .updated: return true
        case .mismatched, .missing: return false
        }
    }
}

public struct SuiteResult: Sendable {
    public let reports: [ScenarioReport]
    public let obsolete: [String]
    /// Temporary files of interrupted writes (a killed earlier run) that this run removed.
    public let removedTemporaries: [String]
    /// Problems finding scenarios (missing paths, symlink loops, files outside the scenarios root).
    public let problems: [Diagnostic]
    public let mode: RecordMode
    /// The names of the scenarios found that the filter left out.
    public var filteredOut: [String] = []

    public var hasInvalidInput: Bool { !problems.isEmpty || reports.contains { !$0.invalid.isEmpty } }
    public var failedCount: Int { reports.filter { !$0.passed }.count }
}

/// A value computed on a thread of its own; `value` waits for it.
final class BackgroundValue<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: T?

    init(_ body: @escaping @Sendable () -> T) {
        Thread { [self] in
            result = body()
            done.signal()
        }.start()
    }

    var value: T {
        done.wait()
        done.signal()
        return result!
    }
}

/// Runs `count` pieces of work on up to `jobs` threads and returns the results in index order.
///
/// Each thread claims consecutive indices in chunks of a share of what is left, smaller as the work runs
/// out (guided scheduling): neighbouring scenarios, which mostly replay one survey, run on one thread; the
/// shared bookkeeping is taken once a chunk, a few dozen times a run rather than once a piece of work
/// (twice a piece when `progress` is given, to count what is done); and the threads finish within one
/// piece of each other. `makeWorker` gives each thread its own state (a suite run's surveys), made, used
/// and freed on that thread.
enum ParallelMap {
    static func run<Worker, T: Sendable>(
        count: Int, jobs: Int, progress: (@Sendable (Int, Int) -> Void)?, makeWorker: @escaping @Sendable () -> Worker,
        _ body: @escaping @Sendable (inout Worker, Int) -> T
    ) -> (results: [T], claims: Int) {
        let state = ParallelState<T>(count: count, threads: min(jobs, max(count, 1)))
        let group = DispatchGroup()
        for _ in 0..<state.threads {
            group.enter()
            Thread {
                state.hand(work(state, progress: progress, makeWorker: makeWorker, body))
                group.leave()
            }.start()
        }
        group.wait()
        return (state.results, state.claims)
    }

    /// One thread's share: its chunks' results by first index. Its worker is freed when this returns.
    private static func work<Worker, T: Sendable>(
        _ state: ParallelState<T>, progress: (@Sendable (Int, Int) -> Void)?, makeWorker: () -> Worker, _ body: (inout Worker, Int) -> T
    ) -> [(start: Int, results: [T])] {
        var worker = makeWorker()
        var done: [(start: Int, results: [T])] = []
        while let chunk = state.claim() {
            var results: [T] = []
            results.reserveCapacity(chunk.count)
            for index in chunk {
                results.append(body(&worker, index))
                if let progress { progress(state.finishOne(), state.count) }
            }
            done.append((chunk.lowerBound, results))
        }
        return done
    }
}

/// The shared bookkeeping of `ParallelMap`: the next index to hand out and the chunks done.
private final class ParallelState<T: Sendable>: @unchecked Sendable {
    let count: Int
    let threads: Int
    private let lock = NSLock()
    private var next = 0
    private var finished = 0
    private var chunks: [(start: Int, results: [T])] = []
    private var asked = 0

    init(count: Int, threads: Int) {
        self.count = count
        self.threads = threads
    }

    /// The next indices to run: a share of those left, so that the last chunks are single pieces.
    func claim() -> Range<Int>? {
        lock.withLock {
            asked += 1
            guard next < count else { return nil }
            let size = max(1, (count - next) / (2 * threads))
            defer { next += size }
            return next..<next + size
        }
    }

    /// Counts one piece of work done and returns how many are.
    func finishOne() -> Int {
        lock.withLock {
            finished += 1
            return finished
        }
    }

    func hand(_ done: [(start: Int, results: [T])]) {
        lock.withLock { chunks += done }
    }

    /// Times a thread asked for a chunk, the last, empty-handed, ask of each thread included.
    var claims: Int { lock.withLock { asked } }

    var results: [T] {
        lock.withLock { chunks.sorted { $0.start < $1.start }.flatMap(\.results) }
    }
}

extension SuiteRunner {
    /// A path that does not exist but names a scenario as the suite prints it (`fhir-clinic/intake`, with or
    /// without `.scenario`) gets the path it probably meant, and the option that selects by name.
    func suggestingScenarioPath(_ problem: Diagnostic) -> Diagnostic {
        guard let path = problem.file, !path.hasPrefix("/") else { return problem }
        let name = path.hasSuffix(".scenario") ? String(path.dropLast(".scenario".count)) : path
        let candidate = layout.scenariosRoot + "/" + name + ".scenario"
        guard FileManager.default.fileExists(atPath: candidate) else { return problem }
        var suggested = problem
        suggested.hint = "did you mean \(InputFiles.normalize(candidate))? (--filter \(name) selects scenarios by name)"
        return suggested
    }
}
