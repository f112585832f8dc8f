import Foundation
import SurveyCore

/// Finds files by extension under the paths given: files as they are, folders recursively in sorted order,
/// following symbolic links but never around a loop (reported as an error).
public enum ScenarioDiscovery {
    public static func find(_ paths: [String], extension suffix: String) -> (files: [String], problems: [Diagnostic]) {
        find(paths, extensions: [suffix])
    }

    /// Files with any of these extensions (without the dot), in one walk.
    public static func find(_ paths: [String], extensions suffixes: [String]) -> (files: [String], problems: [Diagnostic]) {
        let suffix = suffixes.joined(separator: " or .")
        var files: [String] = []
        var problems: [Diagnostic] = []
        var visited: Set<FileID> = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                let reason = errno == ELOOP ? "is a symbolic link loop" : "no such file or folder"
                problems.append(Diagnostic(file: path, position: nil, message: "\(reason); expected a .\(suffix) file or a folder of them"))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, suffixes: suffixes, ancestors: [], visited: &visited, files: &files, problems: &problems)
            } else {
                files.append(InputFiles.normalize(path))
            }
        }
        return (files, problems)
    }

    private struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static func walk(
        _ folder: String, suffixes: [String], ancestors: [FileID], visited: inout Set<FileID>, files: inout [String],
        problems: inout [Diagnostic]
    ) {
        var info = stat()
        guard stat(folder, &info) == 0 else { return }
        let id = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if ancestors.contains(id) {
            problems.append(Diagnostic(file: folder, position: nil, message: "a symbolic link loop: this folder leads back to one that contains it; expected folders without cycles"))
            return
        }
        guard visited.insert(id).inserted else { return }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            problems.append(Diagnostic(file: folder, position: nil, message: "cannot list this folder; check its permissions"))
            return
        }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = InputFiles.normalize(folder + "/" + entry)
            var entryInfo = stat()
            guard stat(path, &entryInfo) == 0 else {
                if errno == ELOOP {
                    problems.append(Diagnostic(file: path, position: nil, message: "is a symbolic link loop; expected a file or folder"))
                }
                continue
            }
            if entryInfo.st_mode & S_IFMT == S_IFDIR {
                walk(path, suffixes: suffixes, ancestors: ancestors + [id], visited: &visited, files: &files, problems: &problems)
            } else if suffixes.contains(where: { entry.hasSuffix("." + $0) }) {
                files.append(path)
            }
        }
    }
}
