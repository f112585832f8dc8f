import Foundation
import SurveyCore

/// Reading the files people give the harness, with errors that say which file and what is wrong.
public enum InputFiles {
    /// The whole file; a missing file, a directory or an unreadable file is an `InputError`.
    public static func read(_ path: String) throws(InputError) -> SourceFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(Diagnostic(file: path, position: nil, message: "no such file; expected a readable file at this path"))
        }
        if isDirectory.boolValue {
            throw InputError(Diagnostic(file: path, position: nil, message: "is a directory; expected a file"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(Diagnostic(file: path, position: nil, message: "cannot be read (check its permissions); expected a readable file"))
        }
        return SourceFile(path: path, bytes: [UInt8](data))
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
        normalize(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }

    /// The folder part of a path (`.` for a bare file name).
    public static func folder(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return parts.isEmpty ? "." : (parts.joined(separator: "/").isEmpty ? "/" : parts.joined(separator: "/"))
    }

    public static func normalize(_ path: String) -> String {
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
}
