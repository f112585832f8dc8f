import SurveyCore
import Testing

@testable import SurveyFormats

/// What stops a Sage file from loading (the factory's decoding, `validate()`, reference §1.3) and the lint
/// rules, each with a failing and a passing example.
@Suite("Sage load errors and lint")
struct SageLintTests {
    func rules(_ text: String) -> [String] { lintFindings(text).findings.compactMap(\.rule) }

    @Test("duplicate step identifiers in a task, and duplicate field identifiers in a form, do not load")
    func duplicateIdentifiers() {
        let steps = loadErrors(text: sageTask([instruction("a"), instruction("a")]))
        #expect(steps.map(\.rule) == ["sage-duplicate-id"])
        #expect(steps.first?.pointer == "/steps/1")
        let fields = loadErrors(text: sageTask([form("f", inputField("x", "integer"), inputField("x", "string"))]))
        #expect(fields.map(\.rule) == ["sage-duplicate-id"])
        // The same identifier in two sections is two steps.
        let sections = #"{"identifier": "s", "type": "section", "steps": [\#(instruction("a"))]}"#
        #expect(throws: Never.self) { try loadSurvey(text: sageTask([instruction("a"), sections])) }
    }

    @Test("a legacy matchingAnswer of another type than the field's is a located error")
    func matchingAnswerType() {
        let field = inputField("x", "integer", #""surveyRules": [{"matchingAnswer": "one"}]"#)
        let errors = loadErrors(text: sageTask([form("f", field)]))
        #expect(errors.map(\.rule) == ["sage-type-mismatch"])
        #expect(errors.first?.pointer == "/steps/0/inputFields/0/surveyRules/0/matchingAnswer")
    }

    @Test("the skip operator is de, not d: an unknown operator is an error with that hint")
    func unknownOperator() {
        let field = inputField("x", "integer", #""surveyRules": [{"ruleOperator": "d"}]"#)
        let errors = loadErrors(text: sageTask([form("f", field)]))
        #expect(errors.first?.hint == "the skip operator is \"de\", not \"d\"")
    }

    @Test("a form step without inputFields, a step without identifier, an unknown input item type: each located")
    func fileShape() {
        let errors = loadErrors(text: sageTask([#"{"identifier": "f", "type": "form"}"#, #"{"type": "instruction"}"#, simpleQuestion("q", "integr")]))
        #expect(errors.count == 3)
        #expect(errors.map(\.pointer) == ["/steps/0", "/steps/1", "/steps/2/inputItem/type"])
        #expect(errors[2].message.contains("did you mean 'integer'?"))
    }

    @Test("lint reads on past errors and reports them all")
    func lintReadsOn() {
        let findings = lintFindings(sageTask([instruction("a"), instruction("a"), simpleQuestion("q", "nope")])).findings
        #expect(findings.filter { $0.severity == .error }.count == 2)
    }

    @Test("sage-unknown-target: a target no navigator finds is an error at the target; a step or exit is not (SR@v2.8.88 RSDOrderedStepNavigator.swift:204)")
    func unknownTarget() {
        let bad = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "ende""#)]), instruction("end")])
        let findings = lintFindings(bad).findings
        #expect(findings.map(\.rule) == ["sage-unknown-target"])
        #expect(findings.first?.pointer == "/steps/0/surveyRules/0/skipToIdentifier")
        #expect(findings.first?.message.contains("did you mean 'end'?") == true)
        // SageResearch has no `beginning`: it is an id like any other.
        let beginning = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "beginning""#)])])
        #expect(lintFindings(beginning).findings.map(\.rule) == ["sage-unknown-target"])
        let good = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "end""#), rule(#""matchingAnswer": 2, "skipToIdentifier": "exit""#)]), instruction("end")])
        #expect(rules(good).isEmpty)
    }

    @Test("sage-reserved-target: a SageResearch rule's nextStep or nextSection is an unknown id; AssessmentModel's beginning ends the section (SR@v2.8.88 RSDOrderedStepNavigator.swift:192-204; AM NodeNavigator.swift:53-54)")
    func reservedTargets() {
        let next = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "nextSection""#)]), instruction("b")])
        let findings = lintFindings(next).findings
        #expect(findings.map(\.rule) == ["sage-reserved-target"])
        #expect(findings.first?.severity == .error)
        let beginning = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "beginning""#)]), instruction("b")], extra: assessmentMarker)
        #expect(lintFindings(beginning).findings.map(\.severity) == [.warning])
    }

    @Test("sage-exit-in-section: exit inside a section drops the section's result (SageResearch) or only leaves it (AssessmentModel Swift)")
    func exitInSection() {
        let research = sageTask([section("s", simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "exit""#)]))])
        #expect(lintFindings(research).findings.first { $0.rule == "sage-exit-in-section" }?.message.contains("not added to the task result") == true)
        let assessment = sageTask([section("s", simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "exit""#)]))], extra: assessmentMarker)
        #expect(lintFindings(assessment).findings.first { $0.rule == "sage-exit-in-section" }?.message.contains("Kotlin one (Android) ends the whole run") == true)
    }

    @Test("a legacy field of base type codable cannot have rules: the factory throws (SR@v2.8.88 RSDFactory.swift:476-479)")
    func codableFieldRules() {
        let field = inputField("x", "custom", #""surveyRules": [{"matchingAnswer": 1}]"#)
        #expect(loadErrors(text: sageTask([form("f", field)])).map(\.rule) == ["sage-rule-not-decodable"])
    }

    @Test("AssessmentModel comparisons: an array answer never equals one value, ge and le match a skip on iOS, Kotlin orders text (AM SurveyRule.swift:71-93, SurveyRule.kt:122-145)")
    func assessmentComparisons() {
        let multiple = #"{"identifier": "a", "type": "choiceQuestion", "baseType": "string", "singleChoice": false, "choices": [{"value": "x"}], "surveyRules": [{"matchingAnswer": "x", "skipToIdentifier": "b"}]}"#
        #expect(rules(sageTask([multiple, instruction("b")], extra: assessmentMarker)) == ["sage-array-equals-scalar"])
        let order = sageTask([simpleQuestion("a", rules: [rule(#""matchingAnswer": 3, "ruleOperator": "ge", "skipToIdentifier": "b""#)]), instruction("b")], extra: assessmentMarker)
        #expect(Set(rules(order)) == ["sage-order-on-skip", "sage-kotlin-text-order"])
    }

    @Test("sage-rules-cancel: two rules on the same answer with different targets (legacy) or any targets (v3)")
    func rulesCancel() {
        let legacy = #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "b"}, {"matchingAnswer": 1, "skipToIdentifier": "c"}]"#
        #expect(rules(sageTask([form("a", inputField("x", "integer", legacy)), instruction("b"), instruction("c")])) == ["sage-rules-cancel"])
        let sameTarget = #""surveyRules": [{"matchingAnswer": 1, "skipToIdentifier": "b"}, {"matchingAnswer": 1, "skipToIdentifier": "b"}]"#
        #expect(rules(sageTask([form("a", inputField("x", "integer", sameTarget)), instruction("b")])).isEmpty)
        let v3 = [rule(#""matchingAnswer": 1, "skipToIdentifier": "b""#), rule(#""matchingAnswer": 1, "skipToIdentifier": "b""#)]
        #expect(rules(sageTask([simpleQuestion("a", rules: v3), instruction("b")])) == ["sage-rules-cancel"])
    }

    @Test("sage-shadowed-rule: in the successor a rule after one on the same answer never decides")
    func shadowedRule() {
        let shadowed = [rule(#""matchingAnswer": 1, "skipToIdentifier": "b""#), rule(#""matchingAnswer": 1, "skipToIdentifier": "c""#)]
        #expect(rules(sageTask([simpleQuestion("a", rules: shadowed), instruction("b"), instruction("c")], extra: assessmentMarker)) == ["sage-shadowed-rule"])
        let distinct = [rule(#""matchingAnswer": 1, "skipToIdentifier": "b""#), rule(#""matchingAnswer": 2, "skipToIdentifier": "c""#)]
        #expect(rules(sageTask([simpleQuestion("a", rules: distinct), instruction("b"), instruction("c")], extra: assessmentMarker)).isEmpty)
    }

    @Test("sage-no-such-choice: eq on a value no choice has never matches")
    func noSuchChoice() {
        let bad = inputField("x", "singleChoice.integer", #""choices": [1, 2], "surveyRules": [{"matchingAnswer": 3, "skipToIdentifier": "b"}]"#)
        #expect(rules(sageTask([form("a", bad), instruction("b")])) == ["sage-no-such-choice"])
        let good = inputField("x", "singleChoice.integer", #""choices": [1, 2], "surveyRules": [{"matchingAnswer": 2, "skipToIdentifier": "b"}]"#)
        #expect(rules(sageTask([form("a", good), instruction("b")])).isEmpty)
    }

    @Test("sage-type-mismatch (successor): a string never equals an integer answer on iOS, but Kotlin compares the text; a boolean never equals a number on either (JM@7b81f56 JsonElement.swift:120-135; AM SurveyRule.kt:123)")
    func successorTypeMismatch() {
        func found(_ type: String, _ matching: String) -> [Diagnostic] {
            lintFindings(sageTask([simpleQuestion("a", type, rules: [rule(#""matchingAnswer": \#(matching), "skipToIdentifier": "exit""#)])], extra: assessmentMarker)).findings
        }
        let text = found("integer", #""1""#)
        #expect(text.map(\.rule) == ["sage-type-mismatch"])
        #expect(text.first?.message.contains("Android (Kotlin) compares the JSON text") == true)
        #expect(found("integer", "1").isEmpty)
        // A number against a string question: Swift reads a numeric answer with NumberFormatter, Kotlin the text.
        #expect(found("string", "5").isEmpty)
        #expect(found("integer", "true").first?.message.contains("never equal (Swift and Kotlin)") == true)
    }

    @Test("sage-skip-rule-never-matches: a de rule on a required step without a skip")
    func skipRuleNeverMatches() {
        let required = inputField("x", "integer", #""surveyRules": [{"ruleOperator": "de", "skipToIdentifier": "b"}]"#)
        #expect(rules(sageTask([form("a", required), instruction("b")])) == ["sage-skip-rule-never-matches"])
        let optional = inputField("x", "integer", #""optional": true, "surveyRules": [{"ruleOperator": "de", "skipToIdentifier": "b"}]"#)
        #expect(rules(sageTask([form("a", optional), instruction("b")])).isEmpty)
    }

    @Test("sage-backward-jump: a note on a rule that jumps back")
    func backwardJump() {
        let back = sageTask([instruction("a"), simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "a""#)])])
        #expect(lintFindings(back).findings.map(\.severity) == [.note])
        #expect(rules(back) == ["sage-backward-jump"])
        let forward = sageTask([simpleQuestion("q", rules: [rule(#""matchingAnswer": 1, "skipToIdentifier": "a""#)]), instruction("a")])
        #expect(rules(forward).isEmpty)
    }

    @Test("a format recognizes only its own files: SurveyNative, Sage and Owlmetry never overlap")
    func recognition() throws {
        let owl = #"{"version": 1, "questions": [{"id": "q", "type": "nps", "title": "Recommend?", "required": false}]}"#
        let native = surveyText([select("a")])
        let sage = sageTask([instruction("a")])
        let formats = FormatRegistry.standard.formats
        for (text, expected) in [(owl, "owlmetry"), (native, "surveynative"), (sage, "sage")] {
            let root = try JSONParser.parse(SourceFile(path: "x.json", text: text))
            #expect(formats.filter { $0.recognizes(root) }.map(\.name) == [expected])
        }
        // A SurveyNative file that also has a version is still SurveyNative: Owlmetry schemas have no submit.
        let both = #"{"version": 1, "questions": [], "submit": {"button_title": "Send", "url": "https://example.com"}}"#
        #expect(formats.filter { $0.recognizes(try! JSONParser.parse(SourceFile(path: "x.json", text: both))) }.map(\.name) == ["surveynative"])
    }

    @Test("sage-invalid-regex: a textValidator that does not compile")
    func invalidRegex() {
        let bad = sageTask([form("a", inputField("x", "string", #""textFieldOptions": {"textValidator": "[a-"}"#))])
        #expect(lintFindings(bad).findings.compactMap(\.rule) == ["sage-invalid-regex"])
        let good = sageTask([form("a", inputField("x", "string", #""textFieldOptions": {"textValidator": "[a-z]+"}"#))])
        #expect(lintFindings(good).findings.isEmpty)
    }
}
