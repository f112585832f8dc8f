import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// Fuzz targets for the files around the parsers: what the harness writes (odd names, special files where
/// a file is expected) and what it reads when a path names something that is not a regular file (a named
/// pipe nobody writes to must never be waited on). Each input gets a folder of its own in the temporary
/// folder, with the special file made there, and the folder is removed after.
extension FuzzTargets {
    /// What stands at the path an input names, before the write or the read.
    enum Special: Int, CaseIterable, Sendable {
        case nothing, regular, linkToRegular, danglingLink, linkLoop, folder, device, pipe, pipeWithReader, socket
    }

    static let output = FuzzTarget(
        name: "output", summary: "writing results to odd names and over special files (devices, pipes, links, sockets, folders)", isJSON: false,
        seeds: { _ in
            let names = ["a", "ab", "-", ".x", "x.json", "dir/y.snap", "é.scenario", "a b", "new\nline", "x/", ".", String(repeating: "n", count: 300)]
            return Special.allCases.flatMap { special in names.map { [UInt8(special.rawValue)] + Array($0.utf8) } }
        },
        run: { input in
            guard let first = input.first else { return nil }
            let special = Special.allCases[Int(first) % Special.allCases.count]
            let name = String(decoding: input.dropFirst(), as: UTF8.self)
            // Names that climb out of the folder are left alone: the target writes only inside its own.
            guard !name.split(separator: "/").contains("..") else { return nil }
            return Sandbox.run { sandbox in writeProblem(name: name, over: special, in: sandbox) }
        })

    static let fifo = FuzzTarget(
        name: "fifo", summary: "every reader given a path that is not a regular file, named pipes above all: refused at once, never waited on",
        isJSON: false,
        seeds: { _ in
            let contents = ["{\"questions\": [], \"submit\": {}}", "{\"answers\": {}}", "whenever {} then hidden a\n", "# golden\nstart\n"]
            return Special.allCases.flatMap { special in
                Reader.allCases.flatMap { reader in contents.map { [UInt8(reader.rawValue), UInt8(special.rawValue)] + Array($0.utf8) } }
            }
        },
        run: { input in
            guard input.count >= 2 else { return nil }
            let reader = Reader.allCases[Int(input[0]) % Reader.allCases.count]
            let special = Special.allCases[Int(input[1]) % Special.allCases.count]
            return Sandbox.run { sandbox in readProblem(reader, of: special, content: Array(input.dropFirst(2)), in: sandbox) }
        })

    // MARK: writing

    /// Writes to `name` in the sandbox over `special`, and says what went wrong, if anything: the bytes must
    /// arrive where the path leads (a link stays a link), a device or a pipe must stay what it is, what
    /// cannot be written over (a folder, a socket, a pipe nobody reads, a link loop) must be refused, and a
    /// refusal must name the path and say what was expected.
    static func writeProblem(name: String, over special: Special, in sandbox: Sandbox) -> String? {
        let path = sandbox.path + "/" + name
        guard let made = sandbox.make(special, at: path, content: Array("old\n".utf8)) else { return nil }
        let bytes = Array("survey-replay fuzz output \(name.utf8.count)\n".utf8)
        do {
            try AtomicFile.write(bytes, to: path)
            if name.utf8.contains(0) { return "writing to \(quoted(name)), a name with a NUL byte, succeeded; expected a refusal" }
        } catch {
            guard let refusal = error.diagnostics.first, refusal.file == path, refusal.message.contains("expected") else {
                return "writing over \(special) at \(quoted(name)): an error that does not name the path and what was expected: \(error)"
            }
            // A file the sandbox could make is one the write can replace (a name with a NUL byte is refused:
            // the system would take the shorter name before it).
            let mustWrite: Set<Special> = [.regular, .linkToRegular, .danglingLink, .device, .pipeWithReader]
            return mustWrite.contains(special) && !name.utf8.contains(0) ? "writing over \(special) at \(quoted(name)) was refused: \(refusal.message)" : nil
        }
        switch special {
        case .nothing, .regular, .linkToRegular, .danglingLink:
            let file = made.linkTarget ?? path
            guard (try? RegularFile.read(file).bytes) == bytes else { return "writing over \(special) at \(quoted(name)): \(file) does not hold the bytes written" }
            if special != .nothing, special != .regular, !sandbox.isLink(path) { return "writing over \(special) at \(quoted(name)) replaced the link" }
        case .device:
            if !sandbox.isLink(path) { return "writing over a link to a device at \(quoted(name)) replaced the link" }
        case .pipeWithReader:
            guard sandbox.isPipe(path) else { return "writing into a named pipe at \(quoted(name)) replaced it" }
            guard sandbox.drain(path) == Array("old\n".utf8) + bytes else { return "writing into a named pipe at \(quoted(name)) did not send the bytes into it" }
        case .linkLoop, .folder, .pipe, .socket:
            return "writing over \(special) at \(quoted(name)) succeeded; expected a refusal"
        }
        if let leftover = sandbox.temporaryFiles().first { return "writing over \(special) at \(quoted(name)) left \(leftover)" }
        return nil
    }

    // MARK: reading

    /// The readers of files people name.
    enum Reader: Int, CaseIterable, Sendable {
        case survey, scenarioSurvey, suite, properties, golden, coverage, payload
    }

