import Foundation
import SurveyCore
import SurveyFormats

/// The workloads of `survey-replay bench`. Each returns a figure; the command repeats them and reports
/// minimum, median and maximum. Single-threaded workloads are timed by the thread's CPU time, which other
/// work on a shared machine does not stretch; suites, which run on several threads, by the wall clock.
public struct Benchmark {
    public let settings: SessionSettings

    public init(settings: SessionSettings = SessionSettings()) {
        self.settings = settings
    }

    /// Seconds to parse and load a survey file's bytes (not counting freeing it afterwards).
    public func loadSeconds(_ file: SourceFile) -> Double {
        let start = ProcessMeter.threadCPUNow()
        let survey = try? FormatRegistry.standard.load(file)
        let seconds = ProcessMeter.threadCPUSeconds(since: start)
        withExtendedLifetime(survey) {}
        return seconds
    }

    /// Walk steps a second over `steps` steps of walks (seeded, so the same walks each run), or over the walks
    /// that end within `budget` seconds when that comes first (at least one walk), for slow engines.
    public func walkStepsPerSecond(
        _ survey: any Survey, builtInProperties: Bool, steps: Int, budget: Double = .infinity, maxSteps: Int = 100, seed: UInt64 = 1
    ) -> Double {
        var walker = Walker(survey: survey, settings: settings, maxSteps: maxSteps, builtInProperties: builtInProperties, properties: nil)
        var done = 0
        var walk = 0
        let start = ProcessMeter.threadCPUNow()
        while done < steps, walk == 0 || ProcessMeter.threadCPUSeconds(since: start) < budget {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(seed, walk: walk)))
            done += walker.walk(&stream).actions.count
            walk += 1
        }
        return Double(done) / ProcessMeter.threadCPUSeconds(since: start)
    }

    /// Steps a second of `fuzz` end to end: `walks` seeded walks with every check (the built-in properties
    /// after each step; replay, read back and Submit reachable after each walk) and the shrinking of what
    /// they find.
    public func fuzzStepsPerSecond(_ survey: any Survey, walks: Int) -> Double {
        let start = ProcessMeter.threadCPUNow()
        let result = Fuzzer(survey: survey, configuration: .init(walks: walks, seed: 1, maxSteps: 100, settings: settings)).run()
        return Double(result.steps) / ProcessMeter.threadCPUSeconds(since: start)
    }

    /// The actions of seeded walks, to replay.
    public func walkActions(_ survey: any Survey, walks: Int, maxSteps: Int = 100, seed: UInt64 = 1) -> [[Action]] {
        var walker = Walker(survey: survey, settings: settings, maxSteps: maxSteps, builtInProperties: false, properties: nil)
        return (0..<walks).map { walk in
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(seed, walk: walk)))
            return walker.walk(&stream).actions
        }
    }

    /// Replayed steps a second: fixed action lists performed on fresh sessions, reading what a trace reads.
    public func replayStepsPerSecond(_ survey: any Survey, actions: [[Action]]) -> Double {
        var steps = 0
        let start = ProcessMeter.threadCPUNow()
        for list in actions {
            let session = survey.makeSession(settings)
            for action in list {
                _ = session.perform(action)
                _ = Trace.View(of: session)
                steps += 1
            }
        }
        return Double(steps) / ProcessMeter.threadCPUSeconds(since: start)
    }

    /// Resident memory after 100,000 and after 1,000,000 walk steps with statistics streamed, and the peak.
    public func walkMemory(_ survey: any Survey) -> (at100k: Int, at1M: Int, peak: Int)? {
        var walker = Walker(survey: survey, settings: settings, maxSteps: 100, builtInProperties: false, properties: nil)
        var paths: Set<UInt64> = []
        var done = 0
        var walk = 0
        var at100k = 0
        while done < 1_000_000 {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(1, walk: walk)))
            let outcome = walker.walk(&stream)
            paths.insert(outcome.path)
            done += outcome.actions.count
            walk += 1
            if at100k == 0, done >= 100_000 { at100k = ProcessMeter.memory()?.resident ?? 0 }
        }
        guard let end = ProcessMeter.memory() else { return nil }
        return (at100k, end.resident, end.peak)
    }

    /// Seconds to run a scenario suite against its goldens (nothing recorded), averaged over `repeats` runs.
    public func suiteSeconds(_ layout: SnapshotLayout, jobs: Int, repeats: Int = 1) -> (seconds: Double, scenarios: Int) {
        let start = ProcessMeter.now()
        var scenarios = 0
        for _ in 0..<repeats {
            scenarios = SuiteRunner(layout: layout, mode: .never, jobs: jobs).run(paths: []).reports.count
        }
        return (ProcessMeter.seconds(since: start) / Double(repeats), scenarios)
    }

    /// A suite of at least `count` scenarios, made by copying the suite under `scenariosRoot` into a
    /// temporary folder (with its goldens recorded), for measuring `--jobs`. Removed by the caller.
    public func copiedSuite(of scenariosRoot: String, count: Int) -> SnapshotLayout? {
        let (files, _) = ScenarioDiscovery.find([scenariosRoot], extension: "scenario")
        guard !files.isEmpty else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-bench-\(ProcessInfo.processInfo.processIdentifier)").path
        let layout = SnapshotLayout(scenariosRoot: folder + "/Scenarios", snapshotsRoot: folder + "/Snapshots")
        let copies = (count + files.count - 1) / files.count
        for copy in 0..<copies {
            try? FileManager.default.createDirectory(atPath: layout.scenariosRoot, withIntermediateDirectories: true)
            try? FileManager.default.copyItem(atPath: scenariosRoot, toPath: layout.scenariosRoot + "/copy\(copy)")
        }
        _ = SuiteRunner(layout: layout, mode: .all, jobs: 2).run(paths: [])
        return layout
    }
}
