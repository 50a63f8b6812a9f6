import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a suite whose tests await tasks: a hang becomes a failure with the test's
    /// name instead of a CI timeout.
    ///
    /// Three minutes, longer than a whole parallel unit run (101 s in ci33): there, synchronous
    /// tests can hold both threads of the cooperative pool (two on a 2-core machine) for seconds at
    /// a time, and an awaiting test's jobs get their turns late, so a tighter limit would fail
    /// tests that are only waiting for the pool (a test's time counts from its start). Every
    /// suite of the parallel run that awaits carries it, here and in ReactiveTests and
    /// PipeLanguageTests (their own `hangLimit`); only the stress suites, run alone, keep 1 minute.
    static var hangLimit: Self { .timeLimit(.minutes(3)) }
}
