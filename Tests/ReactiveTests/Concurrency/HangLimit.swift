import Testing

extension Trait where Self == TimeLimitTrait {
    /// Reactive's suites that await tasks: 3 minutes, as ReactiveAsyncTests' `hangLimit` and for
    /// the same reason (a test's time counts from its start, and in the parallel run, 101 s in
    /// ci33, its jobs can wait seconds at a time for the two cooperative threads).
    static var hangLimit: Self { .timeLimit(.minutes(3)) }
}
