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
        lines += sideLines(entry).map { "  " + $0 }
        // An example of several lines (a binding and its uses) is indented under its label.
        lines.append("  example: " + entry.example.replacingOccurrences(of: "\n", with: "\n           "))
        return lines.joined(separator: "\n")
    }

    /// Which sides of a crossing the entry stands on, its async twin's Swift form and what differs:
    /// `async (after values): .debounce(for:clock:) …`, `differs: …`.
    static func sideLines(_ entry: CatalogEntry) -> [String] {
        let sides = entry.sides
        // A source with an async form (`timer every`) starts a pipeline on the async side.
        if entry.kind == .source, let twin = entry.asyncSwift {
            return ["async source: \(twin)"] + (entry.asyncDifference.map { ["differs: \($0)"] } ?? [])
        }
        guard entry.kind == .operator || entry.isCrossing else { return [] }
        if entry.isCrossing {
            return sides.contains(.async) ? ["crosses from an async sequence back to a publisher"] : ["crosses from a publisher to an async sequence"]
        }
        guard let twin = entry.asyncSwift else {
            return ["async (after values): none; cross back first (publisher | \(entry.name) …)"]
        }
        var lines = [sides.contains(.publisher) ? "async (after values): \(twin)" : "async only (after values): \(twin); no publisher form"]
        if let difference = entry.asyncDifference { lines.append("differs: \(difference)") }
        return lines
    }
}
