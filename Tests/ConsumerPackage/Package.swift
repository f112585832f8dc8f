// swift-tools-version: 6.0
// A package that uses SurveyReplay in its tests exactly as the README shows (.ci/run runs its tests): the
// dependency by path, the product looked up by the package name given there, and assertScenarios finding
// Scenarios/ beside this file whatever folder the tests run in.
import PackageDescription

let package = Package(
    name: "ConsumerPackage",
    dependencies: [
        .package(name: "SurveyReplay", path: "../.."),
    ],
    targets: [
        .testTarget(name: "ConsumerTests", dependencies: [.product(name: "SurveyReplayTesting", package: "SurveyReplay")]),
    ]
)
