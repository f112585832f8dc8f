import SurveyCore
import SurveyHarness
import Testing

@testable import SurveyFormats

/// Loading a Questionnaire costs the same work an item whatever its size: each item's object is read once by
/// the scan for STU3 forms and once decoded, in one engine reading when the R4 engines read the file alike.
/// Counted, not timed (`survey-replay bench` times the load of the same synthetic files).
@Suite("FHIR load: work counted per item")
struct FHIRLoadComplexityTests {
    static let synthetics: [any SyntheticSurvey] = [SyntheticFHIR(), SyntheticC3PRO()]

    private static func reading(_ file: SourceFile) throws -> FHIRDecoder.Reading {
        FHIRDecoder.read(JSONCursor(node: try JSONParser.parse(file)))
    }

    @Test("a reading reads each item's object twice, once scanning for STU3 forms and once decoding it, at 100 items as at 3,000", arguments: synthetics)
    func eachItemReadTwice(_ synthetic: any SyntheticSurvey) throws {
        for size in [100, 3_000] {
            let reading = try Self.reading(synthetic.file(size: size))
            let outline = try #require(reading.outline)
            #expect(reading.loads, "\(size): \(reading.errors)")
            #expect(outline.items.count == size)
            #expect(reading.itemReads == 2 * size, "\(size) items")
        }
    }

    @Test("a file both R4 engines read alike is read once: the bench's synthetic files load without a second engine reading", arguments: synthetics)
    func oneEngineReading(_ synthetic: any SyntheticSurvey) throws {
        let file = synthetic.file(size: 1_000)
        #expect(try !Self.reading(file).differsByEngine)
        let survey = try #require(try FormatRegistry.standard.load(file) as? FHIRSurvey)
        #expect(survey.otherReading == nil)
        #expect(survey.items.count == 1_000)
    }

    @Test("a file the R4 engines read apart is read once by each: twice its items twice")
    func twoEngineReadings() throws {
        // A flag written as a string: LHC-Forms reads its truthiness, android-fhir parses its text.
        let text = questionnaireText([fhirItem("a", "string", #""required": "false""#), fhirItem("b", "boolean")])
        let root = JSONCursor(node: try JSONParser.parse(SourceFile(path: "q.json", text: text)))
        let lhc = FHIRDecoder.read(root, engine: .lhcForms)
        #expect(lhc.differsByEngine && lhc.itemReads == 4)
        #expect(FHIRDecoder.read(root, engine: .androidFHIR).itemReads == 4)
        #expect(try loadQuestionnaire(text).otherReading?.engine == .androidFHIR)
    }
}
