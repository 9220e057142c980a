# bash completion for pcisim (installed as share/bash-completion/completions/pcisim; or
# `source completion/pcisim.bash`).  It asks the pcisim being completed for what it knows, so
# it never falls behind the program: the commands from `pcisim help`, a command's options from
# `pcisim COMMAND --help`, the scenario keys of --set and --vary from `pcisim schema`.
_pcisim() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local prog=${COMP_WORDS[0]} command= i
    # The command: the first word that is neither a common option nor its value.
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --data-dir) ((i++)) ;;
            -q | --quiet | --data-dir=*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    local commands
    commands=$("$prog" help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
    case $prev in
        --data-dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
        --json | --vcd | --trace | --pcap | -o | --doc)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
        --set | --vary)
            local keys
            keys=$("$prog" schema 2>/dev/null | sed -n 's/^| `\([^`]*\)` .*/\1/p')
            mapfile -t COMPREPLY < <(compgen -S = -W "$keys" -- "$cur")
            compopt -o nospace 2>/dev/null
            return ;;
    esac
    if [ -z "$command" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands --data-dir -q --quiet --help --version" -- "$cur")
        return
    fi
    if [ "$command" = help ]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
        return
    fi
    if [[ $cur == -* ]]; then
        local options
        options=$("$prog" "$command" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
        mapfile -t COMPREPLY < <(compgen -W "$options --data-dir -q --quiet" -- "$cur")
        return
    fi
    # Positional arguments: scenarios (JSON) or sweep CSVs, and folders to get to them.
    local pattern='*.json'
    case $command in fit | merge) pattern='*.csv' ;; esac
    mapfile -t COMPREPLY < <(compgen -f -X "!$pattern" -- "$cur"; compgen -d -S / -- "$cur")
    compopt -o nospace 2>/dev/null
}
complete -F _pcisim pcisim
