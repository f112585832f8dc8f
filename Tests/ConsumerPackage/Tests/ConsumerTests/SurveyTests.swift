import SurveyReplayTesting
import Testing

@Test func surveysBehaveAsRecorded() {
    assertScenarios(in: "Scenarios")
}
