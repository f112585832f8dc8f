import Foundation
import SurveyHarness
import SurveyReplayTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The package's own folder, for tests that report on its suite.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Reads a page as XML and collects what the checks need: ids, links and sources.
private final class PageReader: NSObject, XMLParserDelegate {
    var ids: Set<String> = []
    var references: [String] = []
    var elements: Set<String> = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.insert(name)
        if let id = attributes["id"] { ids.insert(id) }
        for key in ["href", "src", "xlink:href", "action", "poster", "data"] { if let value = attributes[key] { references.append(value) } }
    }

    static func read(_ text: String) -> (PageReader, Error?) {
        let reader = PageReader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        return parser.parse() ? (reader, nil) : (reader, parser.parserError ?? CocoaError(.coderReadCorrupt))
    }
}

@Suite("survey-replay report")
struct ReportCommandTests {
    /// Every page parses as XML, links only to pages and anchors of the site, and loads nothing.
    private func checkSite(_ site: String) throws -> [String: String] {
        var pages: [String: String] = [:]
        for path in FileManager.default.subpaths(atPath: site) ?? [] where path.hasSuffix(".html") {
            pages[path] = try String(contentsOfFile: site + "/" + path, encoding: .utf8)
        }
        var readers: [String: PageReader] = [:]
        for (path, text) in pages {
            let (reader, error) = PageReader.read(text)
            #expect(error == nil, "\(path) is not well-formed XHTML: \(String(describing: error))")
            readers[path] = reader
            for tag in ["img", "link", "iframe", "object", "embed", "video", "audio", "source"] {
                #expect(!reader.elements.contains(tag), "\(path) has a <\(tag)>, which would load something")
            }
            #expect(!text.contains("@import") && !text.contains("url(http"), "\(path) imports a style sheet")
        }
        for (path, reader) in readers {
            let folder = (path as NSString).deletingLastPathComponent
            for reference in reader.references {
                #expect(!reference.contains(":") && !reference.hasPrefix("//"), "\(path) refers outside the site: \(reference)")
                let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                var target = path
                if !parts[0].isEmpty {
                    target = InputFiles.normalize(folder.isEmpty ? parts[0] : folder + "/" + parts[0]).removingPercentEncoding ?? ""
                    #expect(pages[target] != nil, "\(path) links to \(reference), which is not a page of the site")
                }
                if parts.count == 2, let page = readers[target] {
                    #expect(page.ids.contains(parts[1]), "\(path) links to #\(parts[1]), which \(target) does not have")
                }
            }
        }
        return pages
    }

