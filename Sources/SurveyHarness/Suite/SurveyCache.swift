import Foundation
import SurveyCore
import SurveyFormats

/// Surveys loaded once per run, however many scenarios (and threads) use them.
final class SurveyCache: @unchecked Sendable {
    private let lock = NSLock()
    private var surveys: [String: Result<any Survey, InputError>] = [:]
    private let registry: FormatRegistry

    init(registry: FormatRegistry) {
        self.registry = registry
    }

    func survey(at path: String) throws(InputError) -> any Survey {
        if let cached = lock.withLock({ surveys[path] }) { return try cached.get() }
        let loaded: Result<any Survey, InputError>
        do throws(InputError) {
            loaded = .success(try registry.load(InputFiles.read(path)))
        } catch {
            loaded = .failure(error)
        }
        lock.withLock { surveys[path] = loaded }
        return try loaded.get()
    }
}
