import SurveyCore
import SurveyHarness
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// An R4 session tells its focus's place on the page by the focus's id hash rather than by counting its
/// position (`FHIRSession.viewFingerprint`): views must still have one fingerprint exactly when their
/// visible lists, focus positions and Submit agree.
@Suite("FHIR R4 sessions: the view's fingerprint")
struct FHIRViewFingerprintTests {
    private struct View: Hashable {
        let visible: [String]
        let position: Int?
        let submittable: Bool
    }

    /// Every view after every step of seeded walks: no fingerprint stands for two views, no view has two.
    /// Returns how many views were seen, and how many visible lists (fewer: lists seen with the focus at
    /// several places, which only the place tells apart).
    private func check(_ survey: any Survey, options: [String: String], walks: Int, _ label: String) -> (views: Int, lists: Int) {
        let settings = SessionSettings(today: testToday, options: options)
        var walker = Walker(survey: survey, settings: settings, maxSteps: 60, builtInProperties: false, properties: nil)
        var viewOf: [UInt64: View] = [:]
        var fingerprintOf: [View: UInt64] = [:]
        for walk in 0..<walks {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(11, walk: walk)))
            let session = survey.makeSession(settings)
            for action in walker.walk(&stream).actions {
                _ = session.perform(action)
                let view = View(visible: session.visibleQuestions, position: session.currentVisiblePosition, submittable: session.isSubmittable)
                let fingerprint = session.viewFingerprint
                #expect(viewOf[fingerprint, default: view] == view, "\(label) walk \(walk): one fingerprint for two views")
                #expect(fingerprintOf[view, default: fingerprint] == fingerprint, "\(label) walk \(walk): two fingerprints for one view")
                viewOf[fingerprint] = view
                fingerprintOf[view] = fingerprint
            }
        }
        return (fingerprintOf.count, Set(fingerprintOf.keys.map(\.visible)).count)
    }

    @Test("on the screener's walks, one fingerprint a view", .requires(.corpus))
    func screener() throws {
        for options in [[:], ["engine": "android-fhir"]] {
            let (views, lists) = check(try FHIRCorpus.load("androidfhir-screener-questionnaire.json"), options: options, walks: 200, "screener \(options)")
            #expect(views > 40 && lists < views)
        }
    }

    @Test("with group instances added and removed (their ids renumbered), one fingerprint a view")
    func repeatingGroups() throws {
        let survey = try loadQuestionnaire(
            questionnaireText([
                fhirItem("trip", "group", #""repeats": true, "maxOccurs": 4"#, items: [
                    fhirItem("city", "string"), fhirItem("nights", "integer", enableWhen: [condition("city", "exists", #""answerBoolean": true"#)]),
                ]),
                fhirItem("done", "boolean", #""required": true"#),
            ]))
        for options in [[:], ["engine": "android-fhir"]] {
            let (views, lists) = check(survey, options: options, walks: 300, "trips \(options)")
            #expect(views > 30 && lists < views)
        }
    }
}