    /// Reads `special` with `reader`: a regular file is read (what is wrong in it located inside it), and
    /// anything else that exists is refused at once, saying what was expected.
    static func readProblem(_ reader: Reader, of special: Special, content: [UInt8], in sandbox: Sandbox) -> String? {
        let path = sandbox.path + "/special"
        let scenarios = sandbox.path + "/Scenarios"
        // The suite finds the special file as a scenario; the others read it at `path`.
        let at = reader == .suite ? scenarios + "/x.scenario" : path
        guard sandbox.make(special, at: at, content: content) != nil else { return nil }
        var refusal: Diagnostic?
        do throws(InputError) {
            switch reader {
            case .survey: _ = try FormatRegistry.standard.load(InputFiles.read(path))
            case .scenarioSurvey: _ = try ScenarioRunner().load(scenarioAt: try sandbox.write("x.scenario", "survey special\nnext\n"))
            case .suite:
                let result = SuiteRunner(layout: SnapshotLayout(scenariosRoot: scenarios, snapshotsRoot: sandbox.path + "/Snapshots"), mode: .never)
                    .run(paths: [])
                refusal = (result.problems + result.reports.flatMap(\.invalid)).first
            case .properties:
                guard let survey = companion() else { return "the companion survey \(companionSurveyPath) does not load" }
                _ = try PropertiesFile.parse(InputFiles.read(path), survey: survey)
            case .golden: _ = try GoldenFile.read(path)
            case .coverage: _ = try CoverageFile.read(InputFiles.read(path))
            case .payload:
                guard let survey = companion() else { return "the companion survey \(companionSurveyPath) does not load" }
                _ = try survey.answers(inPayload: JSONCursor(node: JSONParser.parse(InputFiles.read(path))))
            }
        } catch {
            refusal = error.diagnostics.first
            if [.regular, .linkToRegular].contains(special), [.survey, .properties, .coverage, .payload].contains(reader) {
                return FuzzOracle.locatedOrProblem(error, in: SourceFile(path: path, bytes: content)).map { "\(reader) of a \(special) file: \($0)" }
            }
        }
        // A folder named like a scenario is a folder to look into, not a file to refuse.
        guard ![.nothing, .regular, .linkToRegular, .danglingLink].contains(special), !(reader == .suite && special == .folder) else { return nil }
        guard let refusal else { return "\(reader) read \(special) as if it were a file; expected a refusal" }
        guard refusal.message.contains("expected") else { return "\(reader) refused \(special) without saying what was expected: \(refusal.message)" }
        return nil
    }

    static func quoted(_ name: String) -> String {
        CanonicalJSON.quote(name)
    }
}

/// A folder of one fuzz input's own, with the special files it needs; removed, and its pipes closed, after.
final class Sandbox {
    let path: String
    /// Descriptors holding pipes open; closed with the sandbox.
    private var held: [Int32] = []

    private init(path: String) {
        self.path = path
    }

    /// Runs `body` in a new sandbox and removes the sandbox after.
    static func run(_ body: (Sandbox) -> String?) -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-replay-fuzz-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else {
            return "cannot make a folder in \(FileManager.default.temporaryDirectory.path)"
        }
        let sandbox = Sandbox(path: path)
        defer {
            sandbox.held.forEach { close($0) }
            try? FileManager.default.removeItem(atPath: path)
        }
        return body(sandbox)
    }

    /// What `make` made: for a link, the file it leads to.
    struct Made {
        var linkTarget: String?
    }

    /// Puts `special` at `path` (making its folder first); nil when the file system will not have it (an
    /// odd name it refuses), which the input then skips.
    func make(_ special: FuzzTargets.Special, at path: String, content: [UInt8]) -> Made? {
        let folder = InputFiles.folder(of: path)
        if special != .nothing, folder != ".", (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) == nil {
            return nil
        }
        let other = self.path + "/.other-\(UUID().uuidString)"
        switch special {
        case .nothing: return Made()
        case .regular: return FileManager.default.createFile(atPath: path, contents: Data(content)) ? Made() : nil
        case .linkToRegular:
            return FileManager.default.createFile(atPath: other, contents: Data(content)) && symlink(other, path) == 0 ? Made(linkTarget: other) : nil
        case .danglingLink: return symlink(other, path) == 0 ? Made(linkTarget: other) : nil
        case .linkLoop: return symlink(path, path) == 0 ? Made() : nil
        case .folder: return mkdir(path, 0o755) == 0 ? Made() : nil
        case .device: return symlink("/dev/null", path) == 0 ? Made() : nil
        case .pipe: return mkfifo(path, 0o644) == 0 ? Made() : nil
        case .pipeWithReader:
            // Held open for reading and writing by this process (Linux lets one descriptor hold both ends),
            // with the content waiting in it: a pipe someone reads, and has written into.
            guard mkfifo(path, 0o644) == 0 else { return nil }
            let descriptor = open(path, O_RDWR | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            held.append(descriptor)
            _ = content.prefix(4_096).withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            return Made()
        case .socket: return bindSocket(at: path) ? Made() : nil
        }
    }

    private func bindSocket(at path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    func write(_ name: String, _ text: String) throws(InputError) -> String {
        let path = self.path + "/" + name
        try AtomicFile.write(text, to: path)
        return path
    }

    func isLink(_ path: String) -> Bool { kind(path) == S_IFLNK }
    func isPipe(_ path: String) -> Bool { kind(path) == S_IFIFO }

    private func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// What is waiting in a named pipe, read without blocking.
    func drain(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// Temporary files of writes left in the sandbox.
    func temporaryFiles() -> [String] {
        (FileManager.default.subpaths(atPath: path) ?? []).filter { InputFiles.name(of: $0).contains(".tmp-") }
    }
}
