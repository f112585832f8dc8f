import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyFormats

/// The example survey of the SurveyNative repository (`shared/corpus/surveynative/ExampleQuestions.json`,
/// beside the clone), checked against the facts the reference states about it.
enum ExampleSurvey {
    static let url = Corpus.url("surveynative/ExampleQuestions.json")

    static func load() throws -> any Survey {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try FormatRegistry.standard.load(SourceFile(path: "ExampleQuestions.json", text: text))
    }

    static func startSession() throws -> any SurveySession {
        try load().makeSession(SessionSettings(today: testToday))
    }

    /// A respondent who answers every question, changing like_music to "No" after picking Pop.
    static let walk: [Action] = [
        .answer("ice_cream", ["Other": "Mint"]),
        .answer("perfect_day", "Sleeping in"),
        .answer("birthyear", "1990"),
        .answer("sports", "Yes"), .answer("which_sports", ["Soccer", "", "Tennis"]),
        .answer("age", "36"),
        .answer("age_of_first_kiss", "15"),
        .answer("felt_like_adult", ["Years old": "20"]),
        .answer("like_music", "Yes"),
        .answer("music_types", ["Pop"]), .tapNext,
        .answer("like_music", "No"),
        .answer("go_to_concerts", "Yes"),
        .answer("height", ["Centimeters": "180"]),
        .answer("weight", ["Kilograms": "80"]),
        .answer("happiness", "5"),
        .answer("weekend_activities", ["play_sports": "No", "read_books": "Yes", "go_dancing": "No", "watch_tv": "Sometimes"]),
        .answer("prefer_tv_books", "Yes"),
        .answer("date", "2026-06-01"),
        .answer("pets", ["Dogs": "1", "Cats": "0"]), .tapNext,
    ]

    /// The actions of `walk` before its first answer to `id`, and from it on.
    static func actions(before id: String) -> [Action] { Array(walk.prefix { !answers($0, id) }) }

    static func actions(from id: String) -> [Action] { Array(walk.drop { !answers($0, id) }) }

    private static func answers(_ action: Action, _ id: String) -> Bool {
        if case .answer(let question, _) = action { return question == id }
        return false
    }

    /// A session that has played `walk` up to its first answer to `id`, and is on that question.
    static func session(before id: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> any SurveySession {
        let session = try startSession()
        session.play(actions(before: id), sourceLocation: sourceLocation)
        try #require(session.currentQuestion == id, "the walk must reach '\(id)'", sourceLocation: sourceLocation)
        return session
    }
}

/// Without `../shared/corpus` beside the clone these tests are reported as skipped, except under CI, where
/// they fail.
@Suite("SurveyNative example survey", .requires(.corpus))
struct SurveyNativeCorpusTests {
    @Test("the example survey loads: 18 questions and the which_sports sub-question")
    func exampleLoads() throws {
        let survey = try ExampleSurvey.load()
        #expect(survey.questionIDs.count == 19)
        #expect(survey.questionIDs.first == "ice_cream")
        #expect(survey.questionIDs.contains("which_sports"))
        let session = try ExampleSurvey.startSession()
        #expect(session.visibleQuestions == ["ice_cream"])
    }

    @Test("lie_about_age is hidden when the host gives no custom outcome, once age and birthyear are answered")
    func lieAboutAgeHiddenByDefault() throws {
        let session = try ExampleSurvey.session(before: "like_music")
        #expect(!session.visibleQuestions.contains("lie_about_age"))
        #expect(session.visibleQuestions.last == "like_music")
        #expect(session.perform(.answer("lie_about_age", "No")).outcome.kind == .rejected)
    }

    @Test("lie_about_age is shown when check_age was set true before age and birthyear were answered")
    func lieAboutAgeShownByHost() throws {
        let session = try ExampleSurvey.startSession()
        session.play(.hostCondition(key: "check_age", outcome: true))
        session.play(ExampleSurvey.actions(before: "like_music"))
        #expect(session.currentQuestion == "lie_about_age")
        #expect(session.visibleQuestions.suffix(2) == ["felt_like_adult", "lie_about_age"])
    }

    @Test("like_music changed to No hides music_types, keeps go_to_concerts, and the payload still holds music_types")
    func staleMusicTypesStillSubmitted() throws {
        let session = try ExampleSurvey.session(before: "go_to_concerts")
        #expect(!session.visibleQuestions.contains("music_types"))
        #expect(session.visibleQuestions.suffix(2) == ["like_music", "go_to_concerts"])
        #expect(session.answer(for: "music_types") == ["Pop"])

        session.play(ExampleSurvey.actions(from: "go_to_concerts"))
        session.play(.submit)
        #expect(session.submittedAnswers?["music_types"] == ["Pop"])
        #expect(session.submittedAnswers?["like_music"] == "No")
    }

    @Test("the whole walk submits every answer, hidden ones included, and nothing for questions never answered")
    func wholeWalkPayload() throws {
        let session = try ExampleSurvey.startSession()
        session.play(ExampleSurvey.walk)
        #expect(session.isSubmittable)
        session.play(.submit)
        let expected: JSONValue = [
            "ice_cream": ["Other": "Mint"], "perfect_day": "Sleeping in", "birthyear": "1990", "sports": "Yes",
            "which_sports": ["Soccer", "Tennis"], "age": "36", "age_of_first_kiss": "15", "felt_like_adult": ["Years old": "20"],
            "like_music": "No", "music_types": ["Pop"], "go_to_concerts": "Yes", "height": ["Centimeters": "180"],
            "weight": ["Kilograms": "80"], "happiness": "5",
            "weekend_activities": ["play_sports": "No", "read_books": "Yes", "go_dancing": "No", "watch_tv": "Sometimes"],
            "prefer_tv_books": "Yes", "date": "2026-06-01", "pets": ["Dogs": "1", "Cats": "0"],
        ]
        #expect(session.payload == ["answers": expected])
    }

