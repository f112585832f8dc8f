import SurveyCore

/// Lint findings as a SARIF 2.1.0 log, which code-scanning dashboards ingest: one run of the tool with the
/// metadata of every rule it reported by (what it finds, help, default level, where it is documented),
/// and one result per finding with its level, message (and hint), file, line and column, and JSON pointer.
public enum SARIFLog {
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    public static func json(_ findings: [Diagnostic], rules catalogue: [String: LintRule]) -> JSONValue {
        let ruleIDs = Array(Set(findings.compactMap(\.rule))).sorted()
        let ruleIndex = Dictionary(uniqueKeysWithValues: ruleIDs.enumerated().map { ($1, $0) })
        let rules: [JSONValue] = ruleIDs.map { id in
            let rule = catalogue[id]
            let summary = rule?.summary ?? "findings of the rule \(id)"
            let help = rule.map { "\($0.help) (\($0.document))" } ?? "See the lint rules of the format's document under docs/."
            return .object([
                "id": .string(id),
                "name": .string(pascalCase(id)),
                "shortDescription": .object(["text": .string(summary)]),
                "fullDescription": .object(["text": .string(summary)]),
                "help": .object(["text": .string(help), "markdown": .string("**\(id)**: \(summary).\n\n\(help)")]),
                "defaultConfiguration": .object(["level": .string(level(rule?.severity ?? .warning))]),
                "properties": .object(["tags": .array([.string("survey"), .string(id.split(separator: "-").first.map(String.init) ?? "lint")])]),
            ])
        }
        let results: [JSONValue] = findings.map { finding in
            var result: [String: JSONValue] = [
                "level": .string(level(finding.severity)),
                "message": .object(["text": .string(finding.message + (finding.hint.map { " Hint: \($0)" } ?? ""))]),
            ]
            if let rule = finding.rule {
                result["ruleId"] = .string(rule)
                result["ruleIndex"] = .number(Double(ruleIndex[rule]!))
            }
            var physical: [String: JSONValue] = ["artifactLocation": .object(["uri": .string(uri(finding.file ?? "input"))])]
            if let position = finding.position {
                physical["region"] = .object(["startLine": .number(Double(position.line)), "startColumn": .number(Double(position.column))])
            }
            var location: [String: JSONValue] = ["physicalLocation": .object(physical)]
            if let pointer = finding.pointer {
                location["logicalLocations"] = .array([.object(["fullyQualifiedName": .string(pointer.isEmpty ? "/" : pointer), "kind": .string("object")])])
            }
            result["locations"] = .array([.object(location)])
            return .object(result)
        }
        return .object([
            "$schema": .string(schema),
            "version": .string("2.1.0"),
            "runs": .array([
                .object([
                    "tool": .object([
                        "driver": .object([
                            "name": .string("survey-replay"),
                            "fullName": .string("SurveyReplay lint"),
                            "rules": .array(rules),
                        ])
                    ]),
                    "columnKind": .string("unicodeCodePoints"),
                    "results": .array(results),
                ])
            ]),
        ])
    }

    /// SARIF's level for a severity (the same three words).
    static func level(_ severity: Diagnostic.Severity) -> String { severity.rawValue }

    /// A relative reference for a path: its segments percent-encoded where a URI needs it.
    static func uri(_ path: String) -> String {
        let encoded = path.percentEncoded(keeping: [UInt8(ascii: "/"), UInt8(ascii: "~")])
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// `sn-dangling-id` as `SnDanglingId`, SARIF's readable rule name.
    private static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
