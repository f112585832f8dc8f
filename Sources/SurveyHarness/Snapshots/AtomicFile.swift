import Foundation
import SurveyCore

/// Writes that a crash or a kill cannot leave half-done: the bytes go to a temporary file in the same
/// folder, are flushed to disk, and the temporary file is renamed over the target in one step.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(InputError) {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(InputError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw InputError(Diagnostic(file: folder, position: nil, message: "cannot create this folder: \(error.localizedDescription)"))
            }
        }
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw InputError(Diagnostic(file: path, position: nil, message: "cannot write here: \(String(cString: strerror(errno)))"))
        }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += result
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw InputError(Diagnostic(file: path, position: nil, message: "cannot write: \(String(cString: strerror(failure)))"))
        }
    }

    /// Removes, under `folder`, the temporary files of writes that never finished: those whose process is
    /// gone (killed in the middle of a write). A live process's temporary files are left alone, so two runs
    /// at once never disturb each other. Returns the paths removed, sorted.
    public static func removeAbandoned(under folder: String) -> [String] {
        guard let paths = FileManager.default.enumerator(atPath: folder) else { return [] }
        var removed: [String] = []
        for case let relative as String in paths {
            let name = (relative as NSString).lastPathComponent
            guard let process = writer(ofTemporary: name), kill(process, 0) != 0, errno == ESRCH else { continue }
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
