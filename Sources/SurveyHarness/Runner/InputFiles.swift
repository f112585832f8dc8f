import Foundation
import SurveyCore

/// Reading the files people give the harness, with errors that say which file and what is wrong.
public enum InputFiles {
    /// The whole file, which must be a regular file: a missing file, a symbolic link loop, a directory, a
    /// named pipe, a device, an unreadable file and a file larger than `InputLimits.fileSize` are each an
    /// `InputError` that says which (see `RegularFile`).
    public static func read(_ path: String, limit: Int = InputLimits.standard.fileSize) throws(InputError) -> SourceFile {
        try RegularFile.read(path, limit: limit)
    }

    /// `path` as seen from the folder holding `file`, unless it is absolute; `.` and `..` are resolved
    /// lexically so messages show a clean path.
    public static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return normalize(folder.isEmpty ? path : folder + "/" + path)
    }

    /// The path of `file` as written from inside `folder` (both relative to the current folder or absolute),
    /// e.g. `../surveys/a.json`; absolute when they share no folder but the root.
    public static func relativePath(of file: String, fromFolder folder: String) -> String {
        let fileParts = absolute(file).split(separator: "/")
        let folderParts = absolute(folder).split(separator: "/")
        var common = 0
        while common < min(fileParts.count, folderParts.count), fileParts[common] == folderParts[common] { common += 1 }
        if common == 0 { return absolute(file) }
        let ups = Array(repeating: "..", count: folderParts.count - common)
        return (ups + fileParts[common...].map(String.init)).joined(separator: "/")
    }

    /// The path made absolute against the current folder and normalized.
    public static func absolute(_ path: String) -> String {
        absolute(path, from: FileManager.default.currentDirectoryPath)
    }

    /// The path made absolute against `folder` (an absolute path: the current folder, read once for many
    /// paths) and normalized.
    static func absolute(_ path: String, from folder: String) -> String {
        normalize(path.hasPrefix("/") ? path : folder + "/" + path)
    }

    /// The folder part of a path (`.` for a bare file name).
    public static func folder(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return parts.isEmpty ? "." : (parts.joined(separator: "/").isEmpty ? "/" : parts.joined(separator: "/"))
    }

    /// The last part of a path (the whole path when it has no `/`). Foundation's `NSString` path helpers
    /// are not used: on Linux `deletingLastPathComponent` traps on a one-character name.
    public static func name(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    public static func normalize(_ path: String) -> String {
        if isNormalized(path) { return path }
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// Whether `normalize` gives the path back unchanged, judged from its bytes in one pass: no empty part
    /// (`//`, a trailing `/`), no `.` part, and `..` parts only at the start of a relative path. Most paths
    /// the harness builds (a folder already normalized, a `/`, a file name) are, and are then not split
    /// and joined again. Any path it doubts takes the full route, so the result never depends on it.
    private static func isNormalized(_ path: String) -> Bool {
        if path == "." || path == "/" { return true }
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var bytes = path.utf8.makeIterator()
        guard let first = bytes.next() else { return false }
        let absolute = first == slash
        var leadingUps = !absolute
        var length = absolute ? 0 : 1
        var dots = first == dot ? 1 : 0
        func partFits() -> Bool {
            guard length > 0, !(length == 1 && dots == 1) else { return false }
            if length == 2 && dots == 2 { return leadingUps }
            leadingUps = false
            return true
        }
        while let byte = bytes.next() {
            if byte == slash {
                guard partFits() else { return false }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == dot { dots += 1 }
            }
        }
        return partFits()
    }
}
