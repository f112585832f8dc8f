import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// A survey file and what `lint` finds in it: errors and warnings in `findings`; notes (which every question
/// that can be hidden gets, sn-hidden-answer-submitted) apart in `notes`, so each rule's test sees its own.
struct Linted {
    let text: String
    let findings: [Diagnostic]
    let notes: [Diagnostic]

    init(text: String) {
        self.text = text
        let all = FormatRegistry.standard.lint(SourceFile(path: "test.json", text: text)).findings
        self.findings = all.filter { $0.severity != .note }
        self.notes = all.filter { $0.severity == .note }
    }

    /// A survey of these questions (`surveyText` puts question i on line i + 1).
    init(_ questions: String...) {
        self.init(text: surveyText(questions))
    }

    func findings(_ rule: String) -> [Diagnostic] { (findings + notes).filter { $0.rule == rule } }

    var rules: [String] { findings.compactMap(\.rule) }

    /// Where the `occurrence`-th `needle` starts in the file.
    func position(of needle: String, occurrence: Int = 1) -> SourcePosition? {
        var searched = text.startIndex..<text.endIndex
        var found: Range<String.Index>?
        for _ in 0..<occurrence {
            found = text.range(of: needle, range: searched)
            guard let range = found else { return nil }
            searched = range.upperBound..<text.endIndex
        }
        guard let start = found?.lowerBound else { return nil }
        let before = text[..<start]
        let line = before.count(where: { $0 == "\n" }) + 1
        let column = before.distance(from: before.lastIndex(of: "\n").map(before.index(after:)) ?? before.startIndex, to: start) + 1
        return SourcePosition(line: line, column: column)
    }

    /// Checks that `rule` gave exactly one finding, with this severity, at `needle`, saying `part`.
    func expectOne(
        _ rule: String, _ severity: Diagnostic.Severity, at needle: String, occurrence: Int = 1, saying part: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let matching = findings(rule)
        #expect(matching.count == 1, "\(rule): \(matching.map(\.description))", sourceLocation: sourceLocation)
        guard let finding = matching.first else { return }
        #expect(finding.severity == severity, sourceLocation: sourceLocation)
        #expect(finding.position != nil && finding.position == position(of: needle, occurrence: occurrence), "at \(finding.position.map(\.description) ?? "?")", sourceLocation: sourceLocation)
        #expect(finding.message.contains(part), "\(finding.message)", sourceLocation: sourceLocation)
        #expect(finding.hint?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(finding.file == "test.json", sourceLocation: sourceLocation)
    }
}

/// A survey whose submit section is given as JSON text.
private func surveyText(_ questions: [String], submit: String) -> String {
    #"{"questions": [\#(questions.joined(separator: ",\n"))],"# + "\n" + #""submit": \#(submit)}"#
}

/// `lint` on SurveyNative files: one test that triggers each rule and one that does not (issue 6, part 4).
@Suite("SurveyNative lint")
struct SurveyNativeLintTests {
    // MARK: what stops a load

