import Foundation
import SurveyCore
import SurveyHarness

/// `survey-replay review [--accept|--reject] [PATH...]`: settles pending `.snap.new` files.
enum ReviewCommand {
    static let spec = CommandSpec(
        name: "review",
        summary: "Show, accept or reject pending golden updates (.snap.new files).",
        operands: [.init("PATH", help: "Pending files or folders (default: the snapshots folder).", optional: true, repeated: true, completion: .file(extensions: ["new"]))],
        options: [
            .flag("--accept", help: "Replace each golden with its pending file."),
            .flag("--reject", help: "Delete each pending file, keeping the golden."),
            .value("--snapshots", "DIR", help: "The goldens folder (default: Snapshots)."),
        ],
        discussion: """
            Without --accept or --reject, prints each pending file's diff against its golden.
            Exit codes: 0 done (or nothing pending); 2 bad usage or a path that does not exist.
            """,
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let arguments = invocation.arguments
        let accept = arguments.flag("--accept")
        let reject = arguments.flag("--reject")
        if accept && reject { throw UsageError(message: "give --accept or --reject, not both", command: "review") }
        let roots = arguments.operands.isEmpty ? [arguments.value("--snapshots") ?? "Snapshots"] : arguments.operands
        let (files, problems) = ScenarioDiscovery.find(roots, extension: "new")
        if !problems.isEmpty { throw InputError(problems) }
        let pending = files.filter { $0.hasSuffix(SnapshotLayout.pendingSuffix) }
        let console = invocation.console
        if pending.isEmpty {
            console.out("nothing pending\n")
            return ExitCode.success
        }
        let color = invocation.usesColor
        for file in pending {
            let golden = String(file.dropLast(".new".count))
            if accept {
                try AtomicFile.move(file, to: golden)
                console.out("accepted \(golden)\n")
            } else if reject {
                AtomicFile.remove(file)
                console.out("rejected \(file)\n")
            } else {
                let old = try GoldenFile.read(golden) ?? ""
                let new = try GoldenFile.read(file) ?? ""
                console.out("pending \(file)\n")
                console.out(LineDiff.unified(old: old, new: new, oldName: golden, newName: file, color: color))
            }
        }
        if !accept && !reject {
            console.out("\(pending.count) pending; settle with 'survey-replay review --accept' or '--reject' (optionally with paths)\n")
        }
        return ExitCode.success
    }
}
