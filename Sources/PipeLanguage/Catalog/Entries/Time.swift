import ReactiveAsync
import Foundation

/// Operators about time, schedulers and demand: delay, debounce, throttle, timeout, buffer,
/// receive(on:), subscribe(on:). Each runs on the runtime's scheduler (virtual or a dispatch queue).
extension CatalogTable {
    static let time: [CatalogEntry] = [
        CatalogEntry(
            "delay", [[p("D", .duration)]],
            summary: "delays every value and the completion by D", combine: ".delay(for:scheduler:)",
            example: "from [1, 2] | delay 100ms",
            build: .operator { b in
                let ns = try b.duration(0)
                func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                    b.upstream.delay(for: .nanoseconds(Int(ns)), scheduler: s).valueStream()
                }
                return b.onScheduler(make, make)
            },
            infer: Infer.same,
            swift: { b in
                b.needs(.queue)
                return b.then(".delay(for: \(b.duration(0)), scheduler: queue)")
            }),
        CatalogEntry(
            "debounce", [[p("D", .duration)]],
            summary: "emits a value only after D of silence", combine: ".debounce(for:scheduler:)",
            example: "interval 50ms | take 5 | append (timer 400ms | ignoreOutput) | debounce 100ms",
            build: .operator { b in
                let ns = try b.duration(0)
                func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                    b.upstream.debounce(for: .nanoseconds(Int(ns)), scheduler: s).valueStream()
                }
                return b.onScheduler(make, make)
            },
            infer: Infer.same,
            swift: { b in
                b.needs(.queue)
                return b.then(".debounce(for: \(b.duration(0)), scheduler: queue)")
            },
            async: AsyncForm(
                sequenceType: "AsyncDebounceSequence",
                swift: ".debounce(for:clock:) (swift-async-algorithms' AsyncDebounceSequence)",
                difference:
                    "when its base finishes, the async debounce emits the pending element at once (the Debounce guide); Combine's drops it and only finishes",
                build: { b, base in
                    let ns = try b.duration(0)
                    return b.onClock(
                        { base.debounce(for: .nanoseconds(ns), clock: $0).asyncValues() },
                        { base.debounce(for: .nanoseconds(ns), clock: $0).asyncValues() })
                },
                // On the continuous clock, the package's default (a Duration: `.milliseconds(100)`).
                translate: { b in b.then(".debounce(for: \(b.duration(0)))") })),
        CatalogEntry(
            "throttle", [[p("D", .duration), p("BOOL", .bool, label: "latest", optional: true)]],
            summary: "emits at most one value per interval D (the first, or the latest with latest: true)",
            combine: ".throttle(for:scheduler:latest:)", example: "interval 30ms | take 10 | throttle 100ms latest: true",
            build: .operator { b in
                let ns = try b.duration(0)
                var latest = false
                if b.argument(1) != nil {
                    guard case .bool(let l) = try b.value(1) else { throw b.error(.wrongBuildArgument("throttle", "latest: true or false")) }
                    latest = l
                }
                func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                    b.upstream.throttle(for: .nanoseconds(Int(ns)), scheduler: s, latest: latest).valueStream()
                }
                return b.onScheduler(make, make)
            },
            infer: Infer.same,
            swift: { b in
                b.needs(.queue)
                return b.then(".throttle(for: \(b.duration(0)), scheduler: queue, latest: \(b.has(1) ? b.value(1) : "false"))")
            },
            async: AsyncForm(
                sequenceType: "AsyncThrottleSequence",
                swift: ".throttle(for:clock:latest:) (swift-async-algorithms' AsyncThrottleSequence, shipped as _throttle)",
                difference:
                    "the async throttle measures the interval from the last element it emitted and is pulled by the consumer; Combine's runs on the scheduler's grid and pushes; latest: defaults to false on both sides here, as Combine's must be written, while swift-async-algorithms' throttle(for:clock:latest:) defaults it to true (AsyncThrottleSequence.swift): write latest: true for the package's default",
                build: { b, base in
                    let ns = try b.duration(0)
                    var latest = false
                    if b.argument(1) != nil {
                        guard case .bool(let l) = try b.value(1) else { throw b.error(.wrongBuildArgument("throttle", "latest: true or false")) }
                        latest = l
                    }
                    return b.onClock(
                        { base.throttle(for: .nanoseconds(ns), clock: $0, latest: latest).asyncValues() },
                        { base.throttle(for: .nanoseconds(ns), clock: $0, latest: latest).asyncValues() })
                },
                // The package ships it as `_throttle`: the name that compiles against both.
                translate: { b in b.then("._throttle(for: \(b.duration(0)), latest: \(b.has(1) ? b.value(1) : "false"))") })),
        CatalogEntry(
            "timeout", [[p("D", .duration), p("MESSAGE", .string, label: "customError", optional: true, labelRequired: true)]],
            summary: "finishes if upstream is silent for D (or fails with MESSAGE, given customError:)",
            combine: ".timeout(_:scheduler:) / .timeout(_:scheduler:customError:)",
            // Values, then 100 ms of silence: it finishes (an example must show something).
            example: "from [1, 2] | append (never) | timeout 100ms",
            build: .operator { b in
                let ns = try b.duration(0)
                // Without customError Combine's timeout finishes; with it, it fails with that error.
                let error: PipelineError? = b.argument(1) == nil ? nil : PipelineError(message: try b.value(1).plainText, location: b.location)
                func make<S: Scheduler>(_ s: S) -> ValuePublisher {
                    b.upstream.timeout(.nanoseconds(Int(ns)), scheduler: s, customError: error.map { e in { e } }).valueStream()
                }
                return b.onScheduler(make, make)
            },
            infer: { Shape(kind: $0.upstream.kind, canFail: $0.upstream.canFail || $0.arguments.count > 1 && $0.arguments[1] != nil) },
            swift: { b in
                b.needs(.queue)
                guard b.has(1) else { return b.then(".timeout(\(b.duration(0)), scheduler: queue)") }
                b.needs(.pipeError)
                let error = "customError: { PipeError(\(Value.quote(b.string(1)))) }"
                return b.upstream.failing.then(".timeout(\(b.duration(0)), scheduler: queue, \(error))")
            }),
        CatalogEntry(
            "measureInterval", [[]],
            summary: "emits the time since the previous value, in milliseconds", combine: ".measureInterval(using:)",
            example: "interval 100ms | take 3 | measureInterval",
            build: .operator { b in
                // Milliseconds (a Double) since the previous value (or the subscription).
                b.onScheduler(
                    { (s: StageScheduler) in
                        b.upstream.measureInterval(using: s).map { Value.double(Double($0.nanoseconds) / 1e6) }.valueStream()
                    },
                    { (q: DispatchQueue) in
                        b.upstream.measureInterval(using: q).map { Value.double(Double($0.magnitude) / 1e6) }.valueStream()
                    })
            },
            infer: Infer.fixedKeepFailure(.double),
            swift: { b in
                b.needs(.queue)
                return b.then(".measureInterval(using: queue)").then(".map { Double($0.magnitude) / 1e6 }", kind: .double)
            }),
        CatalogEntry(
            "buffer", [[p("SIZE", .positive)]],
            summary: "asks upstream for everything and keeps up to SIZE values ahead of demand; later ones are dropped",
            combine: ".buffer(size:prefetch:whenFull:)",
            example: "from 1...5 | buffer 2",
            build: .operator { b in
                b.upstream.buffer(size: try b.int(0, minimum: 1), prefetch: .byRequest, whenFull: .dropNewest).valueStream()
            },
            infer: Infer.same,
            swift: { b in b.then(".buffer(size: \(b.value(0)), prefetch: .byRequest, whenFull: .dropNewest)") }),
        CatalogEntry(
            "receiveOn", aliases: ["receive"], [[]],
            summary: "delivers downstream on the runtime's scheduler", combine: ".receive(on:)",
            example: "just 1 | receiveOn",
            build: .operator { b in
                func make<S: Scheduler>(_ s: S) -> ValuePublisher { b.upstream.receive(on: s).valueStream() }
                return b.onScheduler(make, make)
            },
            infer: Infer.same,
            swift: { b in
                b.needs(.queue)
                return b.then(".receive(on: queue)")
            }),
        CatalogEntry(
            "subscribeOn", [[]],
            summary: "subscribes upstream on the runtime's scheduler", combine: ".subscribe(on:)",
            example: "just 1 | subscribeOn",
            build: .operator { b in
                func make<S: Scheduler>(_ s: S) -> ValuePublisher { b.upstream.subscribe(on: s).valueStream() }
                return b.onScheduler(make, make)
            },
            infer: Infer.same,
            swift: { b in
                b.needs(.queue)
                return b.then(".subscribe(on: queue)")
            }),
    ]
}