    @Test("the report on the project's suite and the corpus: well-formed pages that link only within the site")
    func projectAndCorpus() throws {
        let folder = try TemporaryFolder()
        var paths = [packageRoot + "/Scenarios"]
        // Without the corpus the project's own suite is still reported on; CI must have it.
        if Corpus.isPresent {
            paths.append(Corpus.folder)
        } else if RecordMode.isCI(ProcessInfo.processInfo.environment) {
            Issue.record("\(Requirement.corpus.missing); CI must report on it")
        }
        let site = folder.path + "/site"
        let result = runCLI(["report"] + paths + ["--scenarios", packageRoot + "/Scenarios", "--snapshots", packageRoot + "/Snapshots", "-o", site, "--walks", "3"])
        #expect(result.status == 0, "\(result.error)")
        let pages = try checkSite(site)
        let index = pages["index.html"] ?? ""
        #expect(!index.contains(#"<tr data-status="failed">"#), "a scenario of the project's suite fails in the report")
        // Every format's sessions, as respondents see them.
        let expectations: [(String, [String])] = [
            ("scenarios/checkin--happy-path.html", ["What do you do most days?", "class=\"options\"", "class=\"picked\"", "Submit is shown", "Payload"]),
            ("scenarios/fhir-travel--add-and-remove-trips.html", ["trip#2/nights", "margin-left: 22px", "repeating", "refused", "maxOccurs"]),
            ("scenarios/sage-v3--misspelt-target-ends-task.html", ["Step 1", "appears: "]),
            ("scenarios/owlmetry--quit-and-resume.html", ["event <b>draft_saved</b>", "Launches the app"]),
            ("scenarios/c3pro--skip-and-back.html", ["Goes back", "Skips"]),
            ("scenarios/c3pro--prepared-with-errors.html", ["event <b>preparation_error</b>"]),
            ("scenarios/checkin--refused-actions.html", ["refused", "class=\"message\""]),
        ]
        for (page, texts) in expectations {
            guard let html = pages[page] else {
                Issue.record("no page \(page)")
                continue
            }
            for text in texts { #expect(html.contains(text), "\(page) lacks \(text)") }
        }
        let survey = pages.first { $0.key.hasPrefix("surveys/") && $0.key.hasSuffix("checkin--checkin.json.html") }?.value ?? ""
        for text in ["<svg", "all of", "any of", "MC/DC", "first: checkin/", "cov-taken", "What do you do most days?"] {
            #expect(survey.contains(text), "the checkin survey page lacks \(text)")
        }
        if paths.count == 2 {
            #expect(pages.keys.contains { $0.hasPrefix("surveys/") && $0.contains("ExampleQuestions") })
            #expect(pages.keys.contains { $0.hasPrefix("surveys/") && $0.contains("lforms-phq9") })
            #expect(index.contains("Other files (not surveys)"))
        }
    }

    @Test("the same input gives the same bytes")
    func deterministic() throws {
        let project = try ReportProject()
        #expect(project.report().status == 0)
        let first = try project.pages()
        try FileManager.default.removeItem(atPath: project.site)
        #expect(project.report().status == 0)
        let second = try project.pages()
        #expect(first.keys.sorted() == second.keys.sorted())
        for (path, text) in first { #expect(second[path] == text, "\(path) differs between two runs") }
    }

    @Test("statuses, first divergent steps, fuzz findings and links to the scenario that first takes a branch")
    func whatThePagesSay() throws {
        let project = try ReportProject()
        let result = project.report()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.out.contains("report: \(project.site)/index.html"))
        let pages = try checkSite(project.site)
        let index = pages["index.html"] ?? ""
        #expect(index.contains(#"<tr data-status="failed">"#))
        #expect(index.contains(#"<tr data-status="stale">"#))
        #expect(index.contains(#"<tr data-status="no-golden">"#))
        #expect(index.contains("first divergence at step 2: answer per_day &quot;3&quot;"))
        #expect(index.contains("Snapshots/s/removed.snap"))
        #expect(index.contains("stale at step 1: the survey has no question &apos;smokes&apos;"))
        let failing = pages["scenarios/s--smoker.html"] ?? ""
        #expect(failing.contains(#"<section class="step diverges" id="step-2">"#))
        #expect(failing.contains(#"<span class="changed">  visible: smoker done</span>"#))
        let survey = pages[project.surveyPage] ?? ""
        #expect(survey.contains(#"href="../scenarios/s--non-smoker.html""#))
        #expect(survey.contains(#"data-branch="decision:0:true""#))
        // The suite's lint settings apply to the survey pages too.
        #expect(survey.contains("sn-hidden-answer-submitted"))
        try project.folder.write("Scenarios/\(LintConfig.fileName)", #"{"disable": ["sn-hidden-answer-submitted"]}"#)
        #expect(project.report().status == 0)
        #expect(!(try project.page(project.surveyPage)).contains("sn-hidden-answer-submitted"))
        let fuzz = pages["fuzz.html"] ?? ""
        #expect(fuzz.contains("hidden-answer-submitted"))
        #expect(fuzz.contains("sr1-"))
        #expect(fuzz.contains("Taps Submit"))
        // A failing scenario whose run was written beside its golden awaits review.
        try project.folder.write("Snapshots/s/smoker.snap.new", "survey smoking.json\n")
        #expect(project.report().status == 0)
        #expect(try project.page("index.html").contains(#"<tr data-status="pending">"#))
        #expect(try project.page("scenarios/s--smoker.html").contains("A .snap.new awaits review: survey-replay review --accept or --reject."))
    }

    @Test("test --html, fuzz --html and coverage --html write the site too; test keeps its exit code")
    func htmlOptions() throws {
        let project = try ReportProject()
        let tested = runCLI(["test", project.scenarios, "--scenarios", project.scenarios, "--snapshots", project.snapshots, "--record", "never", "--html", project.site + "-test"])
        #expect(tested.status == 2)
        #expect(FileManager.default.fileExists(atPath: project.site + "-test/scenarios/s--smoker.html"))
        let fuzzed = runCLI(["fuzz", project.scenarios + "/s/smoking.json", "--walks", "200", "--html", project.site + "-fuzz"])
        #expect(fuzzed.status == 0, "\(fuzzed.error)")
        #expect(((try? String(contentsOfFile: project.site + "-fuzz/fuzz.html", encoding: .utf8)) ?? "").contains("hidden-answer-submitted"))
        let covered = runCLI(["coverage", project.scenarios + "/s/non-smoker.scenario", "--html", project.site + "-coverage"])
        #expect(covered.status == 0, "\(covered.error)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: project.site + "-coverage/surveys")) ?? []).count == 1)
    }

    @Test("bad usage: no -o, a path that does not exist")
    func badUsage() throws {
        let noOutput = runCLI(["report", "Scenarios"])
        #expect(noOutput.status == 2)
        #expect(noOutput.error.contains("missing -o DIR"))
        #expect(runCLI(["report", "Scenarios", "-o", "-"]).error.contains("-o needs a folder for the site's pages"))
        let folder = try TemporaryFolder()
        let missing = runCLI(["report", folder.path + "/nowhere", "-o", folder.path + "/site"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("nowhere: error: no such file or folder"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/site"))
    }
}
