import Reactive

/// Cases of the async bridges issue (`values`, `asyncmap`).
let bridgeBenchmarks: [BenchCase] = []
