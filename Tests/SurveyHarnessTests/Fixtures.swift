import SurveyCore
import SurveyFormats

/// A small SurveyNative survey for harness tests: a choice that reveals a follow-up, a text field
/// with a validation, and a last question.
enum Fixtures {
    static let surveyJSON = """
        {
          "questions": [
            {"id": "smoker", "question": "Do you smoke?", "question_type": "single_select", "options": ["Yes", "No"]},
            {"id": "per_day", "question": "How many a day?", "question_type": "single_text_field",
             "validations": [{"operation": "greater than", "value": 0, "on_fail_message": "Enter at least 1"}],
             "show_if": {"id": "smoker", "operation": "equals", "value": "Yes"}},
            {"id": "done", "question": "Finished?", "question_type": "single_select", "options": ["Yes"]}
          ],
          "submit": {"button_title": "Send", "url": "https://example.org/r"}
        }
        """

    static func survey() throws -> any Survey {
        try FormatRegistry.standard.load(SourceFile(path: "smoking.json", text: surveyJSON))
    }
}
