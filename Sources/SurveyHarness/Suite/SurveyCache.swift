import SurveyCore
import SurveyFormats

/// The surveys one thread of a suite run has loaded, each loaded once however many of its scenarios use
/// it. Every thread keeps its own, without a lock: a survey's objects are then retained and released by
/// the one thread that replays it (shared, each copy of a survey's values moved a cache line from core to
/// core), and freed by the thread that allocated them.
struct SurveyCache {
    private let registry: FormatRegistry
    private var surveys: [String: Result<any Survey, InputError>] = [:]

    init(registry: FormatRegistry) {
        self.registry = registry
    }

    mutating func survey(at path: String) throws(InputError) -> any Survey {
        if let cached = surveys[path] { return try cached.get() }
        let loaded: Result<any Survey, InputError>
        do throws(InputError) {
            loaded = .success(try registry.load(InputFiles.read(path)))
        } catch {
            loaded = .failure(error)
        }
        surveys[path] = loaded
        return try loaded.get()
    }
}
