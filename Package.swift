// swift-tools-version: 6.0
import PackageDescription

// SurveyReplay uses only the toolchain: Foundation, XCTest and Swift Testing. No package dependencies.
let package = Package(
    name: "SurveyReplay",
    products: [
        .library(name: "SurveyReplay", targets: ["SurveyCore", "SurveyFormats", "SurveyHarness", "FHIRPath"]),
        .library(name: "SurveyReplayTesting", targets: ["SurveyReplayTesting"]),
        .executable(name: "survey-replay", targets: ["survey-replay"]),
        .executable(name: "survey-replay-fuzz", targets: ["survey-replay-fuzz"]),
    ],
    targets: [
        .target(name: "SurveyCore"),
        .target(name: "FHIRPath", dependencies: ["SurveyCore"]),
        .target(name: "FHIRPathConformance", dependencies: ["FHIRPath", "SurveyCore"]),
        .target(name: "SurveyFormats", dependencies: ["SurveyCore", "FHIRPath"]),
        .target(name: "SurveyHarness", dependencies: ["SurveyCore", "SurveyFormats"]),
        .target(name: "SurveyReplayFuzzing", dependencies: ["SurveyCore", "SurveyFormats", "SurveyHarness"]),
        .target(
            name: "SurveyReplayCLI", dependencies: ["SurveyCore", "SurveyFormats", "SurveyHarness", "SurveyReplayFuzzing", "FHIRPath", "FHIRPathConformance"]),
        .executableTarget(name: "survey-replay", dependencies: ["SurveyReplayCLI"]),
        // The parser fuzz targets under libFuzzer (scripts/fuzz-libfuzzer.sh builds it with -DLIBFUZZER);
        // otherwise the same as 'survey-replay fuzz-parsers'.
        .executableTarget(name: "survey-replay-fuzz", dependencies: ["SurveyReplayFuzzing", "SurveyReplayCLI"]),
        .target(name: "SurveyReplayTesting", dependencies: ["SurveyCore", "SurveyHarness"]),
        // What tests need from outside the repository (the corpus beside it, programs such as dot): skipped
        // with what is missing when absent, a failure under CI.
        .target(name: "SurveyReplayTestSupport", dependencies: ["SurveyHarness"], path: "Tests/SurveyReplayTestSupport"),
        .testTarget(name: "SurveyCoreTests", dependencies: ["SurveyCore"]),
        .testTarget(name: "FHIRPathTests", dependencies: ["FHIRPath", "FHIRPathConformance", "SurveyCore", "SurveyReplayTestSupport"], exclude: ["passing-tests.txt"]),
        .testTarget(name: "SurveyFormatsTests", dependencies: ["SurveyCore", "SurveyFormats", "SurveyHarness", "SurveyReplayTestSupport"]),
        .testTarget(name: "SurveyHarnessTests", dependencies: ["SurveyCore", "SurveyFormats", "SurveyHarness", "SurveyReplayTestSupport"]),
        .testTarget(
            name: "SurveyReplayCLITests",
            dependencies: ["SurveyReplayCLI", "survey-replay", "SurveyCore", "SurveyFormats", "SurveyHarness", "SurveyReplayTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(name: "SurveyReplayTestingTests", dependencies: ["SurveyReplayTesting", "SurveyHarness"]),
        .testTarget(
            name: "SurveyReplayFuzzingTests", dependencies: ["SurveyReplayFuzzing", "SurveyHarness", "SurveyFormats", "SurveyReplayTestSupport"],
            exclude: ["Regressions"]),
    ]
)
