import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness
import SurveyReplayTestSupport
import Testing

private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The parts of the SARIF 2.1.0 schema (sarif-schema-2.1.0.json, OASIS errata01) that our logs use: each
/// object's allowed properties (every definition we emit has "additionalProperties": false), the required
/// ones, the "anyOf" requirements, and the enumerations and minimums of the values.
private enum SARIFSchema {
    struct Definition {
        let properties: Set<String>
        var required: [String] = []
        var anyOf: [[String]] = []
    }

    static let definitions: [String: Definition] = [
        "sarifLog": Definition(properties: ["$schema", "version", "runs", "inlineExternalProperties", "properties"], required: ["version", "runs"]),
        "run": Definition(
            properties: [
                "tool", "invocations", "conversion", "language", "versionControlProvenance", "originalUriBaseIds", "artifacts", "logicalLocations",
                "graphs", "results", "automationDetails", "runAggregates", "baselineGuid", "redactionTokens", "defaultEncoding", "defaultSourceLanguage",
                "newlineSequences", "columnKind", "externalPropertyFileReferences", "threadFlowLocations", "taxonomies", "addresses", "translations",
                "policies", "webRequests", "webResponses", "specialLocations", "properties",
            ], required: ["tool"]),
        "tool": Definition(properties: ["driver", "extensions", "properties"], required: ["driver"]),
        "toolComponent": Definition(
            properties: [
                "guid", "name", "organization", "product", "productSuite", "shortDescription", "fullDescription", "fullName", "version",
                "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc", "downloadUri", "informationUri", "globalMessageStrings", "notifications",
                "rules", "taxa", "locations", "language", "contents", "isComprehensive", "localizedDataSemanticVersion",
                "minimumRequiredLocalizedDataSemanticVersion", "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties",
            ], required: ["name"]),
        "reportingDescriptor": Definition(
            properties: [
                "id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames", "shortDescription", "fullDescription", "messageStrings",
                "defaultConfiguration", "helpUri", "help", "relationships", "properties",
            ], required: ["id"]),
        "multiformatMessageString": Definition(properties: ["text", "markdown", "properties"], required: ["text"]),
        "reportingConfiguration": Definition(properties: ["enabled", "level", "rank", "parameters", "properties"]),
        "result": Definition(
            properties: [
                "ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations", "guid", "correlationGuid", "occurrenceCount",
                "partialFingerprints", "fingerprints", "stacks", "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions",
                "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse",
                "properties",
            ], required: ["message"]),
        "message": Definition(properties: ["text", "markdown", "id", "arguments", "properties"], anyOf: [["text"], ["id"]]),
        "location": Definition(properties: ["id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"]),
        "physicalLocation": Definition(properties: ["address", "artifactLocation", "region", "contextRegion", "properties"], anyOf: [["address"], ["artifactLocation"]]),
        "artifactLocation": Definition(properties: ["uri", "uriBaseId", "index", "description", "properties"]),
        "region": Definition(
            properties: [
                "startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "byteOffset", "byteLength", "snippet", "message",
                "sourceLanguage", "properties",
            ], anyOf: [["startLine"], ["charOffset"], ["byteOffset"]]),
        "logicalLocation": Definition(properties: ["name", "index", "fullyQualifiedName", "decoratedName", "parentIndex", "kind", "properties"]),
        "propertyBag": Definition(properties: ["tags"]),
    ]

    /// Every violation of the definitions in a log, as `path: problem`.
    static func violations(_ log: JSONValue) -> [String] {
        var problems: [String] = []
        func check(_ value: JSONValue, _ name: String, _ path: String) {
            guard let object = value.objectValue, let definition = definitions[name] else {
                problems.append("\(path): expected an object (\(name))")
                return
            }
            for key in object.keys where !definition.properties.contains(key) { problems.append("\(path): property '\(key)' is not allowed in \(name)") }
            for key in definition.required where object[key] == nil { problems.append("\(path): \(name) requires '\(key)'") }
            if !definition.anyOf.isEmpty, !definition.anyOf.contains(where: { $0.allSatisfy { object[$0] != nil } }) {
                problems.append("\(path): \(name) needs one of \(definition.anyOf)")
            }
            func child(_ key: String, _ type: String) { if let value = object[key] { check(value, type, "\(path).\(key)") } }
            func children(_ key: String, _ type: String) {
                guard let value = object[key] else { return }
                guard let items = value.arrayValue else { return problems.append("\(path).\(key): expected an array") }
                for (index, item) in items.enumerated() { check(item, type, "\(path).\(key)[\(index)]") }
            }
            func string(_ key: String, in allowed: Set<String>? = nil) {
                guard let value = object[key] else { return }
                guard let text = value.stringValue else { return problems.append("\(path).\(key): expected a string") }
                if let allowed, !allowed.contains(text) { problems.append("\(path).\(key): '\(text)' is not one of \(allowed.sorted())") }
            }
            func integer(_ key: String, minimum: Int) {
                guard let value = object[key] else { return }
                guard let number = value.numberValue, number == number.rounded(), Int(number) >= minimum else {
                    return problems.append("\(path).\(key): expected an integer of at least \(minimum)")
                }
            }
            switch name {
            case "sarifLog":
                string("version", in: ["2.1.0"])
                string("$schema")
                children("runs", "run")
            case "run":
                child("tool", "tool")
                children("results", "result")
                string("columnKind", in: ["utf16CodeUnits", "unicodeCodePoints"])
            case "tool": child("driver", "toolComponent")
            case "toolComponent":
                string("name")
                children("rules", "reportingDescriptor")
                if let rules = object["rules"]?.arrayValue, Set(rules.map(CanonicalJSON.compact)).count != rules.count {
                    problems.append("\(path).rules: items must be unique")
                }
            case "reportingDescriptor":
                string("id")
                for key in ["shortDescription", "fullDescription", "help"] { child(key, "multiformatMessageString") }
                child("defaultConfiguration", "reportingConfiguration")
                child("properties", "propertyBag")
            case "reportingConfiguration": string("level", in: ["none", "note", "warning", "error"])
            case "result":
                string("ruleId")
                integer("ruleIndex", minimum: -1)
                string("level", in: ["none", "note", "warning", "error"])
                child("message", "message")
                children("locations", "location")
            case "location":
                child("physicalLocation", "physicalLocation")
                children("logicalLocations", "logicalLocation")
            case "physicalLocation":
                child("artifactLocation", "artifactLocation")
                child("region", "region")
            case "artifactLocation": string("uri")
            case "region":
                integer("startLine", minimum: 1)
                integer("startColumn", minimum: 1)
            case "message", "multiformatMessageString":
                string("text")
                string("markdown")
            default: break
            }
        }
        check(log, "sarifLog", "$")
        return problems
    }
}

