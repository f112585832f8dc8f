import Foundation
import SurveyCore

/// Runs a target's inputs in a child process, so a crash or a hang is caught, not suffered: the child
/// reports each run's number before running it; when it dies, exits with a failure, or stops reporting, the
/// last number names the input, which is saved and can be made again on its own (`--run N`).
public struct FuzzCampaign {
    public struct Configuration: Sendable {
        /// The program to start as the child (this executable), and the arguments before the child's own.
        public var executable: String
        public var commandPrefix: [String]
        public var seed: UInt64
        /// Stop after this many runs, or after this long, whichever comes first.
        public var runs: Int
        public var seconds: Double
        /// A run that takes longer is a hang.
        public var hangSeconds: Double
        public var corpus: String
        /// Where failing inputs are saved.
        public var failuresFolder: String

        public init(
            executable: String, commandPrefix: [String], seed: UInt64, runs: Int, seconds: Double, hangSeconds: Double = 10, corpus: String,
            failuresFolder: String
        ) {
            self.executable = executable
            self.commandPrefix = commandPrefix
            self.seed = seed
            self.runs = runs
            self.seconds = seconds
            self.hangSeconds = hangSeconds
            self.corpus = corpus
            self.failuresFolder = failuresFolder
        }
    }

    /// An input that crashed, hung or failed a check.
    public struct Failure: Sendable {
        public var run: Int
        public var kind: String
        public var message: String
        public var savedAt: String?
    }

    public struct Result: Sendable {
        public var target: String
        public var runs = 0
        public var seconds = 0.0
        public var failures: [Failure] = []
    }

    public let target: FuzzTarget
    public let configuration: Configuration

    public init(target: FuzzTarget, configuration: Configuration) {
        self.target = target
        self.configuration = configuration
    }

    public func run() -> Result {
        var result = Result(target: target.name)
        let start = Date()
        var next = 0
        let mutator = Mutator(seeds: target.seeds(configuration.corpus), isJSON: target.isJSON)
        while next < configuration.runs, Date().timeIntervalSince(start) < configuration.seconds {
            let remaining = configuration.seconds - Date().timeIntervalSince(start)
            let outcome = runChild(from: next, until: configuration.runs, deadline: Date().addingTimeInterval(max(0, remaining)))
            result.runs += outcome.completed
            guard var failure = outcome.failure else { break }
            guard failure.run >= 0 else {
                failure.kind = "the child process"
                failure.message = "it stopped before its first input: " + failure.message
                result.failures.append(failure)
                break
            }
            let input = mutator.input(seed: configuration.seed, run: failure.run)
            let path = configuration.failuresFolder + "/\(target.name)-seed\(configuration.seed)-run\(failure.run).input"
            if (try? FileManager.default.createDirectory(atPath: configuration.failuresFolder, withIntermediateDirectories: true)) != nil,
                FileManager.default.createFile(atPath: path, contents: Data(input))
            {
                failure.savedAt = path
            }
            result.failures.append(failure)
            next = failure.run + 1
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// One child from run `first` on; how many runs it finished, and the failure that stopped it, if any.
    private func runChild(from first: Int, until last: Int, deadline: Date) -> (completed: Int, failure: Failure?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: configuration.executable)
        process.arguments = configuration.commandPrefix + [
            target.name, "--child", "--seed", String(configuration.seed), "--from", String(first), "--runs", String(last),
            "--corpus", configuration.corpus,
        ]
        let progress = Pipe()
        let errors = Pipe()
        process.standardOutput = progress
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return (0, Failure(run: first, kind: "start", message: "cannot start \(configuration.executable): \(error)"))
        }
        let descriptor = progress.fileHandleForReading.fileDescriptor
        var current = first - 1
        var buffer = [UInt8](repeating: 0, count: 8 * 512)
        var pending: [UInt8] = []
        var lastProgress = Date()
        var stoppedByUs = false
        var hung = false
        reading: while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready > 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break reading }
                pending += buffer[0..<count]
                while pending.count >= 8 {
                    current = pending[0..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                    pending.removeFirst(8)
                }
                lastProgress = Date()
            }
            if Date() >= deadline {
                stoppedByUs = true
                break reading
            }
            if Date().timeIntervalSince(lastProgress) > configuration.hangSeconds {
                hung = true
                break reading
            }
        }
        if stoppedByUs || hung { process.terminate() }
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let completed = max(0, current - first)
        if hung {
            return (completed, Failure(run: current, kind: "hang", message: "no result after \(Int(configuration.hangSeconds)) s"))
        }
        if stoppedByUs { return (completed + 1, nil) }
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0): return (last - first, nil)
        case (.exit, 3): return (completed, Failure(run: current, kind: "failed check", message: message))
        case (.uncaughtSignal, let signal):
            return (completed, Failure(run: current, kind: "crash (signal \(signal))", message: Self.lastLines(message)))
        case (_, let status):
            return (completed, Failure(run: current, kind: "crash (exit \(status))", message: Self.lastLines(message)))
        }
    }

    /// The lines of a crash report that say what happened and where: the fatal error and the first frames in
    /// the project's own code.
    private static func lastLines(_ text: String) -> String {
        let lines = text.split(separator: "\n").map(String.init)
        let cause = lines.filter { $0.contains("Fatal error") || $0.contains("fatal error") || $0.contains("ERROR: AddressSanitizer") }.prefix(1)
        let frames = lines.filter { $0.contains(" at /") && $0.contains("/Sources/") }.prefix(3).map { line in
            line.range(of: " at /").map { String(line[$0.lowerBound...]) }.map { "  " + $0 } ?? line
        }
        let picked = Array(cause) + frames
        return picked.isEmpty ? lines.suffix(4).joined(separator: "\n") : picked.joined(separator: "\n")
    }

    /// The child's loop: each run's number, little-endian, on standard output, then the run. A failed
    /// check ends the child with exit code 3 and the message on standard error.
    public static func child(target: FuzzTarget, seed: UInt64, from first: Int, until last: Int, corpus: String) -> Int32 {
        let mutator = Mutator(seeds: target.seeds(corpus), isJSON: target.isJSON)
        var run = first
        while run < last {
            var number = UInt64(run).littleEndian
            let wrote = withUnsafeBytes(of: &number) { write(1, $0.baseAddress, 8) }
            guard wrote == 8 else { return 1 }
            if let problem = target.run(mutator.input(seed: seed, run: run)) {
                FileHandle.standardError.write(Data("run \(run): \(problem)\n".utf8))
                return 3
            }
            run += 1
        }
        return 0
    }
}
