import SurveyCore

/// What `survey-replay lint` finds in a SurveyNative file (the rules of issue 6 and reference §1-§7).
enum SurveyNativeLint {
    static func findings(_ root: JSONCursor) -> [Diagnostic] {
        do throws(InputError) {
            return try SurveyNativeFormat().loadSurvey(root).warnings
        } catch {
            return error.diagnostics
        }
    }
}
