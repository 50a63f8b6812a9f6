/// `plumb completions bash|zsh|fish`: completion scripts made from the argument parser's own lists
/// (`ArgumentParser.subcommands`, `ArgumentParser.options`) and `plumb --help`'s descriptions, so
/// a new subcommand or option is completed without editing three scripts.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": zsh
        case "fish": fish
        default: bash
        }
    }

    /// Options that take a value, with the values to offer (empty: a free value).
    static let values: [String: [String]] = [
        "--clock": ["real", "virtual"], "--format": ["text", "jsonl"], "--until": [], "--svg": [], "--reset": [],
        "--report": ["junit", "tap"],
    ]
    /// Help topics besides the subcommands.
    static let topics = ["diagnostics"]

    /// What `plumb --help` says a subcommand does (the first line of its first USAGE entry).
    static func summary(of subcommand: String) -> String {
        for line in HelpText.overview.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count > 2, words[0] == "plumb", words[1] == subcommand || (subcommand == "repl" && words[1] == "[OPTIONS]"),
                let gap = line.dropFirst(2).range(of: "  ")
            else { continue }
            return firstClause(line.dropFirst(2)[gap.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        return subcommand
    }

    /// What `plumb --help` says an option does (options of one subcommand are described in its
    /// USAGE line, so they are named here).
    static func summary(ofOption option: String) -> String {
        let ofSubcommand = [
            "--once": "(learn) check the exercises once", "--reset": "(learn) restore an exercise to its first version",
            "--program": "(swift) one main.swift that compiles and runs", "--markdown": "(help) write the operator reference",
            "--man": "(help) this help as a manual page", "--qr": "(serve) draw the learners' URL as a QR code",
            "--no-qr": "(serve) no QR code, even on a terminal",
        ]
        if let text = ofSubcommand[option] { return text }
        for line in HelpText.overview.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix(option + " ") || text.hasPrefix("-h, " + option + " "), let gap = text.range(of: "  ") else { continue }
            return firstClause(text[gap.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        return option
    }

    /// A description's first line without a parenthesis it does not close there.
    static func firstClause(_ text: String) -> String {
        guard text.filter({ $0 == "(" }).count > text.filter({ $0 == ")" }).count, let open = text.range(of: " (", options: .backwards) else {
            return text.hasSuffix(";") || text.hasSuffix(",") ? String(text.dropLast()) : text
        }
        return String(text[..<open.lowerBound])
    }

    static var bash: String {
        let flags = ArgumentParser.options.joined(separator: " ")
        let valued = values.keys.sorted().joined(separator: "|")
        return """
            # bash completion for plumb (written by `plumb completions bash`)
            _plumb() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                local subcommands="\(ArgumentParser.subcommands.joined(separator: " "))"
                local command="" word i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    case "$word" in
                        \(valued)) ((i++)) ;;
                        -*) ;;
                        *) command="$word"; break ;;
                    esac
                done
                case "$prev" in
                    --clock) COMPREPLY=($(compgen -W "\(values["--clock"]!.joined(separator: " "))" -- "$cur")); return ;;
                    --format) COMPREPLY=($(compgen -W "\(values["--format"]!.joined(separator: " "))" -- "$cur")); return ;;
                    --report) COMPREPLY=($(compgen -W "\(values["--report"]!.joined(separator: " "))" -- "$cur")); return ;;
                    junit) COMPREPLY=($(compgen -f -X '!*.xml' -- "$cur")); compopt -o plusdirs 2>/dev/null; return ;;
                    --svg) COMPREPLY=($(compgen -f -X '!*.svg' -- "$cur")); compopt -o plusdirs 2>/dev/null; return ;;
                    --reset) COMPREPLY=($(compgen -f -X '!*.pipe' -- "$cur")); compopt -o plusdirs 2>/dev/null; return ;;
                    --until) return ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "\(flags)" -- "$cur"))
                    return
                fi
                case "$command" in
                    "") COMPREPLY=($(compgen -W "$subcommands" -- "$cur")) ;;
                    run | check | swift) COMPREPLY=($(compgen -f -X '!*.pipe' -- "$cur")); compopt -o plusdirs 2>/dev/null ;;
                    test | learn) COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.pipe' -- "$cur")) ;;
                    help) COMPREPLY=($(compgen -W "$subcommands \(topics.joined(separator: " "))" -- "$cur")) ;;
                    completions) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$cur")) ;;
                esac
            }
            complete -o filenames -F _plumb plumb

            """
    }

    static var zsh: String {
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        }
        let commands = ArgumentParser.subcommands.map { "        '\($0):\(quoted(summary(of: $0)))'" }.joined(separator: "\n")
        let options = ArgumentParser.options.map { option -> String in
            let what = quoted(summary(ofOption: option))
            if let offered = values[option] {
                let action = offered.isEmpty ? (option == "--until" ? " " : "_files") : "(\(offered.joined(separator: " ")))"
                return "        '\(option)[\(what)]:\(option.dropFirst(2)):\(action)'"
            }
            return "        '\(option)[\(what)]'"
        }.joined(separator: " \\\n")
        return """
            #compdef plumb
            # zsh completion for plumb (written by `plumb completions zsh`)
            _plumb() {
                local curcontext="$curcontext" state line
                local -a subcommands
                subcommands=(
            \(commands)
                )
                _arguments -C \\
            \(options) \\
                    '1: :->command' \\
                    '*:: :->argument'
                case $state in
                    command) _describe -t commands 'plumb command' subcommands ;;
                    argument)
                        case $line[1] in
                            run | check | swift) _files -g '*.pipe' ;;
                            test | learn) _files -g '*.pipe' ;;
                            help) _values 'topic' \(ArgumentParser.subcommands.joined(separator: " ")) \(topics.joined(separator: " ")) ;;
                            completions) _values 'shell' \(shells.joined(separator: " ")) ;;
                        esac
                        ;;
                esac
            }
            _plumb "$@"

            """
    }

    static var fish: String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
        var lines = [
            "# fish completion for plumb (written by `plumb completions fish`)",
            "complete -c plumb -f",
        ]
        let all = ArgumentParser.subcommands.joined(separator: " ")
        for command in ArgumentParser.subcommands {
            lines.append("complete -c plumb -n 'not __fish_seen_subcommand_from \(all)' -a \(command) -d \(quoted(summary(of: command)))")
        }
        for option in ArgumentParser.options {
            var line = "complete -c plumb -l \(option.dropFirst(2))"
            if option == "--help" { line += " -s h" }
            if let offered = values[option] {
                line += offered.isEmpty ? (option == "--until" ? " -x" : " -r -F") : " -x -a \(quoted(offered.joined(separator: " ")))"
            }
            lines.append(line + " -d \(quoted(summary(ofOption: option)))")
        }
        lines += [
            "complete -c plumb -n '__fish_seen_subcommand_from run check swift' -F -a '(__fish_complete_suffix .pipe)'",
            "complete -c plumb -n '__fish_seen_subcommand_from test learn' -F",
            "complete -c plumb -n '__fish_seen_subcommand_from help' -a \(quoted(all + " " + topics.joined(separator: " ")))",
            "complete -c plumb -n '__fish_seen_subcommand_from completions' -a \(quoted(shells.joined(separator: " ")))",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
