import Testing
@testable import SurveyHarness

@Suite struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n") == "")
        #expect(LineDiff.edits([], []) == [])
    }

    @Test func findsTheShortestEditScript() {
        let edits = LineDiff.edits(["a", "b", "c", "a", "b", "b", "a"], ["c", "b", "a", "b", "a", "c"])
        let changes = edits.filter { if case .same = $0 { false } else { true } }.count
        #expect(changes == 5)  // Myers' classic example: D = 5
        let old = edits.compactMap { edit -> String? in
            switch edit {
            case .same(let line), .removed(let line): line
            case .added: nil
            }
        }
        let new = edits.compactMap { edit -> String? in
            switch edit {
            case .same(let line), .added(let line): line
            case .removed: nil
            }
        }
        #expect(old == ["a", "b", "c", "a", "b", "b", "a"])
        #expect(new == ["c", "b", "a", "b", "a", "c"])
    }

    @Test func aWholesaleReplacementBeyondTheSearchLimitIsRemovedThenAdded() {
        let old = ["head"] + (0..<3_000).map { "old \($0)" } + ["tail"]
        let new = ["head"] + (0..<3_000).map { "new \($0)" } + ["tail"]
        let edits = LineDiff.edits(old, new)
        #expect(edits.first == .same("head"))
        #expect(edits.last == .same("tail"))
        #expect(Array(edits[1...3_000]) == (0..<3_000).map { .removed("old \($0)") })
        #expect(Array(edits[3_001...6_000]) == (0..<3_000).map { .added("new \($0)") })
    }

    @Test func editsWithinTheLimitStayShortestAfterTheCommonEnds() {
        let old = (0..<5_000).map { "line \($0)" }
        var new = old
        new[2_500] = "changed"
        new.insert("inserted", at: 100)
        let changes = LineDiff.edits(old, new).filter { if case .same = $0 { false } else { true } }
        #expect(changes == [.added("inserted"), .removed("line 2500"), .added("changed")])
    }

    @Test func rendersAHunkWithThreeLinesOfContext() {
        let old = (1...10).map(String.init).joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "5\n", with: "five\n")
        #expect(
            LineDiff.unified(old: old, new: new, oldName: "a", newName: "b") == """
                --- a
                +++ b
                @@ -2,7 +2,7 @@
                 2
                 3
                 4
                -5
                +five
                 6
                 7
                 8

                """)
    }

    @Test func separatesDistantChangesIntoHunksAndMergesNearOnes() {
        let old = (1...20).map(String.init)
        var new = old
        new[1] = "two"
        new[17] = "eighteen"
        let diff = LineDiff.unified(old: old.joined(separator: "\n"), new: new.joined(separator: "\n"))
        #expect(diff.components(separatedBy: "@@ -").count - 1 == 2)
        var near = old
        near[1] = "two"
        near[6] = "seven"
        let merged = LineDiff.unified(old: old.joined(separator: "\n"), new: near.joined(separator: "\n"))
        #expect(merged.components(separatedBy: "@@ -").count - 1 == 1)
    }

    @Test func reportsAdditionsToAnEmptyText() {
        #expect(LineDiff.unified(old: "", new: "x\n", oldName: "a", newName: "b") == "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n")
    }

    @Test func colorsOnlyWhenAsked() {
        let plain = LineDiff.unified(old: "a\n", new: "b\n")
        #expect(!plain.contains("\u{1B}["))
        let colored = LineDiff.unified(old: "a\n", new: "b\n", color: true)
        #expect(colored.contains("\u{1B}[31m-a\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[32m+b\u{1B}[0m"))
    }
}

@Suite struct DivergenceTests {
    private let golden = """
        survey s.json (surveynative)

        start
          current: a
          visible: a

        step 1: answer a "Yes"
          ok
          current: b

        step 2: answer b "x"
          ok
          current: none

        payload: none

        """

    @Test func namesTheFirstStepThatDiffersAndItsAction() {
        let new = golden.replacingOccurrences(of: "step 2: answer b \"x\"\n  ok", with: "step 2: answer b \"x\"\n  rejected: no")
        #expect(Divergence.first(golden: golden, new: new)?.description == "first divergence at step 2: answer b \"x\"")
        let earlier = new.replacingOccurrences(of: "  current: b", with: "  current: c")
        #expect(Divergence.first(golden: golden, new: earlier)?.place == .step(1, action: "answer a \"Yes\""))
    }

    @Test func tellsTheStartThePayloadAndMissingStepsApart() {
        #expect(Divergence.first(golden: golden, new: golden) == nil)
        #expect(Divergence.first(golden: golden, new: golden.replacingOccurrences(of: "  visible: a\n", with: "  visible: a z\n"))?.place == .start)
        #expect(Divergence.first(golden: golden, new: golden.replacingOccurrences(of: "payload: none", with: "payload\n{}"))?.place == .payload)
        let shorter = golden.replacingOccurrences(of: "step 2: answer b \"x\"\n  ok\n  current: none\n\n", with: "")
        #expect(Divergence.first(golden: golden, new: shorter)?.place == .length(step: 2))
    }
}
