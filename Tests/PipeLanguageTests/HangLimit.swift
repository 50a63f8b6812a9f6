import Testing

extension Trait where Self == TimeLimitTrait {
    /// The language's suites that await tasks or pipelines: 3 minutes, ReactiveAsyncTests'
    /// `hangLimit`, longer than a whole parallel unit run, whose tests wait for the pool.
    static var hangLimit: Self { .timeLimit(.minutes(3)) }
}
