import Foundation
import SurveyCore
import SurveyReplayTestSupport
import Testing

@testable import SurveyReplayFuzzing

/// The inputs fuzzing found to crash or fail a check, one folder per target; each must now pass.
private let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")

@Suite("fuzz targets")
struct FuzzTargetTests {
    @Test("every input fuzzing ever failed on passes its target now", arguments: FuzzTargets.all().map(\.name))
    func regressionsPass(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let folder = regressions.appendingPathComponent(name).path
        for file in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            let input = try #require(FileManager.default.contents(atPath: folder + "/" + file))
            #expect(target.run([UInt8](input)) == nil, "\(name)/\(file)")
        }
    }

    @Test("every target has seeds, and every seed passes", .requires(.corpus), arguments: FuzzTargets.all().map(\.name))
    func seedsPass(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let seeds = target.seeds(Corpus.folder)
        #expect(!seeds.isEmpty)
        for (index, seed) in seeds.enumerated() {
            #expect(target.run(seed) == nil, "seed \(index)")
        }
    }

    @Test("an input depends only on the seed and its run number")
    func mutationsAreDeterministic() {
        let mutator = Mutator(seeds: [Array(#"{"questions": [{"id": "a"}], "submit": {}}"#.utf8), Array("survey a.json\nnext\n".utf8)], isJSON: true)
        let inputs = (0..<200).map { mutator.input(seed: 7, run: $0) }
        #expect((0..<200).reversed().map { mutator.input(seed: 7, run: $0) } == inputs.reversed())
        #expect(Set(inputs).count > 150)
        #expect(mutator.input(seed: 8, run: 3) != mutator.input(seed: 7, run: 3))
    }

    @Test("a target reports an error without a location inside the input as a failure")
    func unlocatedErrorsFail() {
        let file = SourceFile(path: "x", text: "a\nb")
        let outside = InputError(Diagnostic(file: "x", position: SourcePosition(line: 9, column: 1), message: "m"))
        #expect(FuzzOracle.locatedOrProblem(outside, in: file) == "'m' is at 9:1, outside the input's 2 lines")
        let nowhere = InputError(Diagnostic(file: "x", position: nil, message: "m"))
        #expect(FuzzOracle.locatedOrProblem(nowhere, in: file) == "'m' has no line and column")
        let inside = InputError(Diagnostic(file: "x", position: SourcePosition(line: 2, column: 1), message: "m"))
        #expect(FuzzOracle.locatedOrProblem(inside, in: file) == nil)
    }
}
