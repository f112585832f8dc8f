import Foundation
import SurveyReplayTestSupport
import Testing

/// The report as a person sees it: opened from disk in headless Chromium (`.ci/run` installs Debian's
/// chromium), its DOM read back after scripts ran, every resource load checked, and a screenshot decoded.
@Suite("the HTML report in a real browser", .serialized, .requires(.tool("chromium", debianPackage: "chromium")))
struct ReportBrowserTests {
    /// Runs headless Chromium with its own profile folder, nothing fetched in the background, and logging
    /// of every URL it loads.
    private func chromium(_ arguments: [String], in project: ReportProject) throws -> Program.Result {
        let profile = project.folder.path + "/chromium-profile-\(UUID().uuidString)"
        return try Program.run(
            "chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps", "--allow-file-access-from-files",
                "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=1",
            ] + arguments)
    }

    private func url(_ path: String) -> String { "file://" + path }

    @Test("the DOM Chromium builds holds the scenarios' statuses, the questions and the coverage marks")
    func domHoldsWhatThePagesShow() throws {
        let project = try ReportProject()
        let written = project.report()
        #expect(written.status == 0, "\(written.error)")

        let index = try chromium(["--dump-dom", url(project.site + "/index.html")], in: project)
        #expect(index.status == 0)
        for expected in ["s/non-smoker", "s/smoker", "s/misspelt", "s/new", "Snapshots/s/removed.snap", ">passed<", ">failed<", ">stale<", ">no golden<", ">obsolete golden<", "first divergence at step 2: answer per_day"] {
            #expect(index.out.contains(expected), "index.html in the browser lacks \(expected)")
        }
        // The filter bar, hidden without scripts, is shown by the inline script.
        #expect(index.out.contains(#"<div class="filters" id="scenario-filter">"#), "the filter bar stayed hidden: the inline script did not run")

        let survey = try chromium(["--dump-dom", url(project.site + "/" + project.surveyPage)], in: project)
        for expected in ["Do you smoke?", "How many a day?", "Finished?", "cov-taken", "<svg", "show_if", "first: s/non-smoker", "smoker equals"] {
            #expect(survey.out.contains(expected), "the survey page in the browser lacks \(expected)")
        }
        let failing = try chromium(["--dump-dom", url(project.site + "/scenarios/s--smoker.html")], in: project)
        for expected in ["First divergence from the golden", "How many a day?", "appears: ", "golden", "this run"] {
            #expect(failing.out.contains(expected), "the failing scenario's page in the browser lacks \(expected)")
        }
    }

    @Test("no page loads a resource: no file beside it, nothing from the network")
    func nothingIsLoaded() throws {
        let project = try ReportProject()
        #expect(project.report().status == 0)
        for page in try project.pages().keys.sorted() {
            // A page of our own beside the site's loads each page in a frame and writes what the frame's
            // Performance API saw being fetched; every page must have fetched nothing.
            let probe = project.site + "/probe-\(page.replacingOccurrences(of: "/", with: "_"))"
            try """
                <!DOCTYPE html><html><body><pre id="out">not loaded</pre>
                <script>function done(frame) { var w = frame.contentWindow; document.getElementById('out').textContent = 'resources=' + JSON.stringify(w.performance.getEntriesByType('resource').map(function (e) { return e.name; })) + ' title=' + w.document.title; }</script>
                <iframe src="\(page)" onload="done(this)"></iframe></body></html>
                """.write(toFile: probe, atomically: true, encoding: .utf8)
            let result = try chromium(["--dump-dom", url(probe)], in: project)
            #expect(result.out.contains("resources=[] title="), "\(page) fetched resources: \(result.out.prefix(400))")
            #expect(!result.out.contains("title=<"), "\(page) did not load")
            // Chromium's log names every file it reads: only the probe and the page itself.
            let files = result.error.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "FileURLLoader::Start: ") else { return nil }
                return String(line[range.upperBound...])
            }
            for file in files {
                let path = file.dropFirst("file://".count).removingPercentEncoding ?? ""
                #expect(FileManager.default.fileExists(atPath: path), "\(page) asked for \(file), which does not exist")
                #expect(path == probe || path == project.site + "/" + page, "\(page) loaded another file: \(file)")
            }
        }
    }

    @Test("a screenshot of the survey page shows the graph's colours, not a blank page")
    func screenshotIsNotBlank() throws {
        let project = try ReportProject()
        #expect(project.report().status == 0)
        for (page, colours) in [
            (project.surveyPage, [(0xD9F2DF, "an answered question's fill")]),
            ("index.html", [(0xFDE4E2, "the failed badge"), (0xE2F3E7, "the passed badge")]),
        ] {
            let shot = project.folder.path + "/shot-\(page.replacingOccurrences(of: "/", with: "_")).png"
            let result = try chromium(["--screenshot=\(shot)", "--window-size=1280,1400", url(project.site + "/" + page)], in: project)
            #expect(result.status == 0)
            let image = try PNGImage([UInt8](try Data(contentsOf: URL(fileURLWithPath: shot))))
            #expect(image.width == 1280 && image.height == 1400)
            let histogram = image.histogram
            let background = histogram.max { $0.value < $1.value }!
            let drawn = image.width * image.height - background.value
            #expect(drawn * 20 > image.width * image.height, "\(page): only \(drawn) pixels differ from the background; the screenshot is nearly blank")
            #expect(histogram.count > 50, "\(page): only \(histogram.count) colours")
            for (colour, what) in colours {
                #expect((histogram[UInt32(colour)] ?? 0) > 100, "\(page): \(what) (#\(String(colour, radix: 16))) is not on screen")
            }
        }
    }
}
