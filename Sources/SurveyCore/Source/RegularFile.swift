import Foundation

/// Reading an input file safely: only a regular file is read. A named pipe, a device, a socket or a
/// directory is refused before anything is read (a pipe nobody writes to would wait forever), the file is
/// opened without blocking and checked again once open (it may have been swapped), and reading stops at the
/// size limit.
public enum RegularFile {
    public static func read(_ path: String, limit: Int = InputLimits.standard.fileSize) throws(InputError) -> SourceFile {
        func refuse(_ message: String) -> InputError { InputError(Diagnostic(file: path, position: nil, message: message)) }
        if let problem = problem(with: path) { throw refuse(problem) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw refuse(unreachable(errno)) }
        if let kind = kind(of: info.st_mode) { throw refuse(kind) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw refuse(errno == EACCES ? "cannot be read (check its permissions); expected a readable file" : unreachable(errno))
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw refuse("cannot be read (\(String(cString: strerror(errno)))); expected a readable file") }
        if let kind = kind(of: info.st_mode) { throw refuse(kind) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw refuse("cannot be read (\(String(cString: strerror(errno)))); expected a readable file")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        if bytes.count > limit {
            let size = InputLimits.describe(bytes: limit)
            throw refuse("is larger than \(size); expected a file of at most \(size) (the harness's limit on input files)")
        }
        return SourceFile(path: path, bytes: bytes)
    }

    /// What makes a path unusable before the file system is asked: empty, or with a NUL byte (the system
    /// would read it as the shorter path before the NUL, another file).
    public static func problem(with path: String) -> String? {
        if path.isEmpty { return "an empty path; expected a file's path" }
        if path.utf8.contains(0) { return "a path with a NUL byte; expected a path without one" }
        return nil
    }

    /// Why a file that is not a regular file is refused, or nil for a regular file.
    public static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory; expected a file"
        case S_IFIFO: "is a named pipe (FIFO); expected a regular file (reading a pipe may wait forever)"
        case S_IFCHR: "is a character device; expected a regular file"
        case S_IFBLK: "is a block device; expected a regular file"
        case S_IFSOCK: "is a socket; expected a regular file"
        default: "is not a regular file; expected one"
        }
    }

    /// Why a path cannot be reached, from the `errno` of `stat` or `open`.
    public static func unreachable(_ code: Int32) -> String {
        switch code {
        case ELOOP: "is a symbolic link loop; expected a link that ends at a file"
        case EACCES: "cannot be reached (check the permissions of its folders); expected a readable file"
        case ENOTDIR: "has a part that is not a folder; expected a path through folders to a file"
        case ENAMETOOLONG: "is too long a path; expected a shorter one"
        default: "no such file; expected a readable file at this path"
        }
    }
}