    @Test("lint reports every dangling id of show_if, custom ids and answer_to_question_id, each with the nearest id")
    func everyDanglingIDIsReported() {
        let linted = Linted(
            select("like_music"), textField("age"),
            select("a", showIf: when("like_musik", "equals", "Yes")),
            select("b", showIf: custom(ids: ["age", "agee"], key: "check")),
            textField("c", validations(#"{"operation": "less than", "answer_to_question_id": "ag", "on_fail_message": "Too old"}"#)))
        let dangling = linted.findings("sn-dangling-id")
        #expect(dangling.count == 3)
        #expect(dangling.allSatisfy { $0.severity == .error && $0.hint != nil })
        #expect(dangling.map(\.position) == [
            linted.position(of: #"{"id": "like_musik""#), linted.position(of: #"{"operation": "custom""#),
            linted.position(of: #"{"operation": "less than""#),
        ])
        #expect(dangling[0].message.contains("did you mean 'like_music'?"))
        #expect(dangling[1].message.contains("'agee'") && dangling[1].message.contains("did you mean 'age'?"))
        #expect(dangling[2].message.contains("'ag'") && dangling[2].message.contains("did you mean 'age'?"))
    }

    @Test("ids that every question has give no dangling-id finding")
    func resolvedIDsAreFine() {
        let linted = Linted(select("a"), select("b", showIf: when("a", "equals", "Yes")), select("end"))
        #expect(linted.findings.isEmpty)
    }

    @Test("every repeated id is reported at its later question, naming the first")
    func everyDuplicateIDIsReported() {
        let linted = Linted(select("a"), select("b"), select("a", ["Yes"]), select("b", ["No"]))
        let duplicates = linted.findings("sn-duplicate-id")
        #expect(duplicates.map(\.position) == [SourcePosition(line: 3, column: 1), SourcePosition(line: 4, column: 1)])
        #expect(duplicates.allSatisfy { $0.severity == .error })
        #expect(duplicates[0].message.contains("duplicate id 'a' (first at 1:16)"))
        #expect(duplicates[1].message.contains("duplicate id 'b' (first at 2:1)"))
    }

    @Test("lint reports all that stops a load while the load still fails with the first problem, located")
    func lintReadsOnWhereLoadStops() {
        let questions = [
            select("a"), #"{"question_type": "single_select", "options": ["Yes"]}"#, select("a", ["Yes"]),
            select("b", showIf: when("c", "equals", "Yes")), select("c", showIf: when("b", "equals", "Yes")),
            select("d", showIf: when("zz", "equals", "Yes")), select("d", ["No"]),
        ]
        let linted = Linted(text: surveyText(questions))
        #expect(linted.findings("sn-file-shape").map(\.position) == [SourcePosition(line: 2, column: 1)])
        #expect(linted.findings("sn-duplicate-id").map(\.position?.line) == [3, 7])
        #expect(linted.findings("sn-dangling-id").count == 1)
        #expect(linted.findings("sn-dependency-cycle").count == 1)
        let loadErrors = loadErrors(text: surveyText(questions))
        #expect(loadErrors.count == 1)
        #expect(loadErrors.first?.message.contains("has no \"id\"") == true)
        #expect(loadErrors.first?.position == SourcePosition(line: 2, column: 1))
    }

    @Test("every cycle of show_if dependencies is reported, at the show_if that closes it")
    func everyCycleIsReported() {
        let linted = Linted(
            select("start"), select("a", showIf: when("b", "equals", "Yes")), select("b", showIf: when("a", "equals", "Yes")),
            select("c", showIf: when("c", "equals", "Yes")))
        let cycles = linted.findings("sn-dependency-cycle")
        #expect(cycles.count == 2)
        #expect(cycles.allSatisfy { $0.severity == .error && $0.message.contains("crashes loading the file") })
        #expect(cycles.contains { $0.position?.line == 4 && $0.message.contains("c → c") })
    }

    @Test("show_if chains without a cycle give no cycle finding")
    func acyclicChainIsFine() {
        let linted = Linted(select("a"), select("b", showIf: when("a", "equals", "Yes")), select("c", showIf: when("a", "equals", "No")))
        #expect(linted.findings("sn-dependency-cycle").isEmpty)
    }

    @Test("a question of a type the engine does not know blocks the survey")
    func unreadableQuestions() {
        let linted = Linted(select("a"), question("b", "single_selct", #""options": ["Yes"]"#))
        linted.expectOne("sn-unknown-type", .error, at: #""single_selct""#, saying: "can never be answered")
        #expect(Linted(select("a"), question("b", "segment_select", #""values": ["1"]"#)).findings.isEmpty)
    }

    @Test("a file that is not a list of questions is reported and nothing else is read")
    func notAListOfQuestions() {
        let linted = Linted(text: #"{"questions": {"id": "a"}, "submit": {"button_title": "Send", "url": "https://example.com"}}"#)
        #expect(linted.rules == ["sn-file-shape"])
        #expect(linted.findings.first?.position == SourcePosition(line: 1, column: 15))
    }

    // MARK: values compared with the answers

    @Test("a value that is not an option of the question is never equal, with the nearest option")
    func valueNotAnOption() {
        let linted = Linted(select("mood", ["Happy", "Sad"]), select("q", showIf: when("mood", "equals", "Hapy")))
        linted.expectOne("sn-unknown-value", .error, at: #"{"id": "mood", "operation""#, saying: "'Hapy' is not among the options of 'mood'")
        #expect(linted.findings("sn-unknown-value").first?.message.contains("never true; did you mean 'Happy'?") == true)
        let negated = Linted(segment: ["1", "2"], when("s", "not equals", "3"))
        negated.expectOne("sn-unknown-value", .error, at: #"{"id": "s", "operation""#, saying: "not among the values of 's' ('1', '2'), so this condition is always true")
    }

    @Test("options, segment values, table options with subid and typed Other text are fine to compare with")
    func valuesAmongTheOptions() {
        let linted = Linted(
            selectWithOther("flavour", ["Vanilla"], other: "Other"), tableSelect("week"), multiSelect("music"),
            question("s", "segment_select", #""values": ["1", "2"]"#),
            select(
                "q",
                showIf: anyOf(
                    when("flavour", "equals", "Vanilla"), when("flavour", "equals", "Mint", subid: "Other"),
                    when("week", "equals", "Sometimes", subid: "r1"), when("music", "contains", "Rock"), when("s", "not equals", "2"),
                    when("flavour", "equals", ["Other": "Mint"]))),
            select("end"))
        #expect(linted.rules == ["sn-multi-select-stall"], "\(linted.findings.map(\.description))")
    }

    @Test("an Other option's title, or a table option beyond the third, never equals the answer")
    func otherTitlesAndUnpickableOptions() {
        let other = Linted(selectWithOther("flavour", ["Vanilla"], other: "Other"), select("q", showIf: when("flavour", "equals", "Other")))
        other.expectOne("sn-unknown-value", .error, at: #"{"id": "flavour", "operation""#, saying: "choosing it stores {\"Other\": typed text}")
        let table = Linted(
            tableSelect("week", options: ["Often", "Sometimes", "Rarely", "Never"]), select("q", showIf: when("week", "equals", "Never", subid: "r1")))
        table.expectOne("sn-unknown-value", .error, at: #"{"id": "week", "subid""#, saying: "beyond the third")
    }

    @Test("a number compared with a string answer is never equal")
    func numberComparedWithString() {
        let linted = Linted(textField("visits"), select("q", showIf: when("visits", "equals", 10)))
        linted.expectOne("sn-number-value", .error, at: #"{"id": "visits", "operation""#, saying: "the value 10 is a number, but SurveyNative's answers are strings")
        #expect(linted.findings("sn-number-value").first?.hint == #"write the value as a string: "10""#)
    }

    @Test("a number written as a string, or a number in a numeric comparison, is fine")
    func numbersAsStrings() {
        let linted = Linted(
            textField("visits"), select("q", showIf: anyOf(when("visits", "equals", "10"), when("visits", "greater than", 10))), select("end"))
        #expect(linted.findings.isEmpty)
    }

    @Test("contains on an answer that is not a list never holds")
    func containsOnNonArray() {
        let linted = Linted(select("a"), select("q", showIf: when("a", "contains", "Yes")))
        linted.expectOne("sn-contains-non-array", .error, at: #"{"id": "a", "operation""#, saying: "not a list: contains never holds on it")
        let negated = Linted(textField("name"), select("q", showIf: when("name", "not contains", "x")))
        #expect(negated.findings("sn-contains-non-array").first?.message.contains("always true") == true)
    }

    @Test("contains on multi_select and add_text_field answers, which are lists, is fine")
    func containsOnLists() {
        let linted = Linted(
            multiSelect("music"), question("topics", "add_text_field"),
            select("q", showIf: allOf(when("music", "contains", "Pop"), when("topics", "not contains", "sports"))), select("end"))
        #expect(linted.rules == ["sn-multi-select-stall"])
    }

    @Test("a value of the wrong shape, or null, never equals the answer")
    func valueOfTheWrongShape() {
        let list = Linted(multiSelect("music"), select("q", showIf: when("music", "equals", "Pop")))
        list.expectOne("sn-value-shape", .error, at: #"{"id": "music", "operation""#, saying: "never equals the string 'Pop'")
        let null = Linted(select("a"), select("q", showIf: when("a", "equals", .null)))
        null.expectOne("sn-value-shape", .error, at: #"{"id": "a", "operation""#, saying: "null equals no answer")
    }

    @Test("a subid the answer has no part for is reported; on an answer that is no dictionary it is ignored")
    func unknownSubid() {
        let table = Linted(tableSelect("week"), select("q", showIf: when("week", "equals", "Yes", subid: "r3")))
        table.expectOne("sn-unknown-subid", .error, at: #"{"id": "week", "subid""#, saying: "subid 'r3' is not a part of the answer to 'week'")
        let ignored = Linted(textField("name"), select("q", showIf: when("name", "equals", "Ann", subid: "first")))
        ignored.expectOne("sn-unknown-subid", .warning, at: #"{"id": "name", "subid""#, saying: "ignores subid 'first'")
    }

    @Test("a numeric comparison with an answer or a value that is never a number is never true")
    func numericComparisonOfNonNumbers() {
        let answer = Linted(select("a"), select("q", showIf: when("a", "greater than", "3")))
        answer.expectOne("sn-not-a-number", .error, at: #"{"id": "a", "operation""#, saying: "never a number")
        let value = Linted(textField("age"), select("q", showIf: when("age", "less than", "ten")))
        value.expectOne("sn-not-a-number", .error, at: #"{"id": "age", "operation""#, saying: "the value \"ten\" is not a number")
        let numeric = Linted(question("s", "segment_select", #""values": ["1", "2"]"#), select("q", showIf: when("s", "less than", "2")), select("end"))
        #expect(numeric.findings.isEmpty)
    }

    // MARK: operations

    @Test("operations the engine does not know: a simple one is false, a tree's is true")
    func unknownOperations() {
        let simple = Linted(select("a"), select("q", showIf: when("a", "is", "Yes")))
        simple.expectOne("sn-unknown-operation", .error, at: #"{"id": "a", "operation""#, saying: "\"is\" is not an operation SurveyNative knows")
        let tree = Linted(select("a"), select("q", showIf: tree("xor", [when("a", "equals", "Yes")])))
        tree.expectOne("sn-unknown-operation", .error, at: #"{"operation": "xor""#, saying: "neither \"and\" nor \"or\"")
    }

    @Test("the eight simple operations and and/or trees are known")
    func knownOperations() {
        let operations = ["equals", "not equals", "greater than", "greater than or equal to", "less than", "less than or equal to"]
        let leaves = operations.map { when("age", $0, "5") } + [when("topics", "contains", "x"), when("topics", "not contains", "y")]
        let linted = Linted(textField("age"), question("topics", "add_text_field"), select("q", showIf: anyOf(allOf(leaves[0], leaves[7]), tree("or", leaves))))
        #expect(linted.findings("sn-unknown-operation").isEmpty)
    }

    @Test("a validation the engine does not implement, or with a value that is not a number, always fails")
    func validationsThatAlwaysFail() {
        let equals = Linted(textField("age", validations(validation("equals", "18", message: "Must be 18"))))
        equals.expectOne("sn-validation-always-fails", .error, at: #"{"operation": "equals""#, saying: "does not implement the validation \"equals\"")
        let word = Linted(textField("age", validations(validation("less than", "ten", message: "Too old"))))
        word.expectOne("sn-validation-always-fails", .error, at: #"{"operation": "less than""#, saying: "its value \"ten\" is not a number")
        let list = Linted(
            multiSelect("music"), textField("count", validations(#"{"operation": "less than", "answer_to_question_id": "music", "on_fail_message": "Too many"}"#)))
        list.expectOne("sn-validation-always-fails", .error, at: #"{"operation": "less than""#, saying: "never a number, so it always fails")
    }

    @Test("the four numeric validations with numbers are fine")
    func numericValidations() {
        let linted = Linted(textField("age", validations(validation("greater than", 10, message: "Too young"), validation("less than or equal to", "80", message: "Too old"))))
        #expect(linted.findings.isEmpty)
    }

    // MARK: order

    @Test("a show_if on a later question is shown unconditionally until that question is answered")
    func forwardReference() {
        let linted = Linted(select("start"), select("reminder", showIf: when("email", "not equals", "")), textField("email"))
        linted.expectOne("sn-forward-reference", .warning, at: #"{"id": "email", "operation""#, saying: "depends on 'email', which comes later")
        #expect(linted.findings.count == 1)
    }

    @Test("a show_if on earlier questions, or a sub-question's on its parent, is no forward reference")
    func backwardReference() {
        let linted = Linted(
            select("a", subQuestions: [textField("why", showIf: when("a", "equals", "No"))]), select("b", showIf: when("a", "equals", "Yes")), select("end"))
        #expect(linted.findings.isEmpty)
    }

    @Test("a show_if on the first question is evaluated only once what it names is answered")
    func showIfOnFirstQuestion() {
        let linted = Linted(select("first", showIf: when("second", "equals", "Yes")), select("second"))
        linted.expectOne("sn-show-if-on-first", .warning, at: #"{"id": "second", "operation""#, saying: "'first' is the first question")
        #expect(linted.findings("sn-forward-reference").isEmpty)
    }

    @Test("a condition reading a question that can be hidden follows its kept answer")
    func staleAnswer() {
        let linted = Linted(
            select("like_music"), multiSelect("music_types", showIf: when("like_music", "equals", "Yes")),
            select("concerts", showIf: when("music_types", "contains", "Pop")))
        linted.expectOne("sn-stale-answer", .warning, at: #"{"id": "music_types", "operation""#, saying: "the engine keeps the answers of hidden questions")
    }

    @Test("a condition that also reads what hides the question it reads is fine")
    func staleAnswerGuarded() {
        let linted = Linted(
            select("like_music"), multiSelect("music_types", showIf: when("like_music", "equals", "Yes")),
            select("concerts", showIf: allOf(when("like_music", "equals", "Yes"), when("music_types", "contains", "Pop"))), select("end"))
        #expect(linted.rules == ["sn-multi-select-stall"])
    }

    @Test(
        "a later question a multi_select option can hide while it is active stalls the survey (SQ:1292-1298: a plain option tap runs no sectionsToInsert); one depending on a single_select, or on a numeric comparison a list never meets, does not")
    func multiSelectStall() {
        let linted = Linted(multiSelect("music"), select("gig", showIf: when("music", "contains", "Rock")), select("end"))
        linted.expectOne("sn-multi-select-stall", .warning, at: #"{"id": "music", "operation""#, saying: "the respondent sees no current question and no Submit")
        #expect(Linted(select("music"), select("gig", showIf: when("music", "equals", "Rock")), select("end")).findings("sn-multi-select-stall").isEmpty)
        #expect(Linted(multiSelect("music"), select("gig", showIf: when("music", "greater than", "1")), select("end")).findings("sn-multi-select-stall").isEmpty)
    }

    @Test("a last question that can be hidden while it is active is a dead end; one always shown is not")
    func deadEnd() {
        let linted = Linted(select("consent"), textField("email", showIf: when("consent", "equals", "Yes")))
        linted.expectOne("sn-dead-end", .warning, at: #"{"id": "consent", "operation""#, saying: "the engine shows no Submit")
        #expect(Linted(select("consent"), textField("email", showIf: when("consent", "equals", "Yes")), select("end")).findings.isEmpty)
        let alwaysShown = Linted(select("consent"), textField("email", showIf: tree("xor", [when("consent", "equals", "Yes")])))
        #expect(alwaysShown.rules == ["sn-unknown-operation"])
    }

    @Test("a sub-question depending on another section can show a stale visibility")
    func staleSubQuestion() {
        let linted = Linted(select("a"), select("b", subQuestions: [textField("why", showIf: when("a", "equals", "Yes"))]))
        linted.expectOne("sn-stale-sub-question", .warning, at: #"{"id": "a", "operation""#, saying: "caches whether it shows")
        #expect(Linted(select("a"), select("b", subQuestions: [textField("why", showIf: when("b", "equals", "Yes"))])).findings.isEmpty)
    }

    // MARK: keys the engine ignores or misreads

    @Test("single_text_area ignores validations and max_chars, and selects ignore question-level validations")
    func ignoredValidations() {
        let area = Linted(question("story", "single_text_area", #""max_chars": "10""#))
        area.expectOne("sn-ignored-validation", .warning, at: #""10""#, saying: "single_text_area 'story' ignores \"max_chars\"")
        let select = Linted(question("a", "single_select", #""options": ["Yes"], \#(validations(validation("greater than", 1, message: "x")))"#))
        select.expectOne("sn-ignored-validation", .warning, at: #"[{"operation""#, saying: "only the validations of its Other option apply")
        #expect(Linted(textField("age", #""max_chars": "2""#)).findings.isEmpty)
    }

    @Test("numbers where the engine reads strings are treated as absent")
    func numericJSONWhereStringsAreRead() {
        let linted = Linted(question("born", "year_picker", #""max_year": 2020, "initial_year": "1990""#), textField("age", #""max_chars": 2"#))
        let numeric = linted.findings("sn-numeric-string")
        #expect(numeric.map(\.position) == [linted.position(of: "2020"), linted.position(of: "2}")])
        #expect(numeric.allSatisfy { $0.severity == .warning && $0.message.contains("not a string") })
        #expect(Linted(question("born", "year_picker", #""max_year": "2020", "num_years": "100""#), textField("age", #""max_chars": "2""#)).findings.isEmpty)
    }

    @Test("a sort_order other than DESC or ASC lists the years ascending")
    func sortOrderMisspelt() {
        let linted = Linted(question("born", "year_picker", #""sort_order": "desc""#))
        linted.expectOne("sn-ignored-key", .warning, at: #""desc""#, saying: "lists the years ascending")
    }

    @Test("a max_chars that is not an integer rejects all typing")
    func maxCharsNotAnInteger() {
        let linted = Linted(textField("age", #""max_chars": "two""#))
        linted.expectOne("sn-max-chars", .error, at: #""two""#, saying: "rejects all typing")
    }

    @Test("a table_select with more than three options can pick only three")
    func tableWithFourOptions() {
        let linted = Linted(tableSelect("week", options: ["Often", "Sometimes", "Rarely", "Never"]))
        linted.expectOne("sn-table-select-options", .warning, at: #"["Often""#, saying: "has 4 options but its cell has three buttons")
        #expect(Linted(tableSelect("week")).findings.isEmpty)
    }

    @Test("date_diff with more than one component depends on dictionary order; one component is fine")
    func dateDiffComponents() {
        let linted = Linted(question("day", "date_picker", #""max_date": "current_date", "date_diff": {"year": -1, "day": -1}"#))
        linted.expectOne("sn-date-diff-order", .warning, at: #"{"year""#, saying: "more than one component")
        #expect(Linted(question("day", "date_picker", #""max_date": "current_date", "date_diff": {"year": -1}"#)).findings.isEmpty)
    }

    // MARK: crashes of the real engine

    static let crashing: [(question: String, at: String, reason: String)] = [
        (question("q", "single_select"), #"{"id": "q""#, "has no \"options\" array"),
        (question("q", "segment_select"), #"{"id": "q""#, "\"values\""),
        (question("q", "table_select", #""options": ["Yes"]"#), #"{"id": "q""#, "\"table_questions\""),
        (question("q", "multi_text_field"), #"{"id": "q""#, "\"fields\""),
        (question("q", "single_select", #""options": ["Yes", {"title": "Other"}]"#), #"{"title""#, "has no \"type\""),
        (question("q", "year_picker", #""min_year": "19x0""#), #""19x0""#, "is not a year"),
        (question("q", "date_picker", #""min_date": "2020-02-30""#), #""2020-02-30""#, "is not a yyyy-MM-dd date"),
    ]

    @Test(
        "every key the engine force-unwraps when it shows a question is reported where it is missing or wrong",
        arguments: SurveyNativeLintTests.crashing.indices)
    func crashOnShow(_ index: Int) {
        let broken = SurveyNativeLintTests.crashing[index]
        let linted = Linted(select("a"), broken.question)
        linted.expectOne("sn-crash-on-show", .error, at: broken.at, saying: broken.reason)
        #expect(linted.findings("sn-crash-on-show").first?.message.hasPrefix("the real engine crashes when it shows 'q'") == true)
    }

    @Test("questions with every key the engine force-unwraps give no crash finding")
    func completeQuestionsDoNotCrash() {
        let linted = Linted(
            selectWithOther("a"), tableSelect("t"), multiTextField("m"), question("s", "segment_select", #""values": ["1"]"#),
            question("y", "year_picker", #""min_year": "1990""#), question("d", "date_picker", #""min_date": "2020-02-29""#))
        #expect(linted.findings.isEmpty)
    }

    @Test("a condition without value crashes the engine when evaluated")
    func conditionWithoutValue() {
        let linted = Linted(select("a"), select("q", showIf: #"{"id": "a", "operation": "equals"}"#), select("end"))
        linted.expectOne("sn-condition-without-value", .error, at: #"{"id": "a", "operation""#, saying: "has no \"value\"")
        #expect(linted.findings.count == 1)
    }

    @Test("a condition without an operation string crashes the engine when evaluated (SQ:471), with or without a value")
    func conditionWithoutOperation() {
        let linted = Linted(select("a"), select("q", showIf: #"{"id": "a", "value": "Yes"}"#), select("end"))
        linted.expectOne("sn-condition-without-value", .error, at: #"{"id": "a", "value""#, saying: "has no \"operation\" string")
    }

    @Test("a failing validation without on_fail_message, or a dynamic one without for_label, crashes the engine")
    func validationCrashesOnMissingKeys() {
        let message = Linted(textField("age", validations(#"{"operation": "greater than", "value": 10}"#)))
        message.expectOne("sn-validation-crash", .error, at: #"{"operation""#, saying: "has no \"on_fail_message\"")
        let label = Linted(dynamicLabel("height", rules: [validation("greater than", 3, message: "Too short")]))
        label.expectOne("sn-validation-crash", .error, at: #"{"operation""#, saying: "has no \"for_label\"")
    }

    @Test("answer_to_question_id naming a question that can be unanswered when the validation runs crashes the engine")
    func validationOnAnswerThatCanBeMissing() {
        let rule = #"{"operation": "less than or equal to", "answer_to_question_id": "age", "on_fail_message": "Too old"}"#
        let later = Linted(textField("kiss", validations(rule)), textField("age"))
        later.expectOne("sn-validation-crash", .error, at: #"{"operation""#, saying: "'age' comes later in the survey")
        let hidden = Linted(select("adult"), textField("age", showIf: when("adult", "equals", "Yes")), textField("kiss", validations(rule)))
        hidden.expectOne("sn-validation-crash", .error, at: #"{"operation": "less"#, saying: "'age' can be hidden")
    }

    @Test("answer_to_question_id naming an earlier question that is always shown is safe")
    func validationOnEarlierAnswer() {
        let rule = #"{"operation": "less than or equal to", "answer_to_question_id": "age", "on_fail_message": "Too old"}"#
        let linted = Linted(textField("age"), textField("kiss", validations(rule)), selectWithOther("adult", rules: [rule]))
        #expect(linted.findings.isEmpty)
    }

    @Test("a submit without button_title or with a url that is not a URL crashes the engine")
    func submitCrashes() {
        let linted = Linted(text: surveyText([select("a")], submit: #"{"url": "not a url"}"#))
        let crashes = linted.findings("sn-submit-crash")
        #expect(crashes.map(\.position) == [SourcePosition(line: 2, column: 11), SourcePosition(line: 2, column: 19)])
        #expect(crashes[0].message.contains("no \"button_title\""))
        #expect(crashes[1].message.contains("\"not a url\" is not a URL"))
        #expect(Linted(text: surveyText([select("a")], submit: #"{"button_title": "Send", "url": "https://example.com/a"}"#)).findings.isEmpty)
    }

    // MARK: conditions that cannot change

    @Test("an and of contradictory leaves is never true; an or of complementary ones is always true")
    func constantTrees() {
        let and = Linted(select("a"), select("q", showIf: allOf(when("a", "equals", "Yes"), when("a", "equals", "No"))))
        and.expectOne("sn-constant-condition", .error, at: #"{"operation": "and""#, saying: "never true: 'a' cannot equal both \"No\" and \"Yes\"")
        let or = Linted(select("a"), select("q", showIf: anyOf(when("a", "not equals", "Yes"), when("a", "not equals", "No"))))
        or.expectOne("sn-constant-condition", .error, at: #"{"operation": "or""#, saying: "always true")
        let range = Linted(textField("age"), select("q", showIf: allOf(when("age", "greater than", "60"), when("age", "less than", "18"))))
        range.expectOne("sn-constant-condition", .error, at: #"{"operation": "and""#, saying: "both above 60 and below 18")
        let empty = Linted(select("a"), select("q", showIf: allOf()))
        empty.expectOne("sn-constant-condition", .error, at: #"{"operation": "and""#, saying: "an and without subconditions is always true")
    }

    @Test("an and or an or that depends on the answers is fine")
    func treesThatCanChange() {
        let linted = Linted(
            select("a"), textField("age"),
            select(
                "q",
                showIf: anyOf(
                    allOf(when("a", "equals", "Yes"), when("age", "greater than", "18"), when("age", "less than", "60")),
                    when("a", "not equals", "Yes"), when("a", "equals", "No"))),
            select("end"))
        #expect(linted.findings.isEmpty)
    }

    @Test("a leaf with its own finding is not judged again in its tree")
    func oneFindingPerCause() {
        let linted = Linted(select("a"), select("q", showIf: allOf(when("a", "equals", "Yes"), when("a", "equals", "Maybe"))), select("end"))
        #expect(linted.rules == ["sn-unknown-value"])
    }

    @Test("a custom condition without extra.id cannot be set by a scenario; without ids it is never evaluated")
    func customConditions() {
        let noKey = Linted(textField("age"), select("q", showIf: #"{"operation": "custom", "ids": ["age"]}"#))
        noKey.expectOne("sn-custom-without-key", .warning, at: #"{"operation": "custom""#, saying: "a scenario cannot say what the host app decides")
        let noIDs = Linted(textField("age"), select("q", showIf: custom(ids: [], key: "check")), select("end"))
        noIDs.expectOne("sn-custom-without-ids", .warning, at: #"{"operation": "custom""#, saying: "'q' is always shown")
        #expect(Linted(textField("age"), select("q", showIf: custom(ids: ["age"], key: "check")), select("end")).findings.isEmpty)
    }

    @Test("a for_label that no label set has never runs its validation")
    func unknownLabel() {
        let linted = Linted(dynamicLabel("height", rules: [validation("greater than", 100, message: "Too short", forLabel: "Centimetres")]))
        linted.expectOne("sn-unknown-label", .warning, at: #"{"operation""#, saying: "did you mean 'Centimeters'?")
        #expect(Linted(dynamicLabel("height", rules: [validation("greater than", 100, message: "Too short", forLabel: "Centimeters")])).findings.isEmpty)
    }

    @Test("a condition that is not an object counts as true")
    func malformedCondition() {
        let linted = Linted(select("a"), question("q", "single_select", #""options": ["Yes"], "show_if": "a is Yes""#))
        linted.expectOne("sn-malformed-condition", .error, at: #""a is Yes""#, saying: "always shows the question")
    }

    // MARK: whole files

    static let corpus = Corpus.url("surveynative/ExampleQuestions.json")

    private func lintFile(_ url: URL, as path: String) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let findings = FormatRegistry.standard.lint(SourceFile(path: path, text: text)).findings
        return findings.map { "\($0.position?.description ?? "?") \($0.severity.rawValue) \($0.rule ?? "")" }
    }

    @Test(
        "the example survey: go_to_concerts follows the kept answer of music_types once like_music hides it; six failure messages that say another bound than the one checked; five questions whose hidden answers are submitted",
        .requires(.corpus)
    )
    func exampleSurvey() throws {
        #expect(try lintFile(SurveyNativeLintTests.corpus, as: "ExampleQuestions.json") == [
            "48:22 note sn-hidden-answer-submitted",  // which_sports
            "65:9 warning sn-validation-message",  // age: "at least 10" of greater than 10
            "108:13 warning sn-validation-message",  // felt_like_adult: "at least 10" of greater than 5
            "132:18 note sn-hidden-answer-submitted",  // lie_about_age
            "169:18 note sn-hidden-answer-submitted",  // music_types
            "184:18 note sn-hidden-answer-submitted",  // go_to_concerts
            "184:18 warning sn-multi-select-stall",  // go_to_concerts: a music_types tap can hide it while active
            "184:18 warning sn-stale-answer",
            "223:9 warning sn-validation-message",  // height: "at least 100cm" of greater than 100
            "254:9 warning sn-validation-message",  // weight: "at least 35kg" of greater than 35
            "260:9 warning sn-validation-message",  // weight: "less than 645kg" of less than 635
            "266:9 warning sn-validation-message",  // weight: "at least 78lb" of greater than 78
            "336:18 note sn-hidden-answer-submitted",  // prefer_tv_books
        ])
    }

    @Test(
        "the check-in survey has no errors; bike_days and car_free, which a commute tap can hide while active, stall it; a note on each question whose hidden answer is submitted")
    func checkinSurvey() throws {
        let findings = try lintFile(URL(fileURLWithPath: Corpus.packageRoot).appendingPathComponent("Scenarios/checkin/checkin.json"), as: "checkin.json")
        #expect(findings == [
            "51:18 note sn-hidden-answer-submitted", "90:18 note sn-hidden-answer-submitted", "90:18 warning sn-multi-select-stall",
            "101:18 note sn-hidden-answer-submitted", "104:11 warning sn-multi-select-stall",
            "177:22 note sn-hidden-answer-submitted", "235:18 note sn-hidden-answer-submitted", "277:18 note sn-hidden-answer-submitted",
            "287:18 note sn-hidden-answer-submitted", "306:18 note sn-hidden-answer-submitted",
        ])
    }

    @Test("the quirks survey reports its forward reference, its number value, the kept answer of email and its dead end")
    func quirksSurvey() throws {
        let findings = try lintFile(URL(fileURLWithPath: Corpus.packageRoot).appendingPathComponent("Scenarios/quirks/quirks.json"), as: "quirks.json")
        #expect(findings == [
            "14:18 warning sn-forward-reference", "14:18 note sn-hidden-answer-submitted", "14:18 warning sn-stale-answer",
            "30:18 note sn-hidden-answer-submitted", "30:18 error sn-number-value", "45:18 note sn-hidden-answer-submitted",
            "55:18 warning sn-dead-end", "55:18 note sn-hidden-answer-submitted",
        ])
    }

    // MARK: hidden answers and failure messages

    @Test("a question whose show_if can change after it is answered gets a note: its hidden answer is still submitted")
    func hiddenAnswerSubmitted() {
        let linted = Linted(select("pets"), textField("names", showIf: when("pets", "equals", "Yes")), select("end"))
        linted.expectOne("sn-hidden-answer-submitted", .note, at: #"{"id": "pets", "operation""#, saying: "nothing is pruned")
    }

    @Test("a question always shown, or one whose show_if the engine reads as always true, gets no such note")
    func alwaysShownHasNoHiddenAnswer() {
        #expect(Linted(select("pets"), textField("names"), select("end")).notes.isEmpty)
        let malformed = Linted(select("a"), question("q", "single_select", #""options": ["Yes"], "show_if": "a is Yes""#))
        #expect(malformed.findings("sn-hidden-answer-submitted").isEmpty)
    }

    @Test("a failure message naming another number than the bound is a warning")
    func messageNamesAnotherBound() {
        let rule = validation("less than", 635, message: "Weight must be less than 645kg")
        let linted = Linted(textField("weight", validations(rule)))
        linted.expectOne("sn-validation-message", .warning, at: #"{"operation": "less than""#, saying: "names 645, but the validation checks less than 635")
    }

    @Test("'at least N' of a strict greater than N refuses N itself: a warning")
    func atLeastOfStrictBound() {
        let linted = Linted(textField("age", validations(validation("greater than", 10, message: "Age must be at least 10"))))
        linted.expectOne("sn-validation-message", .warning, at: #"{"operation": "greater than""#, saying: "allows 10, but the validation is greater than 10")
    }

    @Test("a message that agrees with its bound, or names no number, is fine")
    func messagesThatAgree() {
        for (operation, value, message) in [
            ("greater than", 3.0, "Height must be at least 4 feet"), ("less than", 10, "Height must be less than 10 feet"),
            ("greater than or equal to", 10, "Age must be at least 10"), ("less than", 1400, "Weight must be less than 1,400lb"),
            ("greater than", 0, "Enter a number"),
        ] {
            let linted = Linted(textField("q", validations(validation(operation, .number(value), message: message))))
            #expect(linted.findings("sn-validation-message").isEmpty, "\(message)")
        }
    }
}

extension Linted {
    /// A segment_select `s` with these values, then a question whose show_if is `condition`.
    init(segment values: [String], _ condition: String) {
        self.init(question("s", "segment_select", #""values": \#(json(values))"#), select("q", showIf: condition))
    }
}
