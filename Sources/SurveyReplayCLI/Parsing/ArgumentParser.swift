import SurveyCore

/// The options and operands given to one command.
public struct ParsedArguments: Sendable, Equatable {
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var operands: [String] = []

    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for an option.
    public func value(_ name: String) -> String? { values[name]?.last }
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }
}

extension CommandSpec {
    /// `--name`, `--name VALUE`, `--name=VALUE`, operands anywhere, and `--` to end options.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.operands.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                let suggestion = Spelling.nearest(to: name, in: options.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "unknown option '\(name)'\(suggestion)", command: self.name)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw UsageError(message: "'\(name)' takes no value", command: self.name) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: "'\(name)' needs a value: \(name) \(valueName)", command: self.name)
                }
                value = arguments[index]
                index += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(message: "'\(value)' is not a valid \(valueName) for \(name); expected one of \(choices.joined(separator: ", "))", command: self.name)
            }
            parsed.values[name, default: []].append(value)
        }
        try checkOperands(parsed.operands)
        return parsed
    }

    private func checkOperands(_ given: [String]) throws(UsageError) {
        let required = operands.filter { !$0.isOptional }.count
        let unbounded = operands.contains { $0.isRepeated }
        if given.count < required {
            let missing = operands.filter { !$0.isOptional }[given.count]
            throw UsageError(message: "missing \(missing.name)", command: name)
        }
        if !unbounded, given.count > operands.count {
            throw UsageError(message: "unexpected argument '\(given[operands.count])'", command: name)
        }
    }
}
