import Foundation
import SurveyCore

/// Whether a value is an answer a step's inputs can hold, as the engine's form data source takes it
/// (reference §1.1 value types, §1.3 `RSDInputFieldError`): the wrong shape, a value no choice has or an
/// exclusive choice picked with others is refused (the UI cannot enter it); a value out of range, too long
/// or not matching the text validator fails the engine's own validation, with its error's name.
extension SageSurvey {
    /// The answer to the step at `index` split into its fields' values, or why the value does not fit. The
    /// step's parts are read in place (asked at every answer; a copy of the step would retain each).
    func fieldValues(_ value: JSONValue, forStepAt index: Int, today: CalendarDate) -> Result<SageFieldValues, SageRefusal> {
        let fields = steps[index].fields
        if fields.count == 1, !steps[index].answerIsObject {
            return check(value, field: fields[0], today: today).map { SageFieldValues(only: value) }
        }
        guard let object = value.objectValue else {
            let names = fields.map(\.id).joined(separator: ", ")
            return .failure(.rejected("'\(steps[index].id)' has several inputs (\(names)); expected an object of their values, e.g. {\"\(fields.first?.id ?? "field")\": …}"))
        }
        var values: [String: JSONValue] = [:]
        for (key, part) in object.sorted(by: { $0.key < $1.key }) {
            guard let field = fields.first(where: { $0.id == key }) else {
                return .failure(.doesNotFit("'\(steps[index].id)' has no input '\(key)'\(Spelling.suggestion(for: key, in: fields.map(\.id)))"))
            }
            if part == .null { continue }
            if case .failure(let refusal) = check(part, field: field, today: today) { return .failure(refusal) }
            values[key] = part
        }
        return .success(SageFieldValues(byID: values))
    }

    private func check(_ value: JSONValue, field: Sage.Field, today: CalendarDate) -> Result<Void, SageRefusal> {
        let shape = field.shape
        if shape.isArray {
            guard let elements = value.arrayValue else { return .failure(.rejected("'\(field.id)' takes an array of choices, not \(value.kindDescription)")) }
            if let components = field.components {
                guard elements.count == components.count else {
                    return .failure(.rejected("'\(field.id)' takes one value for each of its \(components.count) components"))
                }
                for (element, options) in zip(elements, components) where !options.contains(element) {
                    return .failure(.rejected("\(element) is not a value of its component of '\(field.id)'; expected one of \(options.map(\.description).joined(separator: ", "))"))
                }
                return .success(())
            }
            var seen: Set<JSONValue> = []
            for element in elements {
                guard seen.insert(element).inserted else { return .failure(.rejected("\(element) is picked twice in '\(field.id)'")) }
                if case .failure(let refusal) = checkScalar(element, field: field, today: today) { return .failure(refusal) }
            }
            if elements.count > 1, let choices = field.choices,
                let exclusive = choices.first(where: { choice in choice.isExclusive && choice.value.map(elements.contains) == true })
            {
                return .failure(.rejected("\(exclusive.value ?? .null) is an exclusive choice of '\(field.id)': picking it deselects the others"))
            }
            return .success(())
        }
        return checkScalar(value, field: field, today: today)
    }

    private func checkScalar(_ value: JSONValue, field: Sage.Field, today: CalendarDate) -> Result<Void, SageRefusal> {
        if let choices = field.choices {
            if choices.contains(where: { $0.value == value }) { return .success(()) }
            guard let other = field.other, fits(value, other) else {
                let values = choices.compactMap(\.value).map(\.description).joined(separator: ", ")
                return .failure(.rejected("\(value) is not a choice of '\(field.id)'; expected one of \(values)\(field.other != nil ? ", or an other value" : "")"))
            }
            return .success(())
        }
        guard fits(value, field.shape.base) else {
            return .failure(.rejected("'\(field.id)' (\(field.typeName)) takes \(SageDataType.describe(field.shape.base)), not \(value.kindDescription) (invalidType)"))
        }
        return validate(value, field: field, today: today).map { .failure(.validationFailed($0)) } ?? .success(())
    }

    private func fits(_ value: JSONValue, _ base: Sage.BaseType) -> Bool {
        switch base {
        case .boolean: value.boolValue != nil
        case .integer: value.numberValue.map { $0 == $0.rounded() && abs($0) < 1e15 } ?? false
        case .decimal: value.numberValue != nil
        case .string, .date: value.stringValue != nil
        case .codable: value != .null
        }
    }

    /// The engine's validation of a typed value: its range (numbers, years against today's year, dates
    /// against today) and its text options.
    private func validate(_ value: JSONValue, field: Sage.Field, today: CalendarDate) -> String? {
        let bounds = field.bounds
        if let number = value.numberValue {
            if let minimum = bounds.minimum, number < minimum {
                return "lessThanMinimumValue: \(value) is less than the minimum \(CanonicalJSON.format(number: minimum)) of '\(field.id)'"
            }
            if let maximum = bounds.maximum, number > maximum {
                return "greaterThanMaximumValue: \(value) is more than the maximum \(CanonicalJSON.format(number: maximum)) of '\(field.id)'"
            }
            if field.typeName == "year" {
                if bounds.allowFuture == false, Int(number) > today.year {
                    return "greaterThanMaximumDate: \(value) is in the future and '\(field.id)' does not allow future years"
                }
                if bounds.allowPast == false, Int(number) < today.year {
                    return "lessThanMinimumDate: \(value) is in the past and '\(field.id)' does not allow past years"
                }
            }
        }
        if let text = value.stringValue {
            if field.shape.base == .date, let date = CalendarDate(iso: String(text.prefix(10))) {
                if let minimum = bounds.minimumDate, date < minimum { return "lessThanMinimumDate: \(text) is before \(minimum) for '\(field.id)'" }
                if let maximum = bounds.maximumDate, maximum < date { return "greaterThanMaximumDate: \(text) is after \(maximum) for '\(field.id)'" }
                if bounds.allowFuture == false, today < date { return "greaterThanMaximumDate: \(text) is in the future and '\(field.id)' does not allow future dates" }
                if bounds.allowPast == false, date < today { return "lessThanMinimumDate: \(text) is in the past and '\(field.id)' does not allow past dates" }
            }
            if let limit = field.text.maximumLength, text.count > limit {
                return field.text.invalidMessage ?? "exceedsMaxLength: '\(field.id)' takes at most \(limit) characters"
            }
            if let pattern = field.text.validator, let regex = try? NSRegularExpression(pattern: pattern) {
                let range = NSRange(text.startIndex..., in: text)
                if regex.firstMatch(in: text, options: [.anchored], range: range)?.range != range {
                    return field.text.invalidMessage ?? "invalidRegex: '\(text)' does not match the text validator of '\(field.id)'"
                }
            }
        }
        return nil
    }
}

/// Why an answer is not taken.
/// An answer split into its inputs' values: the value of a step with one input (answered with that value,
/// not an object), else the values by input id.
struct SageFieldValues {
    var only: JSONValue?
    var byID: [String: JSONValue] = [:]

    static let none = SageFieldValues()

    func value(of field: Sage.Field) -> JSONValue? { only ?? byID[field.id] }

    /// What the step's answer result holds.
    var stored: JSONValue? { only ?? (byID.isEmpty ? nil : .object(byID)) }
}

enum SageRefusal: Error {
    case rejected(String)
    case validationFailed(String)
    case doesNotFit(String)

    var outcome: Outcome {
        switch self {
        case .rejected(let reason): .rejected(reason)
        case .validationFailed(let message): .validationFailed(message)
        case .doesNotFit(let reason): .doesNotFit(reason)
        }
    }
}
