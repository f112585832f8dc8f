/// Markup that is both HTML5 and well-formed XML (so a test can parse every page with an XML parser):
/// every element closed, attributes quoted, only the five XML entities and numeric references.
public enum HTML {
    /// Text between tags.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // Control characters are not allowed in XML 1.0; a survey's text may hold them by mistake.
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// An element with attributes (in the order given; nil values left out) around markup already escaped.
    public static func element(_ tag: String, _ attributes: [(String, String?)] = [], _ content: String) -> String {
        "<\(tag)\(attributeText(attributes))>\(content)</\(tag)>"
    }

    /// An element around plain text, which is escaped.
    public static func text(_ tag: String, _ attributes: [(String, String?)] = [], _ text: String) -> String {
        element(tag, attributes, escape(text))
    }

    /// An element without content, written `<tag/>`.
    public static func empty(_ tag: String, _ attributes: [(String, String?)] = []) -> String {
        "<\(tag)\(attributeText(attributes))/>"
    }

    /// A link to another page of the site or an anchor.
    public static func link(_ href: String, _ content: String, `class`: String? = nil) -> String {
        element("a", [("href", href), ("class", `class`)], content)
    }

    private static func attributeText(_ attributes: [(String, String?)]) -> String {
        attributes.compactMap { name, value in value.map { " \(name)=\"\(escape($0))\"" } }.joined()
    }
}
