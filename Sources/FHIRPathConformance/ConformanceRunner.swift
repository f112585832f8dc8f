import FHIRPath
import Foundation
import SurveyCore

/// Runs tests of the official suite against the engine and says, for each, whether it passed and why not.
///
/// A test passes when: it expects an error (`invalid`) and compiling or evaluating throws one, of any kind
/// (the suite's kinds are not consistent with each other: `'a' - 'b'` is marked execution where
/// `@1974-12-25 + 7` is semantic), or it gives the outputs the test lists, which three error tests also
/// allow; otherwise when it gives exactly the outputs, in order unless `ordered="false"`, each with the
/// type the suite names (when it names one) and the same text.
public struct ConformanceRunner {
    public enum Outcome: Sendable, Equatable {
        case passed
        /// Passed, but the error was of another kind than the suite names.
        case passedWithOtherErrorKind(expected: String, actual: String)
        case failed(String)

        public var passed: Bool {
            if case .failed = self { return false }
            return true
        }
    }

    /// The folder with the suite's input files (`patient-example.json` for `patient-example.xml`).
    public let folder: String
    private var trees: [String: FHIRTree] = [:]

    public init(folder: String) throws {
        self.folder = folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasSuffix(".json") {
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let file = SourceFile(path: path, bytes: Array(data))
            trees[String(name.dropLast(".json".count))] = FHIRTree(json: try JSONParser.parse(file))
        }
    }

    /// The input tree of a test (its XML name read as the JSON file of the same base name).
    public func input(of test: ConformanceSuite.Test) -> FHIRTree? {
        guard let file = test.inputFile else { return nil }
        let base = file.hasSuffix(".xml") ? String(file.dropLast(4)) : file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        return trees[base]
    }

    /// The options a test compiles with: its mode, and the input's resource type as the context type.
    public func options(for test: ConformanceSuite.Test) -> FHIRPathOptions {
        FHIRPathOptions(
            mode: test.mode == "strict" ? .strict : .lenient, contextType: input(of: test).map { $0.root.type.name },
            checkOrderedFunctions: test.checkOrderedFunctions)
    }

    public func environment(for test: ConformanceSuite.Test) -> FHIRPathEnvironment {
        FHIRPathEnvironment(resource: input(of: test))
    }

    public func run(_ test: ConformanceSuite.Test) -> Outcome {
        let expectsError = test.invalid != nil && test.invalid != "false"
        let result: Result<FHIRPathCollection, FHIRPathError>
        do throws(FHIRPathError) {
            let expression = try FHIRPathExpression(test.expression, options: options(for: test))
            let environment = environment(for: test)
            result = .success(try expression.evaluate(on: environment.variables["context"] ?? [], environment))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .failure(let error):
            guard expectsError else { return .failed("unexpected \(error.kind) error: \(error.message)") }
            if let expected = test.invalid, ["syntax", "semantic", "execution"].contains(expected), expected != error.kind.rawValue {
                return .passedWithOtherErrorKind(expected: expected, actual: error.kind.rawValue)
            }
            return .passed
        case .success(var items):
            if test.predicate { items = [.boolean(!items.isEmpty)] }
            let matches = Self.matches(items, test.outputs, ordered: test.ordered)
            if matches { return .passed }
            let actual = items.isEmpty ? "empty" : items.map(Self.describe).joined(separator: ", ")
            if expectsError {
                return .failed("expected a \(test.invalid!) error; got \(actual)")
            }
            let expected = test.outputs.isEmpty ? "empty" : test.outputs.map { ($0.type.map { "\($0) " } ?? "") + $0.value }.joined(separator: ", ")
            return .failed("expected \(expected); got \(actual)")
        }
    }

    private static func describe(_ item: FHIRPathItem) -> String {
        "\(FHIRPathResultJSON.typeName(item)) \(text(item))"
    }

    /// The value as the suite writes outputs: dates and times with `@` (`@T` for a time), a quantity as
    /// `value 'unit'`, a string as is.
    static func text(_ item: FHIRPathItem) -> String {
        let value = item.systemValue.flatMap { $0.isNodeItem ? nil : $0 } ?? item
        switch value {
        case .string(let text): return text
        case .quantity(let quantity): return "\(quantity.value) '\(quantity.unit)'"
        default: return FHIRPathResultJSON.literal(value)
        }
    }

    static func matches(_ items: FHIRPathCollection, _ outputs: [ConformanceSuite.Output], ordered: Bool) -> Bool {
        guard items.count == outputs.count else { return false }
        func same(_ item: FHIRPathItem, _ output: ConformanceSuite.Output) -> Bool {
            if let type = output.type, type != FHIRPathResultJSON.typeName(item) { return false }
            return text(item) == output.value
        }
        if ordered { return zip(items, outputs).allSatisfy(same) }
        var remaining = outputs
        for item in items {
            guard let index = remaining.firstIndex(where: { same(item, $0) }) else { return false }
            remaining.remove(at: index)
        }
        return true
    }
}

extension FHIRPathItem {
    fileprivate var isNodeItem: Bool {
        if case .node = self { return true }
        return false
    }
}
