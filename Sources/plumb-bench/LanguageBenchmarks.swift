import PipeLanguage

/// Cases of the language issue (`parse-stages`, `parse-lines`, `dsl-chain`).
let languageBenchmarks: [BenchCase] = []
