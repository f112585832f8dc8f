import Foundation
import SurveyCore

/// String manipulation (spec "String Manipulation", "Additional String Functions"). Positions and lengths
/// count Unicode scalar values, as the spec defines characters.
extension FunctionEvaluator {
    func strings(_ input: FHIRPathCollection, _ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        if function == .join {
            let separator = arguments.isEmpty ? "" : try stringArgument(0, scope, &state) ?? ""
            var parts: [String] = []
            for item in input {
                guard let text = item.stringValue else { throw failure("join() joins strings; found \(item.typeName) \(item.summary)") }
                parts.append(text)
            }
            return [.string(parts.joined(separator: separator))]
        }
        guard let text = try stringInput(input) else { return [] }
        let scalars = Array(text.unicodeScalars)
        func string(_ slice: ArraySlice<Unicode.Scalar>) -> String { String(String.UnicodeScalarView(slice)) }
        switch function {
        case .indexOf, .lastIndexOf:
            guard let part = try stringArgument(0, scope, &state) else { return [] }
            let needle = Array(part.unicodeScalars)
            if needle.isEmpty { return [.integer(function == .indexOf ? 0 : scalars.count)] }
            guard needle.count <= scalars.count else { return [.integer(-1)] }
            if function == .indexOf { return [.integer(Self.firstIndex(of: needle, in: scalars, from: 0) ?? -1)] }
            let found = (0...(scalars.count - needle.count)).reversed().first { scalars[$0..<($0 + needle.count)].elementsEqual(needle) }
            return [.integer(found ?? -1)]
        case .substring:
            guard let start = try integerArgument(0, scope, &state) else { return [] }
            guard start >= 0, start < scalars.count else { return [] }
            var end = scalars.count
            if arguments.count > 1 {
                guard let length = try integerArgument(1, scope, &state) else { return [.string(string(scalars[start...]))] }
                end = start + min(scalars.count - start, max(0, length))
            }
            return [.string(string(scalars[start..<end]))]
        case .startsWith, .endsWith, .contains:
            guard let part = try stringArgument(0, scope, &state) else { return [] }
            let needle = Array(part.unicodeScalars)
            let result = function == .startsWith ? scalars.starts(with: needle)
                : function == .endsWith ? scalars.reversed().starts(with: needle.reversed())
                : Self.firstIndex(of: needle, in: scalars, from: 0) != nil
            return .truth(result)
        case .upper: return [.string(text.uppercased())]
        case .lower: return [.string(text.lowercased())]
        case .replace:
            guard let pattern = try stringArgument(0, scope, &state), let substitution = try stringArgument(1, scope, &state) else { return [] }
            if pattern.isEmpty {
                // Between every character and at both ends (spec: 'abc'.replace('', 'x') is 'xaxbxcx').
                return [.string(substitution + scalars.map { String($0) + substitution }.joined())]
            }
            let needle = Array(pattern.unicodeScalars)
            var result = String.UnicodeScalarView()
            var position = 0
            while let found = Self.firstIndex(of: needle, in: scalars, from: position) {
                result.append(contentsOf: scalars[position..<found])
                result.append(contentsOf: substitution.unicodeScalars)
                position = found + needle.count
            }
            result.append(contentsOf: scalars[position...])
            return [.string(String(result))]
        case .matches, .matchesFull:
            guard let pattern = try stringArgument(0, scope, &state) else { return [] }
            let expression = try regularExpression(function == .matchesFull ? "^(?:" + pattern + ")$" : pattern)
            return .truth(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil)
        case .replaceMatches:
            guard let pattern = try stringArgument(0, scope, &state), let substitution = try stringArgument(1, scope, &state) else { return [] }
            if pattern.isEmpty { return [.string(text)] }
            let expression = try regularExpression(pattern)
            return [.string(expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: substitution))]
        case .length:
            return [.integer(scalars.count)]
        case .toChars:
            return scalars.map { .string(String($0)) }
        case .trim:
            return [.string(text.trimmingCharacters(in: .whitespacesAndNewlines))]
        case .split:
            guard let separator = try stringArgument(0, scope, &state) else { return [] }
            if separator.isEmpty { return scalars.map { .string(String($0)) } }
            return text.components(separatedBy: separator).map(FHIRPathItem.string)
        case .encode, .decode:
            guard let format = try stringArgument(0, scope, &state) else { return [] }
            return try coded(text, format: format).map { [.string($0)] } ?? []
        default:
            guard let target = try stringArgument(0, scope, &state) else { return [] }
            return try escaped(text, target: target).map { [.string($0)] } ?? []
        }
    }

    /// The first position at or after `start` where `needle` occurs in `scalars` (0 for an empty needle).
    private static func firstIndex(of needle: [Unicode.Scalar], in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= scalars.count ? start : nil }
        guard needle.count <= scalars.count else { return nil }
        var position = start
        while position <= scalars.count - needle.count {
            if scalars[position] == needle[0], scalars[position..<(position + needle.count)].elementsEqual(needle) { return position }
            position += 1
        }
        return nil
    }

    private func regularExpression(_ pattern: String) throws(FHIRPathError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        } catch {
            throw failure("'\(pattern)' is not a valid regular expression")
        }
    }

    /// `encode`/`decode` with `base64`, `urlbase64` or `hex`; nil for text that does not decode to UTF-8.
    private func coded(_ text: String, format: String) throws(FHIRPathError) -> String? {
        let encoding = function == .encode
        switch format {
        case "base64", "urlbase64":
            if encoding {
                let encoded = Data(text.utf8).base64EncodedString()
                return format == "base64" ? encoded : encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            }
            var base64 = format == "base64" ? text : text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
        case "hex":
            if encoding { return text.utf8.map { String(format: "%02x", $0) }.joined() }
            var bytes: [UInt8] = []
            var characters = Array(text)
            guard characters.count % 2 == 0 else { return nil }
            while !characters.isEmpty {
                guard let byte = UInt8(String(characters.prefix(2)), radix: 16) else { return nil }
                bytes.append(byte)
                characters.removeFirst(2)
            }
            return String(validating: bytes, as: UTF8.self)
        default:
            throw failure("\(function.rawValue)() knows the formats base64, urlbase64 and hex; found '\(format)'")
        }
    }

    /// `escape`/`unescape` for `html` or `json`.
    private func escaped(_ text: String, target: String) throws(FHIRPathError) -> String? {
        let escaping = function == .escape
        switch target {
        case "html":
            let entities: [(String, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")]
            if escaping {
                return entities.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            }
            var result = text
            for (character, entity) in entities.reversed() + [("'", "&apos;")] { result = result.replacingOccurrences(of: entity, with: character) }
            return result
        case "json":
            if escaping {
                // The project's JSON string writer, without its quotes.
                return String(CanonicalJSON.quote(text).dropFirst().dropLast())
            }
            var result = String.UnicodeScalarView()
            var scalars = text.unicodeScalars.makeIterator()
            while let scalar = scalars.next() {
                guard scalar == "\\", let next = scalars.next() else {
                    result.append(scalar)
                    continue
                }
                switch next {
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "u":
                    var hex = ""
                    for _ in 0..<4 { if let digit = scalars.next() { hex.unicodeScalars.append(digit) } }
                    if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { result.append(decoded) }
                default: result.append(next)
                }
            }
            return String(result)
        default:
            throw failure("\(function.rawValue)() knows the targets html and json; found '\(target)'")
        }
    }
}
