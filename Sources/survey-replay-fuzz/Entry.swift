import Foundation
import SurveyReplayCLI
import SurveyReplayFuzzing

#if LIBFUZZER
    // libFuzzer's driver, started from our own entry point (SwiftPM links executables with their own main):
    // the target is named by SURVEY_REPLAY_FUZZ_TARGET, and a failed check is a crash libFuzzer records.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SURVEY_REPLAY_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTargets.named(name) else {
            FileHandle.standardError.write(Data("set SURVEY_REPLAY_FUZZ_TARGET to one of \(FuzzTargets.all().map(\.name).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        if let problem = target.run(input) { fatalError("\(target.name): \(problem)") }
        return 0
    }

    @main struct FuzzEntry {
        static func main() {
            _ = target
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        }
    }
#else
    @main struct FuzzEntry {
        static func main() {
            let arguments = ["fuzz-parsers"] + CommandLine.arguments.dropFirst()
            exit(SurveyReplayCLI.run(arguments, environment: ProcessInfo.processInfo.environment, console: .standard()))
        }
    }
#endif