@Suite("lint for CI: SARIF, GitHub annotations, disabled rules, severities, per-suite settings")
struct LintFormatTests {
    private let quirks = packageRoot + "/Scenarios/quirks/quirks.json"
    private let checkin = packageRoot + "/Scenarios/checkin/checkin.json"

    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(SourceFile(path: "sarif", text: text)).plain
    }

    @Test("SARIF holds the schema's required structure, with rule help, levels and line/column locations")
    func sarif() throws {
        let result = runCLI(["lint", "--format", "sarif", quirks, checkin])
        #expect(result.status == 1)
        let log = try parse(result.out)
        #expect(SARIFSchema.violations(log) == [])
        let run = log.objectValue?["runs"]?.arrayValue?.first?.objectValue
        let rules = run?["tool"]?.objectValue?["driver"]?.objectValue?["rules"]?.arrayValue ?? []
        let results = run?["results"]?.arrayValue ?? []
        let text = runCLI(["lint", "--json", quirks, checkin])
        #expect(results.count == (try parse(text.out)).arrayValue?.count)
        #expect(!rules.isEmpty)
        for rule in rules {
            let help = rule.objectValue?["help"]?.objectValue?["text"]?.stringValue ?? ""
            #expect(help.contains("docs/"), "rule \(rule.objectValue?["id"] ?? .null) has no help pointing at its document")
        }
        let levels = Set(results.compactMap { $0.objectValue?["level"]?.stringValue })
        #expect(levels == ["error", "warning", "note"])
        // ruleIndex points at the rule of the result.
        for result in results {
            let object = result.objectValue ?? [:]
            let index = Int(object["ruleIndex"]?.numberValue ?? -1)
            #expect(rules.indices.contains(index) && rules[index].objectValue?["id"] == object["ruleId"])
            let region = object["locations"]?.arrayValue?.first?.objectValue?["physicalLocation"]?.objectValue?["region"]?.objectValue
            #expect(region?["startLine"] != nil && region?["startColumn"] != nil)
        }
    }

    @Test("the checker finds what breaks the schema (so its silence means something)")
    func schemaCheckerCatches() throws {
        let broken = try parse(#"{"version": "2.0", "runs": [{"tool": {"driver": {}}, "results": [{"level": "fatal", "message": {}, "extra": 1, "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]}"#)
        let problems = SARIFSchema.violations(broken)
        for expected in ["'2.0' is not one of", "toolComponent requires 'name'", "'fatal' is not one of", "message needs one of", "property 'extra' is not allowed", "physicalLocation needs one of", "startLine: expected an integer of at least 1"] {
            #expect(problems.contains { $0.contains(expected) }, "the checker missed: \(expected)")
        }
    }

    @Test("--format github prints workflow commands with file, line, col and an escaped message")
    func github() throws {
        let result = runCLI(["lint", "--format", "github", quirks])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.hasPrefix("::error file=") || line.hasPrefix("::warning file=") || line.hasPrefix("::notice file="), "\(line)")
            #expect(line.contains(",line=") && line.contains(",col=") && line.contains(",title="))
        }
        #expect(GitHubAnnotations.text([Diagnostic(.warning, file: "a,b:c.json", position: SourcePosition(line: 3, column: 4), message: "50% off\nnext", rule: "x")])
            == "::warning file=a%2Cb%3Ac.json,line=3,col=4,title=x::50%25 off%0Anext\n")
    }

    @Test("--disable hides a rule, --severity hides what is less severe, and an unknown rule is a usage error")
    func disableAndSeverity() throws {
        let all = runCLI(["lint", "--format", "json", quirks])
        #expect(all.out.contains("\"sn-forward-reference\""))
        let disabled = runCLI(["lint", "--format", "json", "--disable", "sn-forward-reference,sn-hidden-answer-submitted", quirks])
        #expect(!disabled.out.contains("\"sn-forward-reference\"") && !disabled.out.contains("\"sn-hidden-answer-submitted\""))
        let warnings = runCLI(["lint", "--severity", "warning", quirks])
        #expect(!warnings.out.contains(": note:"))
        #expect(warnings.out.contains(": warning:"))
        #expect(warnings.out.contains(", 0 notes"))
        let errorsOnly = runCLI(["lint", "--severity", "error", checkin])
        #expect(errorsOnly.status == 0)
        #expect(errorsOnly.out == "0 errors, 0 warnings, 0 notes\n")
        let unknown = runCLI(["lint", "--disable", "sn-forward-refrence", quirks])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no lint rule 'sn-forward-refrence'; did you mean 'sn-forward-reference'?"))
    }

    @Test("a suite's survey-replay-lint.json applies to its surveys, per survey too; a bad one is located")
    func suiteConfig() throws {
        let folder = try TemporaryFolder()
        let survey = try folder.write("suite/a/quirks.json", try String(contentsOfFile: quirks, encoding: .utf8))
        let other = try folder.write("suite/b/quirks.json", try String(contentsOfFile: quirks, encoding: .utf8))
        try folder.write("suite/\(LintConfig.fileName)", #"{"severity": "warning", "surveys": {"a/quirks.json": {"disable": ["sn-forward-reference"]}}}"#)
        let a = runCLI(["lint", "--format", "json", survey])
        let b = runCLI(["lint", "--format", "json", other])
        #expect(!a.out.contains("sn-forward-reference") && !a.out.contains("\"note\""))
        #expect(b.out.contains("sn-forward-reference") && !b.out.contains("\"note\""))
        // The command line's severity wins over the file's.
        #expect(runCLI(["lint", "--format", "json", "--severity", "note", other]).out.contains("\"note\""))
        try folder.write("suite/\(LintConfig.fileName)", "{\"severity\": \"loud\",\n \"disable\": [\"sn-forward-refrence\"], \"ignore\": 1}")
        let bad = runCLI(["lint", survey])
        #expect(bad.status == 2)
        #expect(bad.error.contains("\(LintConfig.fileName):1:14: error: expected \"error\", \"warning\" or \"note\""))
        #expect(bad.error.contains(":2:14: error: no lint rule 'sn-forward-refrence'; did you mean 'sn-forward-reference'?"))
        #expect(bad.error.contains(":2:38: error: unknown key \"ignore\""))
        // All problems at once, in file order.
        #expect(bad.error.split(separator: "\n").map { $0.split(separator: ":")[1...2].joined(separator: ":") } == ["1:14", "2:14", "2:38"])
    }

    @Test("every rule lint reports on the suite and the corpus has a description and help, and so has every rule the docs list, which list every described rule", .requires(.corpus))
    func everyRuleDescribed() throws {
        let rules = FormatRegistry.standard.lintRules
        var files = ScenarioDiscovery.find([packageRoot + "/Scenarios", Corpus.folder], extension: "json").files
        files.sort()
        var reported: Set<String> = []
        for file in files {
            reported.formUnion(FormatRegistry.standard.lint(try InputFiles.read(file)).findings.compactMap(\.rule))
        }
        #expect(reported.count > 20)
        for rule in reported.sorted() { #expect(rules[rule] != nil, "lint reports \(rule), which has no description for SARIF") }
        var documented: Set<String> = []
        for document in ["surveynative", "fhir", "sage", "owlmetry"] {
            let text = try String(contentsOfFile: packageRoot + "/docs/\(document).md", encoding: .utf8)
            let listed = Self.lintRuleSections(text).filter { $0.hasPrefix("| `") }.flatMap { row in
                row.split(separator: "|")[0].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }.filter { $0.contains("-") && $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }
            #expect(!listed.isEmpty)
            for id in listed { #expect(rules[id] != nil, "docs/\(document).md lists \(id), which has no description for SARIF") }
            documented.formUnion(listed)
        }
        // And the other way: a description no document lists is a rule that was dropped or never documented.
        let undocumented = rules.keys.filter { !documented.contains($0) }.sorted()
        #expect(undocumented.isEmpty, "described for SARIF, but no docs/*.md lists them: \(undocumented.joined(separator: ", "))")
    }

    /// The lines of a rules document's "Lint rules" sections (each up to the next heading of its level or
    /// above): the tables there list rule ids; other tables list profiles, hazards and invariants.
    static func lintRuleSections(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var level: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                let depth = line.prefix { $0 == "#" }.count
                if let open = level, depth <= open { level = nil }
                if line.contains("Lint rules") { level = depth }
            } else if level != nil {
                lines.append(line)
            }
        }
        return lines
    }
}
