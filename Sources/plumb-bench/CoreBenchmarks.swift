import Reactive

/// Cases (a)–(e) of the core issue.
let coreBenchmarks: [BenchCase] = []
