import SurveyCore

/// A static site as files: each page's path under the output folder and its bytes. Written through
/// `AtomicFile`, so an interrupted run leaves every page old or new; the same input gives the same bytes.
public struct ReportSite: Sendable, Equatable {
    /// Page paths relative to the site's folder (`index.html`, `scenarios/checkin--happy-path.html`) and text.
    public private(set) var pages: [String: String] = [:]

    public init() {}

    mutating func add(_ path: String, _ text: String) {
        pages[path] = text
    }

    /// Writes every page under `folder`, in path order.
    public func write(to folder: String) throws(InputError) {
        for path in pages.keys.sorted() {
            try AtomicFile.write(pages[path]!, to: folder + "/" + path)
        }
    }
}

/// File names for the site's pages, one per scenario, survey or fuzz run: readable, safe in a URL and on
/// every file system, and distinct even when two names differ only in characters a file name cannot hold.
struct PageNames: Sendable {
    private var names: [String: String] = [:]
    private var taken: Set<String> = []

    /// Registers keys in the order given (callers pass them sorted, so names do not depend on run order).
    mutating func register(_ key: String, folder: String) {
        guard names[key] == nil else { return }
        var base = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": base.unicodeScalars.append(scalar)
            case "/": base += "--"
            case ".": base += base.isEmpty || base.hasSuffix("--") ? "" : "."
            default: base += "_"
            }
        }
        base = String(base.drop { $0 == "-" || $0 == "." }.prefix(120))
        if base.isEmpty { base = "page" }
        var name = "\(folder)/\(base).html"
        var number = 2
        while taken.contains(name.lowercased()) {
            name = "\(folder)/\(base)-\(number).html"
            number += 1
        }
        taken.insert(name.lowercased())
        names[key] = name
    }

    /// The page's path from the site's folder.
    func path(_ key: String) -> String? { names[key] }
}
