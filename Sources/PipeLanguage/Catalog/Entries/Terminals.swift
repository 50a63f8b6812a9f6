/// Terminals: what subscribes at the end of a statement.
extension CatalogTable {
    static let terminals: [CatalogEntry] = [
        CatalogEntry(
            "sink", [[]],
            summary: "subscribes and prints every event (implied when a pipeline has no terminal)",
            combine: ".sink(receiveCompletion:receiveValue:)", example: "just 1 | sink",
            build: .terminal { start in
                let subscriber = EventSubscriber(events: start.events)
                guard start.register({ subscriber.cancel() }) else { return }
                start.publisher.subscribe(subscriber)
            },
            infer: Infer.same,
            swift: { b in b.upstream }),
        CatalogEntry(
            "values", [[]],
            summary: "consumes through `for try await value in publisher.values`; before more stages, crosses to an async sequence (one value per `next()`)",
            combine: ".values", example: "from 1...3 | values",
            build: .terminal { start in
                Terminals.startTask(start) { publisher, events in
                    for try await value in publisher.values { events.send(.next(value)) }
                }
            },
            infer: Infer.same,
            swift: { b in
                var code = b.upstream
                code.consumption = .values
                return code
            }, crossing: .values),
        CatalogEntry(
            "async", [[]],
            summary: "awaits the first value with `try await publisher.async()`",
            combine: "try await publisher.async() (an addition of this repository: not in Combine)",
            example: "just 1 | asyncMap delay 100 | async",
            build: .terminal { start in
                Terminals.startTask(start) { publisher, events in events.send(.value(try await publisher.async())) }
            },
            infer: Infer.same,
            swift: { b in
                var code = b.upstream
                code.consumption = .async
                return code
            }),
    ]
}

/// The async terminals' shared task: runs `body` on the runtime's executor and reports how it ended.
enum Terminals {
    static func startTask(
        _ start: TerminalStart, _ body: @escaping @Sendable (ValuePublisher, EventSerializer) async throws -> Void
    ) {
        let events = start.events
        let publisher = start.publisher
        events.send(.subscribed)
        let task = Task(executorPreference: start.runtime.taskExecutor) {
            do {
                try await body(publisher, events)
                events.send(.finished, terminal: true)
            } catch is CancellationError {
                events.send(.cancelled, terminal: true)
            } catch {
                events.send(.failed(PipelineError.from(error)), terminal: true)
            }
        }
        let cancel: @Sendable () -> Void = {
            task.cancel()
            events.send(.cancelled, terminal: true)
        }
        if !start.register(cancel) { cancel() }
    }
}
