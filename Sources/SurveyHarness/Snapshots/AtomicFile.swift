import Foundation
import SurveyCore

/// Writes that a crash or a kill cannot leave half-done: the bytes go to a temporary file in the same
/// folder, are flushed to disk, and the temporary file is renamed over the target in one step.
///
/// Only a regular file (or a path where nothing is yet) is replaced so. A device or a named pipe (`-o
/// /dev/null`, a pipe a process reads) is written in place, and a path naming one of this process's open
/// files (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`) is written to that descriptor: renaming over them
/// would turn them into regular files, so that nothing reaches the reader (and, as root, the device is
/// gone). A symbolic link to a regular file stays a link: the file it names is replaced. A directory, a
/// socket, a block device and a symbolic link loop are refused.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(InputError) {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(InputError) {
        func refuse(_ message: String) -> InputError { InputError(Diagnostic(file: path, position: nil, message: message)) }
        if let problem = RegularFile.problem(with: path) { throw refuse(problem) }
        let name = InputFiles.name(of: path)
        guard !name.isEmpty, name != ".", name != ".." else { throw refuse("does not name a file; expected a file name at the end of the path") }
        if let number = descriptor(named: path) {
            if let failure = writeAll(bytes, to: number) { throw refuse("cannot write (\(String(cString: strerror(failure)))); expected an output that takes bytes") }
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFCHR, S_IFIFO:
                try writeInPlace(bytes, to: path)
                return
            case S_IFDIR:
                throw refuse("is a directory; expected a file to write")
            case S_IFBLK:
                throw refuse("is a block device; expected a file (survey-replay never writes to a disk device)")
            default:
                throw refuse("is a socket; expected a file, a device or a named pipe to write to")
            }
        } else if errno != ENOENT {
            throw refuse(RegularFile.unreachable(errno))
        }
        // A link to a regular file: replace the file it names, keeping the link.
        let target = linkTarget(of: path) ?? path
        let folder = InputFiles.folder(of: target)
        if folder != "." {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw refuse("cannot create its folder \(folder) (\(error.localizedDescription)); expected a folder that can hold the file")
            }
        }
        let temporary = (folder == "." ? "" : folder + "/") + ".\(shortened(InputFiles.name(of: target))).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw refuse("cannot write here (\(String(cString: strerror(errno)))); expected a writable folder and a name the file system takes") }
        let stop = StopPoint(name: name)
        var failure = writeAll(Array(bytes.prefix(stop?.bytes ?? bytes.count)), to: descriptor)
        if let stop, stop.bytes <= bytes.count {
            stop.reach()
            if failure == nil { failure = writeAll(Array(bytes.dropFirst(stop.bytes)), to: descriptor) }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary, target) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw refuse("cannot write (\(String(cString: strerror(failure)))); expected a writable file")
        }
        if let stop, stop.bytes > bytes.count { stop.reach() }
    }

    /// A name cut to at most 200 bytes (whole characters), so that the temporary file's name, which adds to
    /// it, stays within the 255 bytes a file system allows when the target's own name is long.
    private static func shortened(_ name: String) -> String {
        var kept = ""
        for character in name {
            guard kept.utf8.count + character.utf8.count <= 200 else { break }
            kept.append(character)
        }
        return kept
    }

    /// Writes every byte to an open descriptor; the `errno` of a failure, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var written = 0
        return bytes.withUnsafeBytes { buffer -> Int32? in
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
    }

    /// A device or a named pipe, written where it is. A pipe nobody reads is refused rather than waited on.
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(InputError) {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let message = errno == ENXIO
                ? "is a named pipe (FIFO) that no process reads; expected a reader on it, or a file"
                : "cannot write (\(String(cString: strerror(errno)))); expected a writable file"
            throw InputError(Diagnostic(file: path, position: nil, message: message))
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        if let failure = writeAll(bytes, to: descriptor) {
            throw InputError(Diagnostic(file: path, position: nil, message: "cannot write (\(String(cString: strerror(failure)))); expected a writable file"))
        }
    }

    /// The descriptor of this process that a path names (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
    /// `/proc/self/fd/N`, or a link to one of them), when it is open.
    public static func descriptor(named path: String) -> Int32? {
        var candidates = [InputFiles.absolute(path)]
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        if length > 0 {
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            candidates.append(InputFiles.normalize(target.hasPrefix("/") ? target : InputFiles.folder(of: InputFiles.absolute(path)) + "/" + target))
        }
        for candidate in candidates {
            let number: Int32?
            switch candidate {
            case "/dev/stdout": number = STDOUT_FILENO
            case "/dev/stderr": number = STDERR_FILENO
            default:
                let prefixes = ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"]
                number = prefixes.first(where: candidate.hasPrefix).flatMap { Int32(candidate.dropFirst($0.count)) }
            }
            if let number, fcntl(number, F_GETFD) != -1 { return number }
        }
        return nil
    }

    /// Where a symbolic link ends (following a chain of them), or nil when `path` is not a link. A link to
    /// nothing yet ends at the path it names, which the write creates, as a shell's `>` does.
    private static func linkTarget(of path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current == path ? nil : current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return nil }
            let text = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = text.hasPrefix("/") ? text : InputFiles.folder(of: current) + "/" + text
        }
        return nil
    }

    /// Removes, under `folder`, the temporary files of writes that never finished: those whose process is
    /// gone (killed in the middle of a write). A live process's temporary files are left alone, so two runs
    /// at once never disturb each other. Returns the paths removed, sorted.
    public static func removeAbandoned(under folder: String) -> [String] {
        guard let paths = FileManager.default.enumerator(atPath: folder) else { return [] }
        var removed: [String] = []
        for case let relative as String in paths {
            guard let process = writer(ofTemporary: InputFiles.name(of: relative)), kill(process, 0) != 0, errno == ESRCH else { continue }
            let path = folder + "/" + relative
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed.sorted()
    }

    /// The process id in a temporary file's name (`.NAME.tmp-PID-RANDOM`), or nil for any other name.
    static func writer(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-")
        guard parts.count == 2, let process = pid_t(parts[0]), process > 0, UInt32(parts[1]) != nil else { return nil }
        return process
    }

    /// Removes a file if it exists.
    public static func remove(_ path: String) {
        unlink(path)
    }

    /// Moves a file over another in one step.
    public static func move(_ source: String, to destination: String) throws(InputError) {
        guard rename(source, destination) == 0 else {
            throw InputError(Diagnostic(file: source, position: nil, message: "cannot move to \(destination): \(String(cString: strerror(errno)))"))
        }
    }
}

/// A fault-injection point for the crash-safety test: with `SURVEY_REPLAY_STOP_AT=NAME@BYTES` in the
/// environment, the write of a file named NAME stops the whole process (SIGSTOP) once BYTES bytes of its
/// temporary file are written, or just after the rename when BYTES is larger than the file. The test then
/// kills the stopped process, so every kill lands at a chosen point of a write, however busy the machine.
private struct StopPoint {
    static let variable = "SURVEY_REPLAY_STOP_AT"
    let bytes: Int

    init?(name: String) {
        guard let value = getenv(Self.variable).map({ String(cString: $0) }), let at = value.lastIndex(of: "@"),
            value[..<at] == name, let bytes = Int(value[value.index(after: at)...]), bytes >= 0
        else { return nil }
        self.bytes = bytes
    }

    func reach() {
        raise(SIGSTOP)
    }
}
