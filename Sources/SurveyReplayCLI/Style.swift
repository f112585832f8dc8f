/// ANSI colours for terminal output, or plain text when colour is off.
struct Style {
    enum Color: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
    }

    let color: Bool

    func paint(_ text: String, _ tint: Color) -> String {
        color ? "\u{1B}[\(tint.rawValue)m\(text)\u{1B}[0m" : text
    }
}
