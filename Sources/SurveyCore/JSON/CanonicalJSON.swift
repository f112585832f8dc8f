/// The one JSON printer of the project: sorted keys, fixed number formatting and escaping, so that the same
/// value prints to the same bytes on every machine (Foundation's encoder differs between Linux and macOS).
public enum CanonicalJSON {
    /// One line, no spaces: `{"answers":{"age":"30"}}`.
    public static func compact(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: nil, depth: 0)
        return output
    }

    /// Two-space indentation, one member or element a line, for goldens and reports.
    public static func pretty(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: "  ", depth: 0)
        return output
    }

    public static func format(number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    public static func quote(_ string: String) -> String {
        var output = ""
        writeString(string, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String, indent: String?, depth: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += format(number: number)
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(&output, indent: indent, depth: depth + 1)
                write(element, to: &output, indent: indent, depth: depth + 1)
            }
            newline(&output, indent: indent, depth: depth)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                newline(&output, indent: indent, depth: depth + 1)
                writeString(key, to: &output)
                output += indent == nil ? ":" : ": "
                write(members[key]!, to: &output, indent: indent, depth: depth + 1)
            }
            newline(&output, indent: indent, depth: depth)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, indent: String?, depth: Int) {
        guard let indent else { return }
        output += "\n"
        for _ in 0..<depth { output += indent }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        // Most strings need no escape: they are copied whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
