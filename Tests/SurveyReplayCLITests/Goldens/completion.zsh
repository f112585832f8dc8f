#compdef survey-replay
# zsh completion for survey-replay, made by 'survey-replay completion zsh' from its command declarations.
# Install it as _survey-replay in a folder of $fpath, or load it with: source <(survey-replay completion zsh)

_survey-replay() {
    local -a commands root
    commands=(
        'test:Replay every scenario and compare it with its golden snapshot (the default command).'
        'replay:Replay one scenario and print its trace.'
        'review:Show, accept or reject pending golden updates (.snap.new files).'
        'record:Answer a survey interactively, one question at a time, and save the session as a scenario.'
        'import:Turn a submitted payload into a scenario that reproduces it.'
        'fuzz:Walk a survey at random, check properties after every step, and shrink what fails.'
        'compare:Walk two versions of a survey (or one under two profiles) the same way and report the shortest paths that differ.'
        'coverage:Measure which branches of the skip logic scenarios and walks take; merge saved runs.'
        'generate:Write the few scenarios that together take every branch of a survey'\''s logic that can be reached.'
        'lint:Find what will break at run time in survey files, without running them.'
        'report:Write an HTML report\: scenarios against their goldens, coverage, skip-logic graphs, lint, fuzz findings.'
        'bench:Measure load time, walk, fuzz and replay speed, scaling with survey size, memory and suite time, per format.'
        'fuzz-parsers:Feed every parser mutated files; catch crashes, hangs and unlocated errors.'
        'fhirpath:Evaluate a FHIRPath expression on a FHIR resource, or serve requests as JSON lines.'
        'completion:Print the shell completion script for bash, zsh or fish.'
        'help:Show the options of a command.'
    )
    if (( CURRENT == 2 )) && [[ ${words[2]} != -* ]]; then
        _describe -t commands 'survey-replay command' commands
        return
    fi
    local command=test
    if (( ${commands[(I)${words[2]}:*]} )); then
        command=${words[2]}
        shift words
        (( CURRENT-- ))
    else
        root=('(- *)--version[Print the version.]')
    fi
    case $command in
        (test)
            _arguments -S \
                $root \
                '--record[When to write goldens; default missing, or never when CI is set.]:MODE:(missing all failed never)' \
                '--jobs[Scenarios to run at once (default\: the number of CPUs); output order is fixed.]:N: ' \
                '--filter[Only scenarios whose name (folder/name) contains TEXT; none is an error.]:TEXT: ' \
                '--junit[Also write a JUnit XML report to FILE.]:FILE:_files' \
                '--html[Also write the HTML report (as '\''survey-replay report'\'' does) into DIR.]:DIR:_files -/' \
                '--fail-on-obsolete[Fail when a golden has no scenario (the default when CI is set).]' \
                '--allow-obsolete[Only warn about goldens without a scenario, even on CI.]' \
                '--scenarios[The scenarios folder (default\: Scenarios).]:DIR:_files -/' \
                '--snapshots[The goldens folder that mirrors it (default\: Snapshots).]:DIR:_files -/' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '*:PATH:_files -g "*.scenario"'
            ;;
        (replay)
            _arguments -S \
                $root \
                '--json[Print the trace as one JSON object (the stable machine contract).]' \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':FILE.scenario:_files -g "*.scenario"'
            ;;
        (review)
            _arguments -S \
                $root \
                '--accept[Replace each golden with its pending file.]' \
                '--reject[Delete each pending file, keeping the golden.]' \
                '--snapshots[The goldens folder (default\: Snapshots).]:DIR:_files -/' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '*:PATH:_files -g "*.new"'
            ;;
        (record)
            _arguments -S \
                $root \
                '-o[Write the scenario to FILE (default\: standard output).]:FILE:_files' \
                '--today[The scenario'\''s clock as yyyy-MM-dd (default\: today'\''s date, UTC).]:DATE: ' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':SURVEY:_files -g "*.json"'
            ;;
        (import)
            _arguments -S \
                $root \
                '--survey[The survey file the payload was submitted from (required).]:SURVEY:_files -g "*.json"' \
                '-o[Write the scenario to FILE (default\: standard output).]:FILE:_files' \
                '--today[The scenario'\''s clock as yyyy-MM-dd (default\: today'\''s date, UTC).]:DATE: ' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':PAYLOAD:_files -g "*.json"'
            ;;
        (fuzz)
            _arguments -S \
                $root \
                '--walks[Number of walks (default 100).]:N: ' \
                '--seed[Seed of the walks (default 1); the same seed gives the same walks everywhere.]:S: ' \
                '--max-steps[Steps per walk at most (default 100).]:K: ' \
                '--properties[The author'\''s properties to check after every step (see the README).]:FILE:_files -g "*.properties"' \
                '--save-failures[Write each finding'\''s shrunk scenario into DIR.]:DIR:_files -/' \
                '--shard[Run only shard I of N (1-based)\: the shards together run exactly the whole run.]:I/N: ' \
                '--replay[Rerun only the walk a token names (printed with each finding).]:TOKEN: ' \
                '--today[The clock as yyyy-MM-dd (default 2026-01-01).]:DATE: ' \
                '--strict[Fail on survey hazards too, not only on engine errors and properties.]' \
                '--json[Print the summary and findings as JSON.]' \
                '--junit[Also write a JUnit XML report to FILE.]:FILE:_files' \
                '--html[Also write the HTML report (as '\''survey-replay report'\'' does) into DIR.]:DIR:_files -/' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':SURVEY:_files -g "*.json"'
            ;;
        (compare)
            _arguments -S \
                $root \
                '--profiles[Compare engine profiles\: OLD under A against NEW (or OLD again) under B, e.g. r4,c3pro.]:A,B: ' \
                '--walks[Walks chosen on each version (default 200).]:N: ' \
                '--seed[Seed of the walks (default 1).]:S: ' \
                '--max-steps[Steps per walk at most (default 100).]:K: ' \
                '--today[The clock as yyyy-MM-dd (default 2026-01-01).]:DATE: ' \
                '--save[Write each difference'\''s path into DIR as a scenario of the version it replays on (the new one when both).]:DIR:_files -/' \
                '--json[Print the differences as JSON.]' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':OLD:_files -g "*.json"' \
                '::NEW:_files -g "*.json"'
            ;;
        (coverage)
            _arguments -S \
                $root \
                '--walks[Add N random walks on every survey (default 0).]:N: ' \
                '--seed[Seed of the walks (default 1).]:S: ' \
                '--max-steps[Steps per walk at most (default 100).]:K: ' \
                '--today[The walks'\'' clock as yyyy-MM-dd (default 2026-01-01).]:DATE: ' \
                '--json[Write the coverage as JSON (what '\''coverage merge'\'' reads).]:FILE:_files' \
                '--lcov[Write an LCOV tracefile of the survey files (genhtml renders them).]:FILE:_files' \
                '--cobertura[Write Cobertura XML.]:FILE:_files' \
                '--dot[Write a Graphviz picture of the skip logic, coloured by coverage.]:FILE:_files' \
                '--min[Fail (exit 1) when branch coverage of any survey is below PERCENT.]:PERCENT: ' \
                '--html[Also write the HTML report (as '\''survey-replay report'\'' does) into DIR.]:DIR:_files -/' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '*:PATH:_files'
            ;;
        (generate)
            _arguments -S \
                $root \
                '-o[Write the scenarios into DIR (required; created if missing).]:DIR:_files -/' \
                '--walks[Search walks at most (default 20000).]:N: ' \
                '--patience[Stop after N walks in a row that take no new branch (default 2000).]:N: ' \
                '--seed[Seed of the search (default 1).]:S: ' \
                '--max-steps[Steps per walk at most (default 100).]:K: ' \
                '--today[The scenarios'\'' clock as yyyy-MM-dd (default 2026-01-01).]:DATE: ' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':SURVEY:_files -g "*.json"'
            ;;
        (lint)
            _arguments -S \
                $root \
                '--format[How to print the findings (default text).]:FORMAT:(text json sarif github)' \
                '--json[The same as --format json.]' \
                '--disable[Do not report this rule (repeat, or separate with commas).]:RULE: ' \
                '--severity[The least severe findings shown\: error, warning or note (default note\: all).]:LEVEL:(error warning note)' \
                '--config[The lint settings to use (default\: the nearest survey-replay-lint.json beside or above each survey).]:FILE:_files' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '*:SURVEY:_files -g "*.json"'
            ;;
        (report)
            _arguments -S \
                $root \
                '-o[The folder to write the site into (created if needed).]:DIR:_files -/' \
                '--title[The report'\''s title (default\: SurveyReplay report).]:TEXT: ' \
                '--walks[Add N random walks on every survey to its coverage (default 0).]:N: ' \
                '--fuzz[Fuzz every survey with N walks and add a page of the findings (default 0\: none).]:N: ' \
                '--seed[Seed of the walks (default 1).]:S: ' \
                '--max-steps[Steps per walk at most (default 100).]:K: ' \
                '--today[The walks'\'' clock as yyyy-MM-dd (default 2026-01-01).]:DATE: ' \
                '--scenarios[The scenarios folder (default\: Scenarios).]:DIR:_files -/' \
                '--snapshots[The goldens folder that mirrors it (default\: Snapshots).]:DIR:_files -/' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '*:PATH:_files'
            ;;
        (bench)
            _arguments -S \
                $root \
                '--json[Print the figures as JSON (keys documented in the README).]' \
                '--runs[Repetitions of each figure (default 5); min, median and max are reported.]:N: ' \
                '--quick[Smaller workloads (for a smoke test, not for the figures).]' \
                '--format[Measure this format only (with --profile, that profile of it).]:FORMAT:(surveynative fhir sage owlmetry)' \
                '--survey[The survey replayed, walked first in its format and whose figures are the top-level ones (default the first format'\''s first survey).]:SURVEY:_files -g "*.json"' \
                '--corpus[The shared corpus\: the surveys each format is measured on, and those '\''generate'\'' runs on (default ../shared/corpus).]:DIR:_files -/' \
                '--only[Measure one part only (to profile it).]:PART:(memory walks replay sizes fuzz suite jobs generate fhirpath)' \
                '--profile[The engine profile to simulate, for formats with several (e.g. c3pro).]:NAME: ' \
                '--option[Choose between disagreeing engines'\'' readings of a rule; several as A=x,B=y or repeated.]:NAME=VALUE: ' \
                '--context[A launch context the host hands the engine, from a JSON resource file (FHIR SDC\: patient=ada.context); several as A=x,B=y or repeated.]:NAME=FILE: ' \
                '(- *)'{-h,--help}'[Show this help.]'
            ;;
        (fuzz-parsers)
            _arguments -S \
                $root \
                '--list[List the targets and their seed counts.]' \
                '--runs[Inputs per target at most (default 2000).]:N: ' \
                '--seconds[Time per target at most (default 30).]:S: ' \
                '--seed[Seed of the mutations (default 1); with --run, the seed of that campaign.]:S: ' \
                '--corpus[Seed files besides Scenarios/ (default ../shared/corpus).]:DIR:_files -/' \
                '--failures[Where failing inputs are saved (default .build/fuzz-failures).]:DIR:_files -/' \
                '--run[Run input N of the campaign in this process and report it.]:N: ' \
                '--input[Run this file through the target in this process (a saved failure).]:FILE:_files' \
                '--write-seeds[Write the target'\''s seeds into DIR (a corpus for libFuzzer) and stop.]:DIR:_files -/' \
                '--child[Internal\: run inputs from --from to --runs, reporting progress.]' \
                '--from[Internal\: the first input of a child.]:N: ' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '*:TARGET:(json surveynative fhir sage owlmetry scenario properties golden coverage payload output fifo)'
            ;;
        (fhirpath)
            _arguments -S \
                $root \
                '--resource[The FHIR resource (JSON) %resource, %rootResource and %context are bound to.]:FILE:_files' \
                '--var[A variable %NAME bound to the JSON in FILE (a resource, or a value); repeatable.]:NAME=FILE: ' \
                '--valueset[A ValueSet (JSON) memberOf() may check against; repeatable.]:FILE:_files' \
                '--mode[lenient (default) or strict (paths checked against the FHIR R4 model).]:MODE:(lenient strict)' \
                '--polymorphic-names[What answer.valueCoding finds where the model has value\[x\]\: empty (default, HAPI) or navigate (fhirpath.js).]:HOW:(empty navigate)' \
                '--now[The moment now() and today() read (default 2026-01-01T00\:00\:00.000Z).]:DATETIME: ' \
                '--json[Serve JSON lines\: one request per line on standard input, one response per line on standard output.]' \
                '(- *)'{-h,--help}'[Show this help.]' \
                '::EXPR:_files'
            ;;
        (completion)
            _arguments -S \
                $root \
                '(- *)'{-h,--help}'[Show this help.]' \
                ':SHELL:(bash zsh fish)'
            ;;
        (help)
            _describe -t commands 'survey-replay command' commands
            ;;
    esac
}

if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
    _survey-replay "$@"
else
    compdef _survey-replay survey-replay
fi
