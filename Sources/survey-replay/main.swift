import Foundation
import SurveyReplayCLI

exit(SurveyReplayCLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, console: .standard()))
