/// The one table of every source, operator and terminal. `:help`, tab completion, argument
/// checking, the static pass and the graph builder all read it. An entry — its signature, help,
/// builder, inference rule and warning — lives in its family's file under `Catalog/Entries/`, so
/// adding an operator is adding one entry there (and its tests).
///
/// ```swift
/// Catalog.entry(named: "take")?.name        // "prefix"
/// Catalog.suggestion(for: "retyr", among: Catalog.names)   // "retry"
/// ```
public enum Catalog {
    /// Every entry, sources first, then operators, then terminals.
    public static var entries: [CatalogEntry] { table }

    /// The entry named `name` or with `name` as an alias.
    public static func entry(named name: String) -> CatalogEntry? {
        byName[name].map { table[$0] }
    }

    /// The closest of `candidates` to `name` by edit distance (< 4), or nil.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        Suggestions.closest(to: name, among: candidates)
    }

    /// Every name and alias.
    public static var names: [String] { table.flatMap { [$0.name] + $0.aliases } }

    static func names(of kind: CatalogEntry.Kind) -> [String] {
        table.filter { $0.kind == kind }.flatMap { [$0.name] + $0.aliases }
    }

    static let byName: [String: Int] = {
        var map: [String: Int] = [:]
        for (i, e) in table.enumerated() {
            for n in [e.name] + e.aliases where map[n] == nil { map[n] = i }
        }
        return map
    }()

    /// The terminal a pipeline without one ends in.
    static let sink = byName["sink"]!

    static let table: [CatalogEntry] = CatalogTable.all
}

/// The entries by family; each family's list is in `Catalog/Entries/<Family>.swift`.
enum CatalogTable {
    static let all: [CatalogEntry] = sources + transforming + filtering + combining + errors + time + bridges + terminals
}
