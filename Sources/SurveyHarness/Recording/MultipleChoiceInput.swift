import Foundation
import SurveyCore

/// What a line typed at a multiple choice does: each number (or an option's value) taps that choice, which
/// picks it or, when it is picked, unpicks it, as on screen; an exclusive choice unpicks the others. The
/// number of a choice that takes text (an Other row) is followed by the text: `4 Oat milk`; the number
/// alone clears that text. So `1,2` then `2` leaves the first option picked.
struct MultipleChoiceInput {
    let choices: QuestionPrompt.MultipleChoice

    private enum Tap {
        case choice(Int)
        case text(Int, String)
    }

    /// The answer after the taps `typed` states, starting from `current`, and a phrase for each tap.
    func apply(_ typed: String, to current: JSONValue?) -> Result<(answer: JSONValue, said: [String]), InputProblem> {
        var taps: [Tap] = []
        for part in typed.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            switch tap(part) {
            case .success(let tap): taps.append(tap)
            case .failure(let problem): return .failure(problem)
            }
        }
        guard !taps.isEmpty else { return .failure(InputProblem("type the numbers of the options to pick or unpick, e.g. 1,3")) }
        let values = Set(choices.values.compactMap { $0 })
        let exclusive = Set(choices.exclusive.compactMap { choices.values[$0] })
        var answer = current?.arrayValue ?? []
        var said: [String] = []
        for tap in taps {
            switch tap {
            case .choice(let index):
                let value = choices.values[index]!
                if let at = answer.firstIndex(of: value) {
                    answer.remove(at: at)
                    said.append("unpicked \(CanonicalJSON.compact(value))")
                    continue
                }
                let before = answer.count
                if choices.exclusive.contains(index) { answer.removeAll() } else { answer.removeAll(where: exclusive.contains) }
                answer.append(value)
                said.append("picked \(CanonicalJSON.compact(value))" + (answer.count <= before ? " (unpicking what it excludes)" : ""))
            case .text(let index, let text):
                let hadText = answer.contains { !values.contains($0) }
                answer.removeAll { !values.contains($0) }
                if text.isEmpty {
                    guard hadText else { return .failure(InputProblem("option \(index + 1) takes text: type the number, then the text, e.g. '\(index + 1) Oat milk'")) }
                    said.append("cleared the text of option \(index + 1)")
                } else {
                    answer.append(.string(text))
                    said.append("option \(index + 1): \(CanonicalJSON.quote(text))")
                }
            }
        }
        return .success((.array(answer), said))
    }

    /// One comma-separated part: a number (with the text, for a choice that takes text), an option's value,
    /// or the text of the choice that takes text.
    private func tap(_ part: String) -> Result<Tap, InputProblem> {
        let head = String(part.prefix { $0 != " " })
        let rest = part.dropFirst(head.count).trimmingCharacters(in: .whitespaces)
        let count = choices.values.count
        if let number = Int(head) {
            guard number >= 1, number <= count else { return .failure(InputProblem("there is no option \(number); pick 1…\(count)")) }
            if choices.values[number - 1] == nil { return .success(.text(number - 1, rest)) }
            guard rest.isEmpty else { return .failure(InputProblem("option \(number) takes no text; separate options with commas")) }
            return .success(.choice(number - 1))
        }
        if let index = choices.values.firstIndex(where: { $0.map { names($0, part) } ?? false }) { return .success(.choice(index)) }
        if let index = choices.values.firstIndex(where: { $0 == nil }) { return .success(.text(index, part)) }
        return .failure(InputProblem("there is no option '\(part)'; pick 1…\(count) by number"))
    }

    /// Whether typed text names a choice's value: the value itself, or one of its strings (a code).
    private func names(_ value: JSONValue, _ text: String) -> Bool {
        value == .string(text) || (value.objectValue?.values.contains(.string(text)) ?? false)
    }
}
