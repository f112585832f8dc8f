import Foundation
import Testing
import SurveyCore
@testable import SurveyHarness

@Suite("Suite runner: work shared between threads")
struct SuiteRunnerTests {
    /// What each worker of a `ParallelMap` run was given, in the order it ran them.
    private final class Workers: @unchecked Sendable {
        final class Log {
            var indices: [Int] = []
        }
        private let lock = NSLock()
        private var made: [Log] = []

        func make() -> Log {
            let log = Log()
            lock.withLock { made.append(log) }
            return log
        }

        var logs: [[Int]] { lock.withLock { made.map(\.indices) } }
    }

    private func map(count: Int, jobs: Int) -> (results: [Int], claims: Int, workers: [[Int]]) {
        let workers = Workers()
        let (results, claims) = ParallelMap.run(count: count, jobs: jobs, progress: nil, makeWorker: workers.make) { log, index in
            log.indices.append(index)
            return index * 7
        }
        return (results, claims, workers.logs)
    }

    @Test("every piece runs once, on one worker a thread, and the results come back in index order", arguments: [1, 2, 3, 4])
    func resultsInIndexOrder(jobs: Int) {
        for count in [0, 1, 5, 2_000] {
            let (results, _, workers) = map(count: count, jobs: jobs)
            #expect(results == (0..<count).map { $0 * 7 })
            #expect(workers.count == min(jobs, max(count, 1)))
            #expect(workers.joined().sorted() == Array(0..<count))
        }
    }

    @Test("2,000 pieces on two threads take the shared bookkeeping a few dozen times, not once a piece")
    func chunksNotPieces() {
        let (_, claims, workers) = map(count: 2_000, jobs: 2)
        // Chunks of a quarter of what is left: about 4 ln(2000/4) of them, then single pieces, then each
        // thread's empty-handed ask.
        #expect(claims <= 40)
        // A worker's pieces come in runs of consecutive indices, one a chunk at most: neighbouring scenarios,
        // which share a survey, stay on one thread.
        let runs = workers.map { indices in zip(indices, indices.dropFirst()).filter { $0 + 1 != $1 }.count + (indices.isEmpty ? 0 : 1) }
        #expect(runs.reduce(0, +) <= claims)
    }

    @Test("progress counts every piece once, up to the total")
    func progressCountsEachPiece() {
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var seen: [String] = []
        }
        let calls = Calls()
        _ = ParallelMap.run(count: 300, jobs: 3, progress: { done, total in calls.lock.withLock { calls.seen.append("\(done)/\(total)") } }, makeWorker: {}) {
            _, index in index
        }
        #expect(Set(calls.seen) == Set((1...300).map { "\($0)/300" }))
        #expect(calls.seen.count == 300)
    }

    @Test("a suite reports the same with one job and with three, a survey that does not load and a stale scenario included")
    func sameReportsWhateverTheJobs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-suite-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layout = SnapshotLayout(scenariosRoot: folder + "/Scenarios", snapshotsRoot: folder + "/Snapshots")
        for group in 0..<6 {
            let path = layout.scenariosRoot + "/g\(group)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try (group == 4 ? "{\"questions\": [" : Fixtures.surveyJSON).write(toFile: path + "/smoking.json", atomically: true, encoding: .utf8)
            for index in 0..<9 {
                let answer = index == 8 ? "answer smokr \"No\"" : "answer smoker \"\(index % 2 == 0 ? "Yes" : "No")\""
                try "survey smoking.json\n\(answer)\n".write(toFile: path + "/s\(index).scenario", atomically: true, encoding: .utf8)
            }
        }
        _ = SuiteRunner(layout: layout, mode: .all, jobs: 2).run(paths: [])
        func summary(jobs: Int) -> [String] {
            SuiteRunner(layout: layout, mode: .never, jobs: jobs).run(paths: []).reports.map { report in
                "\(report.name) \(report.passed) \(report.invalid.map(\.description)) \(report.golden.map { "\($0)" } ?? "-")"
            }
        }
        let one = summary(jobs: 1)
        #expect(one.count == 54)
        #expect(one.filter { $0.contains(" true ") }.count == 40)
        #expect(summary(jobs: 3) == one)
    }
}
