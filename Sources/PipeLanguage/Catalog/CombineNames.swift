/// Combine methods that are not stages in plumb, because plumb does their job itself or has no
/// place for it. A Combine programmer types them (every reference article ends an API with
/// `eraseToAnyPublisher()`), and a near miss helps nobody (`store` is not `share`): the checker's
/// E302 and `:help NAME` say what plumb does instead. What each does in Combine is from Combine's
/// reference (`Publisher.eraseToAnyPublisher()`, `AnyCancellable.store(in:)`,
/// `Publisher.assign(to:on:)`, `Cancellable.cancel()`).
///
/// ```swift
/// CombineNames.entry(named: "eraseToAnyPublisher")?.removable   // true
/// ```
public enum CombineNames {
    /// One Combine method and what to do in plumb instead.
    public struct Entry: Sendable {
        /// The method's name in Combine.
        public let name: String
        /// What it does in Combine, and what plumb does instead (a help line).
        public let instead: String
        /// The pipeline means the same without the stage, so a fix-it takes it out.
        public let removable: Bool
    }

    /// Every such method, by name.
    public static let entries: [Entry] = [
        Entry(
            name: "eraseToAnyPublisher",
            instead:
                "plumb needs no erasure: every pipeline already is an AnyPublisher (`:type` shows it), and `:swift` erases where Swift needs it; leave the stage out",
            removable: true),
        Entry(
            name: "store",
            instead:
                "Combine's store(in:) keeps a subscription's AnyCancellable alive; a run in plumb keeps its own until it ends, Ctrl-C cancels it, and a line ending in `&` runs as a job until `:cancel N`; leave the stage out",
            removable: true),
        Entry(
            name: "assign",
            instead:
                "Combine's assign(to:on:) writes each value to an object's property; plumb has no objects: the sink prints each value, `let NAME = …` names a pipeline, and a subject takes values with `NAME.send V`",
            removable: false),
        Entry(
            name: "cancel",
            instead:
                "a subscription is cancelled from outside the pipeline: Ctrl-C cancels the running one, `:cancel N` a job; `prefix` (`take`) and `timeout` end one from inside",
            removable: false),
    ]

    /// The entry for the Combine method `name`, or nil.
    public static func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }
}
