import Foundation
import SurveyCore

/// The ValueSets a Questionnaire's choices can come from offline, as C3-PRO resolves them (§A3): contained
/// ones (`#id`), and ValueSet files beside the Questionnaire (`ValueSet*.json` in its folder), matched by
/// `url`, by `id`, or by `ValueSet/id`. The folder is read only when a reference is not contained, and once.
struct FHIRValueSetFiles {
    let folder: String
    private var read: [(url: String?, id: String?, codes: [FHIR.Value])]?

    init(besides file: String) {
        // Not NSString's deletingLastPathComponent, which traps on Linux for a one-character name.
        let parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        folder = parts.count == 1 && parts[0].isEmpty ? "/" : parts.joined(separator: "/")
    }

    /// The codes of the ValueSet a reference names, or nil when no file beside the Questionnaire has it.
    mutating func codes(of reference: String) -> [FHIR.Value]? {
        let sets = read ?? readFolder()
        read = sets
        let id = reference.split(separator: "/").last.map(String.init) ?? reference
        return sets.first { $0.url == reference || $0.id == reference || ($0.id == id && reference.hasSuffix("ValueSet/" + id)) }?.codes
    }

    /// Every readable ValueSet file of the folder, in name order; files that are not ValueSets are passed by.
    private func readFolder() -> [(url: String?, id: String?, codes: [FHIR.Value])] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.filter { $0.hasPrefix("ValueSet") && $0.hasSuffix(".json") }.sorted().compactMap { name in
            let path = folder.isEmpty ? name : folder + "/" + name
            // Only regular files: a named pipe here would block the load forever.
            guard let source = try? RegularFile.read(path), let root = try? JSONParser.parse(source),
                let object = JSONCursor(node: root).object, object["resourceType"]?.stringValue == "ValueSet"
            else { return nil }
            return (object["url"]?.stringValue, object["id"]?.stringValue, Self.codes(of: object))
        }
    }

    /// The codes of a ValueSet: its expansion, else the concepts its compose includes.
    static func codes(of valueSet: JSONObjectCursor) -> [FHIR.Value] {
        func coding(_ entry: JSONValue, system: JSONValue?) -> FHIR.Value? {
            guard var object = entry.objectValue, object["code"]?.stringValue != nil else { return nil }
            if object["system"] == nil, let system { object["system"] = system }
            var kept: [String: JSONValue] = [:]
            for key in ["system", "code", "display"] { kept[key] = object[key] }
            return FHIR.Value(.coding, .object(kept))
        }
        let plain = valueSet.cursor.node.plain.objectValue ?? [:]
        if let contains = plain["expansion"]?.objectValue?["contains"]?.arrayValue {
            return contains.compactMap { coding($0, system: nil) }
        }
        let includes = plain["compose"]?.objectValue?["include"]?.arrayValue ?? []
        return includes.flatMap { include -> [FHIR.Value] in
            let system = include.objectValue?["system"]
            return (include.objectValue?["concept"]?.arrayValue ?? []).compactMap { coding($0, system: system) }
        }
    }
}
