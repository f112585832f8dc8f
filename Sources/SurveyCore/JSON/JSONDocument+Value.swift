extension JSONDocument {
    /// A document holding a value as parsing its canonical text would give it (members in key order), made
    /// without the text: for reading back what a session writes. Every location is the start of an empty file.
    public convenience init(_ value: JSONValue, path: String) {
        var entries: [Entry] = []
        var numbers: [Double] = []
        var strings: [String] = []
        func string(_ text: String) {
            strings.append(text)
            entries.append(Entry(kind: .escapedString, offset: 0, first: Int32(strings.count - 1), second: 0))
        }
        func add(_ value: JSONValue) {
            switch value {
            case .null: entries.append(Entry(kind: .null, offset: 0, first: 0, second: 0))
            case .bool(let flag): entries.append(Entry(kind: flag ? .true : .false, offset: 0, first: 0, second: 0))
            case .number(let number):
                numbers.append(number)
                entries.append(Entry(kind: .number, offset: 0, first: Int32(numbers.count - 1), second: 0))
            case .string(let text): string(text)
            case .array(let elements):
                let at = entries.count
                entries.append(Entry(kind: .array, offset: 0, first: 0, second: Int32(elements.count)))
                for element in elements { add(element) }
                entries[at].first = Int32(entries.count)
            case .object(let members):
                let at = entries.count
                entries.append(Entry(kind: .object, offset: 0, first: 0, second: Int32(members.count)))
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    string(key)
                    add(member)
                }
                entries[at].first = Int32(entries.count)
            }
        }
        add(value)
        self.init(file: SourceFile(path: path, text: ""), entries: entries, numbers: numbers, strings: strings)
    }
}
