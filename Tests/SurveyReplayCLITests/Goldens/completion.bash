# bash completion for survey-replay, made by 'survey-replay completion bash' from its command declarations.
# Load it with: source <(survey-replay completion bash)

_survey_replay_files() {
    # Files with one of the extensions given (any file when none is), and folders to walk into.
    local IFS=$'\n' extension
    if [[ $# -eq 0 ]]; then
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    for extension in "$@"; do COMPREPLY+=($(compgen -f -X "!*.$extension" -- "$cur")); done
    COMPREPLY+=($(compgen -d -- "$cur"))
}

_survey_replay() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command=test first=2 operand=0 i
    COMPREPLY=()
    case "${COMP_WORDS[1]}" in
        test|replay|review|record|import|fuzz|compare|coverage|generate|lint|report|bench|fuzz-parsers|fhirpath|completion) command="${COMP_WORDS[1]}" ;;
        help)
            [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "test replay review record import fuzz compare coverage generate lint report bench fuzz-parsers fhirpath completion" -- "$cur"))
            return ;;
        *)
            first=1
            if [[ $COMP_CWORD -eq 1 && $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--version --record --jobs --filter --junit --html --fail-on-obsolete --allow-obsolete --scenarios --snapshots --help" -- "$cur"))
                return
            elif [[ $COMP_CWORD -eq 1 ]]; then
                COMPREPLY=($(compgen -W "test replay review record import fuzz compare coverage generate lint report bench fuzz-parsers fhirpath completion help" -- "$cur"))
                return
            fi ;;
    esac
    case "$command" in
        test)
            case "$prev" in
                --record) COMPREPLY=($(compgen -W "missing all failed never" -- "$cur")); return ;;
                --jobs) :; return ;;
                --filter) :; return ;;
                --junit) _survey_replay_files; return ;;
                --html) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --scenarios) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --snapshots) COMPREPLY=($(compgen -d -- "$cur")); return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--record --jobs --filter --junit --html --fail-on-obsolete --allow-obsolete --scenarios --snapshots --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --record|--jobs|--filter|--junit|--html|--scenarios|--snapshots) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files scenario ;;
            esac ;;
        replay)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--json --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files scenario ;;
            esac ;;
        review)
            case "$prev" in
                --snapshots) COMPREPLY=($(compgen -d -- "$cur")); return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--accept --reject --snapshots --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --snapshots) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files new ;;
            esac ;;
        record)
            case "$prev" in
                -o) _survey_replay_files; return ;;
                --today) :; return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "-o --today --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    -o|--today|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files json ;;
            esac ;;
        import)
            case "$prev" in
                --survey) _survey_replay_files json; return ;;
                -o) _survey_replay_files; return ;;
                --today) :; return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--survey -o --today --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --survey|-o|--today|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files json ;;
            esac ;;
        fuzz)
            case "$prev" in
                --walks) :; return ;;
                --seed) :; return ;;
                --max-steps) :; return ;;
                --properties) _survey_replay_files properties; return ;;
                --save-failures) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --shard) :; return ;;
                --replay) :; return ;;
                --today) :; return ;;
                --junit) _survey_replay_files; return ;;
                --html) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--walks --seed --max-steps --properties --save-failures --shard --replay --today --strict --json --junit --html --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --walks|--seed|--max-steps|--properties|--save-failures|--shard|--replay|--today|--junit|--html|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files json ;;
            esac ;;
        compare)
            case "$prev" in
                --profiles) :; return ;;
                --walks) :; return ;;
                --seed) :; return ;;
                --max-steps) :; return ;;
                --today) :; return ;;
                --save) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--profiles --walks --seed --max-steps --today --save --json --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --profiles|--walks|--seed|--max-steps|--today|--save|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                0) _survey_replay_files json ;;
                *) _survey_replay_files json ;;
            esac ;;
        coverage)
            case "$prev" in
                --walks) :; return ;;
                --seed) :; return ;;
                --max-steps) :; return ;;
                --today) :; return ;;
                --json) _survey_replay_files; return ;;
                --lcov) _survey_replay_files; return ;;
                --cobertura) _survey_replay_files; return ;;
                --dot) _survey_replay_files; return ;;
                --min) :; return ;;
                --html) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--walks --seed --max-steps --today --json --lcov --cobertura --dot --min --html --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --walks|--seed|--max-steps|--today|--json|--lcov|--cobertura|--dot|--min|--html|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files ;;
            esac ;;
        generate)
            case "$prev" in
                -o) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --walks) :; return ;;
                --patience) :; return ;;
                --seed) :; return ;;
                --max-steps) :; return ;;
                --today) :; return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "-o --walks --patience --seed --max-steps --today --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    -o|--walks|--patience|--seed|--max-steps|--today|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files json ;;
            esac ;;
        lint)
            case "$prev" in
                --format) COMPREPLY=($(compgen -W "text json sarif github" -- "$cur")); return ;;
                --disable) :; return ;;
                --severity) COMPREPLY=($(compgen -W "error warning note" -- "$cur")); return ;;
                --config) _survey_replay_files; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--format --json --disable --severity --config --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --format|--disable|--severity|--config) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files json ;;
            esac ;;
        report)
            case "$prev" in
                -o) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --title) :; return ;;
                --walks) :; return ;;
                --fuzz) :; return ;;
                --seed) :; return ;;
                --max-steps) :; return ;;
                --today) :; return ;;
                --scenarios) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --snapshots) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "-o --title --walks --fuzz --seed --max-steps --today --scenarios --snapshots --profile --option --context --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    -o|--title|--walks|--fuzz|--seed|--max-steps|--today|--scenarios|--snapshots|--profile|--option|--context) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files ;;
            esac ;;
        bench)
            case "$prev" in
                --runs) :; return ;;
                --format) COMPREPLY=($(compgen -W "surveynative fhir sage owlmetry" -- "$cur")); return ;;
                --survey) _survey_replay_files json; return ;;
                --corpus) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --only) COMPREPLY=($(compgen -W "memory walks replay sizes fuzz suite jobs generate fhirpath" -- "$cur")); return ;;
                --profile) :; return ;;
                --option) :; return ;;
                --context) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--json --runs --quick --format --survey --corpus --only --profile --option --context --help" -- "$cur"))
                return
            fi
            ;;
        fuzz-parsers)
            case "$prev" in
                --runs) :; return ;;
                --seconds) :; return ;;
                --seed) :; return ;;
                --corpus) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --failures) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --run) :; return ;;
                --input) _survey_replay_files; return ;;
                --write-seeds) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --from) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--list --runs --seconds --seed --corpus --failures --run --input --write-seeds --child --from --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --runs|--seconds|--seed|--corpus|--failures|--run|--input|--write-seeds|--from) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) COMPREPLY=($(compgen -W "json surveynative fhir sage owlmetry scenario properties golden coverage payload output fifo" -- "$cur")) ;;
            esac ;;
        fhirpath)
            case "$prev" in
                --resource) _survey_replay_files; return ;;
                --var) :; return ;;
                --valueset) _survey_replay_files; return ;;
                --mode) COMPREPLY=($(compgen -W "lenient strict" -- "$cur")); return ;;
                --polymorphic-names) COMPREPLY=($(compgen -W "empty navigate" -- "$cur")); return ;;
                --now) :; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--resource --var --valueset --mode --polymorphic-names --now --json --help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --resource|--var|--valueset|--mode|--polymorphic-names|--now) ((i++)) ;;
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) _survey_replay_files ;;
            esac ;;
        completion)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--help" -- "$cur"))
                return
            fi
            for ((i = first; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    -*) ;;
                    *) ((operand++)) ;;
                esac
            done
            case $operand in
                *) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
            esac ;;
    esac
}

complete -o filenames -F _survey_replay survey-replay
