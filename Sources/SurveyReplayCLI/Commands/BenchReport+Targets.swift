import SurveyFormats
import SurveyHarness

extension BenchReport {
    /// Each target of the performance issues and whether this run meets it (nil: not measured). First those of
    /// the earlier issues, on `survey` and SurveyNative's size series; then per format those of issue 19 (every
    /// standard format, and any other measured, in order).
    var targets: [(name: String, met: Bool?)] {
        let sizes = surveyNativeSizes
        var targets: [(name: String, met: Bool?)] = [
            ("walk steps/s with properties off ≥ 1,000,000", walkOff.map { $0.median >= 1_000_000 }),
            ("walk steps/s with built-in properties ≥ 250,000", walkOn.map { $0.median >= 250_000 }),
            ("step cost at 10,000 questions ≤ 2× at 100", sizes?.ratio(10_000).map { $0 <= 2 }),
            ("step cost at 100,000 questions ≤ 4× at 100", sizes?.ratio(100_000).map { $0 <= 4 }),
            ("load of 10,000 questions ≤ 100 ms", sizes.flatMap { Self.load($0, 10_000) }.map { $0 <= 100 }),
            ("load of 100,000 questions ≤ 1 s", sizes.flatMap { Self.load($0, 100_000) }.map { $0 <= 1_000 }),
            ("memory growth from 100,000 to 1,000,000 steps < 10 MB", memory.map { $0.at1M - $0.at100k < 10_000_000 }),
            ("the project's suite ≤ 0.5 s", suite.map { $0.figure.median <= 0.5 }),
            ("--jobs 2 ≥ 1.7× faster than --jobs 1 on ≥ 2,000 scenarios of mixed formats", jobs.map { $0.one.median / $0.two.median >= 1.7 }),
            ("FHIRPath score expression evaluations/s (CPU time) ≥ 1,000,000", fhirpathScore.map { $0.cpu.median >= 1_000_000 }),
            ("FHIRPath suite expressions parsed and evaluated/s (CPU time) ≥ 100,000", fhirpathSuite.map { $0.cpu.median >= 100_000 }),
        ]
        let standard = BenchWorkload.standard(corpus: corpus)
        let r4Workload = standard.first { $0.key == FHIRFormat.name }!
        let c3proWorkload = standard.first { $0.key == "\(FHIRFormat.name)/\(FHIRSurvey.c3proProfile)" }!
        let (fhir, c3pro) = (figures(r4Workload), figures(c3proWorkload))
        let (screener, enableWhen) = (r4Workload.surveys[0], c3proWorkload.surveys[0])
        targets += [
            ("FHIR R4 walk steps/s on \(InputFiles.name(of: screener)), properties off ≥ 500,000", fhir?.walk(on: screener).map { $0.off.median >= 500_000 }),
            ("FHIR R4 walk steps/s on \(InputFiles.name(of: screener)), built-in properties ≥ 150,000", fhir?.walk(on: screener).map { $0.on.median >= 150_000 }),
            ("C3-PRO walk steps/s on \(InputFiles.name(of: enableWhen)), properties off ≥ 500,000", c3pro?.walk(on: enableWhen).map { $0.off.median >= 500_000 }),
        ]
        let measuredOthers = formats.filter { measured in !standard.contains { $0.key == measured.workload.key } }.map(\.workload)
        for workload in standard + measuredOthers {
            let measured = figures(workload)
            let label = measured?.workload.label ?? workload.label
            if workload.synthetic != nil {
                targets += [
                    ("\(label): step cost at 10,000 questions ≤ 2× at 100", measured?.ratio(10_000).map { $0 <= 2 }),
                    ("\(label): step cost at 100,000 questions ≤ 4× at 100", measured?.ratio(100_000).map { $0 <= 4 }),
                    ("\(label): load of 10,000 questions ≤ 100 ms", measured.flatMap { Self.load($0, 10_000) }.map { $0 <= 100 }),
                    ("\(label): load of 100,000 questions ≤ 1 s", measured.flatMap { Self.load($0, 100_000) }.map { $0 <= 1_000 }),
                ]
            }
            targets += [
                ("\(label): memory growth over 1,000,000 walk steps < 10 MB", measured?.memory.map { $0.at1M - $0.at100k < 10_000_000 }),
                ("\(label): fuzz --walks 20000 end to end ≥ 50% of the walk steps/s (properties off)", measured?.fuzzRatio.map { $0 >= 0.5 }),
            ]
        }
        return targets
    }

    /// The figures of a workload, by its key.
    private func figures(_ workload: BenchWorkload) -> FormatFigures? {
        formats.first { $0.workload.key == workload.key }
    }

    /// The median load time at a size, in milliseconds.
    private static func load(_ figures: FormatFigures, _ size: Int) -> Double? {
        figures.loadMilliseconds.first { $0.size == size }?.figure.median
    }
}
