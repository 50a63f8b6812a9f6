/// `plumb completions bash|zsh|fish`: completion scripts made from the subcommands'
/// configurations (`PlumbCommands.all`: names, summaries, what their operands are) and the option
/// table (`CommandLineOption.all`: names, summaries, values), so a new subcommand or option is
/// completed, and described, without editing three scripts.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": zsh
        case "fish": fish
        default: bash
        }
    }

    /// Help topics besides the subcommands.
    static let topics = ["diagnostics"]

    private static var options: [CommandLineOption] { CommandLineOption.all }
    private static var subcommands: [String] { PlumbCommands.names }

    /// The subcommands whose operands complete as `kind`, in the table's order.
    private static func commands(taking kind: CommandConfiguration.Operands) -> [String] {
        PlumbCommands.all.filter { $0.configuration.operands == kind }.map { $0.configuration.name }
    }

    static var bash: String {
        let valued = options.filter { $0.value != .none }
        var previous: [String] = []
        for option in valued {
            switch option.value {
            case .none: break
            case .choice(let words, let fileAfter):
                previous.append("\(option.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;")
                for word in words { if let suffix = fileAfter[word] { previous.append("\(word)) \(bashFiles(suffix))") } }
            case .file(let suffix): previous.append("\(option.name)) \(bashFiles(suffix))")
            case .directory: previous.append("\(option.name)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;")
            case .text: previous.append("\(option.name)) return ;;")
            }
        }
        let operands = [
            (commands(taking: .scripts), "COMPREPLY=($(compgen -f -X '!*.pipe' -- \"$cur\")); compopt -o plusdirs 2>/dev/null ;;"),
            (commands(taking: .scriptsOrFolders), "COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X '!*.pipe' -- \"$cur\")) ;;"),
            (commands(taking: .helpTopics), "COMPREPLY=($(compgen -W \"$subcommands \(topics.joined(separator: " "))\" -- \"$cur\")) ;;"),
            (commands(taking: .shells), "COMPREPLY=($(compgen -W \"\(shells.joined(separator: " "))\" -- \"$cur\")) ;;"),
        ].filter { !$0.0.isEmpty }.map { "        \($0.0.joined(separator: " | "))) \($0.1)" }
        return """
            # bash completion for plumb (written by `plumb completions bash`)
            _plumb() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                local subcommands="\(subcommands.joined(separator: " "))"
                local command="" word i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    case "$word" in
                        \(valued.map(\.name).joined(separator: "|"))) ((i++)) ;;
                        -*) ;;
                        *) command="$word"; break ;;
                    esac
                done
                case "$prev" in
            \(previous.map { "        " + $0 }.joined(separator: "\n"))
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "\(options.map(\.name).joined(separator: " "))" -- "$cur"))
                    return
                fi
                case "$command" in
                    "") COMPREPLY=($(compgen -W "$subcommands" -- "$cur")) ;;
            \(operands.joined(separator: "\n"))
                esac
            }
            complete -o filenames -F _plumb plumb

            """
    }

    private static func bashFiles(_ suffix: String) -> String {
        "COMPREPLY=($(compgen -f -X '!*\(suffix)' -- \"$cur\")); compopt -o plusdirs 2>/dev/null; return ;;"
    }

    static var zsh: String {
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        }
        let described = PlumbCommands.all.map { "        '\($0.configuration.name):\(quoted($0.configuration.summary))'" }.joined(separator: "\n")
        let arguments = options.map { option -> String in
            let head = "        '\(option.name)[\(quoted(option.summary))]"
            let message = ":\(option.name.dropFirst(2)):"
            switch option.value {
            case .none: return head + "'"
            case .choice(let words, _): return head + message + "(\(words.joined(separator: " ")))'"
            case .file: return head + message + "_files'"
            case .directory: return head + message + "_files -/'"
            case .text: return head + message + " '"
            }
        }.joined(separator: " \\\n")
        let operands = [
            (commands(taking: .scripts), "_files -g '*.pipe' ;;"), (commands(taking: .scriptsOrFolders), "_files -g '*.pipe' ;;"),
            (commands(taking: .helpTopics), "_values 'topic' \((subcommands + topics).joined(separator: " ")) ;;"),
            (commands(taking: .shells), "_values 'shell' \(shells.joined(separator: " ")) ;;"),
        ].filter { !$0.0.isEmpty }.map { "                \($0.0.joined(separator: " | "))) \($0.1)" }
        return """
            #compdef plumb
            # zsh completion for plumb (written by `plumb completions zsh`)
            _plumb() {
                local curcontext="$curcontext" state line
                local -a subcommands
                subcommands=(
            \(described)
                )
                _arguments -C \\
            \(arguments) \\
                    '1: :->command' \\
                    '*:: :->argument'
                case $state in
                    command) _describe -t commands 'plumb command' subcommands ;;
                    argument)
                        case $line[1] in
            \(operands.joined(separator: "\n"))
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
        let all = subcommands.joined(separator: " ")
        for command in PlumbCommands.all {
            let name = command.configuration.name
            lines.append("complete -c plumb -n 'not __fish_seen_subcommand_from \(all)' -a \(name) -d \(quoted(command.configuration.summary))")
        }
        for option in options {
            var line = "complete -c plumb -l \(option.name.dropFirst(2))"
            for alias in option.aliases where !alias.hasPrefix("--") { line += " -s \(alias.dropFirst())" }
            switch option.value {
            case .none: break
            case .choice(let words, _): line += " -x -a \(quoted(words.joined(separator: " ")))"
            case .file: line += " -r -F"
            case .directory: line += " -x -a '(__fish_complete_directories)'"
            case .text: line += " -x"
            }
            lines.append(line + " -d \(quoted(option.summary))")
        }
        func seen(_ kind: CommandConfiguration.Operands) -> String {
            "complete -c plumb -n '__fish_seen_subcommand_from \(commands(taking: kind).joined(separator: " "))'"
        }
        lines += [
            seen(.scripts) + " -F -a '(__fish_complete_suffix .pipe)'",
            seen(.scriptsOrFolders) + " -F",
            seen(.helpTopics) + " -a \(quoted((subcommands + topics).joined(separator: " ")))",
            seen(.shells) + " -a \(quoted(shells.joined(separator: " ")))",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
