/// Markup that is both HTML5 and well-formed XML (so a test can parse every page with an XML parser):
/// every element closed, attributes quoted, only the five XML entities and numeric references.
public enum HTML {
    /// Text between tags or in an attribute: the XML escapes (JUnit's, one helper for both), and characters
    /// XML 1.0 cannot hold (a survey's text may have them by mistake) as U+FFFD.
    public static func escape(_ text: String) -> String {
        JUnitDocument.escape(text)
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
