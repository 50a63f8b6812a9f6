extension Statement {
    /// True for a pipeline to run (`just 1 | sink`, with or without `&`), false for a `let`, a
    /// subject's `send`/`finish`/`fail` and an `expect`: what a host checks before it runs a text
    /// as a pipeline of its own (`:step PIPELINE`).
    public var runsPipeline: Bool { if case .run = statement { true } else { false } }

    /// True for a pipeline run with `&`.
    public var runsInBackground: Bool { if case .run(_, let background) = statement { background } else { false } }

    /// The subject or channel a `NAME.finish` ends; nil for any other statement.
    public var finishedName: String? { if case .finish(let name, _) = statement { name } else { nil } }

    /// The name a `let NAME = …` binds; nil for any other statement.
    public var boundName: String? { if case .bind(let name, _, _) = statement { name } else { nil } }
}
