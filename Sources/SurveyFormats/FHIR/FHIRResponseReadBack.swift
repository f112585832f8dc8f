import SurveyCore

/// What reading an R4 response back finds before the session is asked which instances are enabled (§A2):
/// the structure rules (no item with both answer and item, qrs-1; no empty group), and, read as `import`
/// reads it, the instances it answers and what it cannot reproduce. A response's read-back is its envelope's
/// followed by its top-level items', each read after those before it (`FHIRResponseReader.read(topLevel:earlier:)`).
struct FHIRReadBack: Sendable {
    /// qrs-1 and no-empty-groups, in document order.
    var structure: [Finding] = []
    /// The instances the response answers, by id, in document order.
    var answered: [String] = []
    /// What `import` would not reproduce, in document order.
    var problems: [Finding] = []
    /// Whether `import` cannot read it at all (then `answered` and `problems` say nothing).
    var unreadable = false

    mutating func append(_ other: FHIRReadBack) {
        structure += other.structure
        answered += other.answered
        problems += other.problems
        unreadable = unreadable || other.unreadable
    }
}

/// A top-level response item's read-back is kept by what it is written from and by how many top-level items
/// before it read as the same item (their count numbers its repeats).
struct FHIRResponsePieceKey: Hashable, Sendable {
    let written: FHIRResponseKey
    let earlier: Int
}

extension FHIRSurvey {
    /// A whole response read back, as `import` reads it, from the value itself rather than its text.
    func readBack(response: JSONValue, settings: SessionSettings) -> FHIRReadBack {
        var result = FHIRReadBack(structure: structureFindings(response.objectValue?["item"]?.arrayValue ?? []))
        if let reading = try? readPayload(JSONCursor(node: JSONDocument(response, path: "response").root), settings: settings) {
            result.answered = reading.answers.map(\.question)
            result.problems = reading.problems.map(Self.problemFinding)
        } else {
            result.unreadable = true
        }
        return result
    }

    /// One top-level response item read back, `earlier` top-level items before it reading as the same item.
    func readBack(topLevel item: JSONValue, earlier: Int) -> FHIRReadBack {
        var result = FHIRReadBack(structure: structureFindings([item]))
        var reader = FHIRResponseReader(survey: self, file: "response")
        do {
            try reader.read(topLevel: JSONCursor(node: JSONDocument(item, path: "response").root), earlier: earlier)
            result.answered = reader.answers.map(\.question)
            result.problems = reader.problems.map(Self.problemFinding)
        } catch {
            result.unreadable = true
        }
        return result
    }

    private static func problemFinding(_ problem: Diagnostic) -> Finding {
        Finding(.engineError, "response-readable", "reading the response back: \(problem.message)")
    }

    /// qrs-1 and no-empty-groups over these response items and everything under them, in document order.
    private func structureFindings(_ items: [JSONValue]) -> [Finding] {
        var findings: [Finding] = []
        func visit(_ items: [JSONValue]) {
            for entry in items {
                let object = entry.objectValue ?? [:]
                let linkId = object["linkId"]?.stringValue ?? ""
                let (answers, nested) = (object["answer"], object["item"])
                if answers != nil, nested != nil {
                    findings.append(Finding(.engineError, "qrs-1", "the response item '\(linkId)' has both answer and item", question: linkId))
                }
                if item(linkId)?.type == .group, (nested?.arrayValue ?? []).isEmpty {
                    findings.append(Finding(.engineError, "no-empty-groups", "the response holds the group '\(linkId)' with no items", question: linkId))
                }
                visit(nested?.arrayValue ?? [])
                for answer in answers?.arrayValue ?? [] { visit(answer.objectValue?["item"]?.arrayValue ?? []) }
            }
        }
        visit(items)
        return findings
    }
}
