import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The official FHIRPath test suite (`tests-fhir-r4.xml`, schema in HL7/FHIRPath `tests/testSchema.xsd`):
/// groups of tests, each an expression, its input file, and the expected outputs or error.
public struct ConformanceSuite: Sendable {
    public struct Output: Sendable, Equatable {
        /// The expected type (`boolean`, `code`, `Quantity`…); nil when the suite gives none.
        public let type: String?
        public let value: String
    }

    public struct Test: Sendable {
        public let group: String
        /// The test's name; a second test of the same name gets `#2` (the suite has one such duplicate).
        public let name: String
        /// The input file as the suite names it (`patient-example.xml`); nil for tests without input.
        public let inputFile: String?
        public let expression: String
        /// `syntax`, `semantic`, `execution` (or `true`) for a test that expects an error.
        public let invalid: String?
        /// `strict` for a test that needs model-checked paths.
        public let mode: String?
        /// For `predicate="true"`: the result is reduced to whether it is non-empty.
        public let predicate: Bool
        /// `ordered="false"`: outputs may come in any order.
        public let ordered: Bool
        public let checkOrderedFunctions: Bool
        public let outputs: [Output]
    }

    public let tests: [Test]

    /// The groups in suite order.
    public var groups: [String] {
        var seen: Set<String> = []
        return tests.map(\.group).filter { seen.insert($0).inserted }
    }

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads the suite's XML.
    public static func load(contentsOf path: String) throws -> ConformanceSuite {
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(description: "\(path): cannot read the file") }
        let reader = SuiteReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            throw LoadError(description: "\(path):\(parser.lineNumber):\(parser.columnNumber): \(parser.parserError.map { "\($0)" } ?? "not XML")")
        }
        return ConformanceSuite(tests: reader.tests)
    }
}

/// Collects tests from XMLParser events.
private final class SuiteReader: NSObject, XMLParserDelegate {
    var tests: [ConformanceSuite.Test] = []
    private var group = ""
    private var testAttributes: [String: String] = [:]
    private var expressionAttributes: [String: String] = [:]
    private var outputType: String?
    private var text = ""
    private var expression = ""
    private var outputs: [ConformanceSuite.Output] = []
    private var names: [String: Int] = [:]

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
        switch name {
        case "group":
            group = attributes["name"] ?? ""
        case "test":
            testAttributes = attributes
            expressionAttributes = [:]
            expression = ""
            outputs = []
        case "expression":
            expressionAttributes = attributes
            text = ""
        case "output":
            outputType = attributes["type"]
            text = ""
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "expression":
            expression = text
        case "output":
            outputs.append(.init(type: outputType, value: text))
        case "test":
            let base = testAttributes["name"] ?? "unnamed"
            names[base, default: 0] += 1
            let count = names[base]!
            tests.append(
                .init(
                    group: group, name: count == 1 ? base : "\(base)#\(count)", inputFile: testAttributes["inputfile"], expression: expression,
                    invalid: expressionAttributes["invalid"], mode: testAttributes["mode"] ?? expressionAttributes["mode"],
                    predicate: testAttributes["predicate"] == "true", ordered: testAttributes["ordered"] != "false",
                    checkOrderedFunctions: testAttributes["checkOrderedFunctions"] == "true", outputs: outputs))
        default:
            break
        }
    }
}
