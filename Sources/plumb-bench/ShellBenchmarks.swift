import Foundation

/// Cases of the shell issue (`startup`, `print`, `interval-jitter`); they run the built `plumb` binary.
let shellBenchmarks: [BenchCase] = []