    @Test("go_to_concerts is hidden when music_types lacks Pop")
    func goToConcertsNeedsPop() throws {
        let session = try ExampleSurvey.session(before: "music_types")
        session.play(.answer("music_types", ["Rock", "Rap"]), .tapNext)
        #expect(session.currentQuestion == "height")
        #expect(!session.visibleQuestions.contains("go_to_concerts"))
    }

    @Test("the birthyear picker offers current−124 to the current year")
    func birthyearRange() throws {
        let session = try ExampleSurvey.session(before: "birthyear")
        #expect(session.perform(.answer("birthyear", "1901")).outcome.kind == .rejected)
        #expect(session.perform(.answer("birthyear", "2027")).outcome.kind == .rejected)
        session.play(.answer("birthyear", "1902"), .answer("birthyear", "2026"))
        #expect(session.answer(for: "birthyear") == "2026")
    }

    @Test("the date question offers today−1 year to today")
    func dateRange() throws {
        let session = try ExampleSurvey.session(before: "date")
        #expect(session.perform(.answer("date", "2025-11-21")).outcome.kind == .rejected)
        #expect(session.perform(.answer("date", "2026-11-23")).outcome.kind == .rejected)
        session.play(.answer("date", "2025-11-22"), .answer("date", "2026-11-22"))
        #expect(session.answer(for: "date") == "2026-11-22")
    }

    @Test("which_sports shows under sports only when sports is Yes, and must be answered before age")
    func whichSportsSubQuestion() throws {
        let yes = try ExampleSurvey.session(before: "sports")
        yes.play(.answer("sports", "Yes"))
        #expect(yes.visibleQuestions.suffix(2) == ["sports", "which_sports"])
        #expect(yes.currentQuestion == "sports")
        yes.play(.answer("which_sports", ["Soccer"]))
        #expect(yes.currentQuestion == "age")

        let no = try ExampleSurvey.session(before: "sports")
        no.play(.answer("sports", "No"))
        #expect(no.visibleQuestions.suffix(2) == ["sports", "age"])
    }

    @Test("age validates its range with the survey's messages and takes at most two characters")
    func ageValidations() throws {
        let session = try ExampleSurvey.session(before: "age")
        #expect(session.perform(.answer("age", "9")).outcome == .validationFailed("Age must be at least 10"))
        #expect(session.perform(.answer("age", "81")).outcome == .validationFailed("You must be 80 or younger"))
        #expect(session.perform(.answer("age", "100")).outcome.kind == .rejected)
        #expect(session.answer(for: "age") == nil)
    }

    @Test("age_of_first_kiss and the felt_like_adult Other option compare with the answer to age")
    func validationsAgainstAge() throws {
        let session = try ExampleSurvey.session(before: "age_of_first_kiss")
        #expect(session.perform(.answer("age_of_first_kiss", "40")).outcome == .validationFailed("Time machines not invented yet"))
        #expect(session.perform(.answer("age_of_first_kiss", "8")).outcome == .validationFailed("That doesn't count (older than 8)"))
        session.play(.answer("age_of_first_kiss", "15"))
        #expect(session.perform(.answer("felt_like_adult", ["Years old": "3"])).outcome == .validationFailed("Age must be at least 10"))
        #expect(session.perform(.answer("felt_like_adult", ["Years old": "40"])).outcome == .validationFailed("Greater than your current age"))
    }

    @Test("choosing Centimeters for height makes weight open with Kilograms")
    func heightUnitCarriesToWeight() throws {
        let metric = try ExampleSurvey.session(before: "height")
        metric.play(.answer("height", ["Centimeters": "180"]))
        #expect(metric.perform(.tapNext).outcome == .validationFailed("Weight must be at least 35kg"))

        let imperial = try ExampleSurvey.session(before: "height")
        imperial.play(.answer("height", ["Feet": "5", "Inches": "10"]))
        #expect(imperial.perform(.tapNext).outcome == .validationFailed("Weight must be at least 78lb"))
    }

    @Test("weekend_activities advances only once all four rows are answered")
    func weekendActivitiesNeedsAllRows() throws {
        let session = try ExampleSurvey.session(before: "weekend_activities")
        session.play(.answer("weekend_activities", ["play_sports": "Yes", "read_books": "Yes", "go_dancing": "No"]))
        #expect(session.currentQuestion == "weekend_activities")
        session.play(.answer("weekend_activities", ["watch_tv": "Yes"]))
        #expect(session.currentQuestion == "prefer_tv_books")
    }

    @Test("prefer_tv_books shows only when read_books and watch_tv are each Yes or Sometimes")
    func preferTVBooksCondition() throws {
        let rows: [(JSONValue, JSONValue, Bool)] = [
            ("Sometimes", "Yes", true), ("Yes", "Sometimes", true), ("No", "Yes", false), ("Yes", "No", false),
        ]
        for (readBooks, watchTV, shown) in rows {
            let session = try ExampleSurvey.session(before: "weekend_activities")
            session.play(.answer("weekend_activities", ["play_sports": "No", "read_books": readBooks, "go_dancing": "No", "watch_tv": watchTV]))
            #expect(session.visibleQuestions.contains("prefer_tv_books") == shown, "read_books \(readBooks), watch_tv \(watchTV)")
            #expect(session.currentQuestion == (shown ? "prefer_tv_books" : "date"))
        }
    }
}
