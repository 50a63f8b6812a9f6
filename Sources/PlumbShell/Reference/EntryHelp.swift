import PipeLanguage

/// One catalog entry's help: what `:help flatMap` and `plumb help flatMap` print.
enum EntryHelp {
    /// The entry's signature, summary, aliases, Combine equivalent and example.
    ///
    /// - Parameters:
    ///   - entry: the source, operator or terminal.
    ///   - style: bold for the signature on a terminal; `.plain` otherwise.
    /// - Returns: lines such as `flatMap …`, `  maps each value …`, `  Combine: …`, `  example: …`.
    static func text(_ entry: CatalogEntry, style: Style) -> String {
        var lines = [style.bold(entry.signature), "  \(entry.summary)"]
        if !entry.aliases.isEmpty { lines.append("  aliases: \(entry.aliases.joined(separator: ", "))") }
        lines.append("  Combine: \(entry.combine)")
        // An example of several lines (a binding and its uses) is indented under its label.
        lines.append("  example: " + entry.example.replacingOccurrences(of: "\n", with: "\n           "))
        return lines.joined(separator: "\n")
    }
}
