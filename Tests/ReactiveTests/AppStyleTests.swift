import Foundation
import Reactive
import Testing

// MARK: - The app's code
//
// Written as an app's view model is written against Combine; only the import differs
// (`import Reactive` for `import Combine`), and it compiles unchanged against either.
//
// The app's main run loop is a parameter whose default is `RunLoop.main`, the common way to
// make such a view model testable: under Swift Testing on Linux the process's main thread
// never runs its run loop (the async test entry point parks it in `dispatch_main`, and
// main-actor work runs on a dispatch worker), so `RunLoop.main` is never serviced there. The
// tests give it the run loop of a thread that plays the app's main thread and runs its loop.

extension Notification.Name {
    static let connectivityChanged = Notification.Name("AppStyleTests.connectivityChanged")
}

struct Forecast: Decodable, Equatable, Sendable {
    let city: String
    let celsius: Double
}

final class WeatherViewModel: ObservableObject {
    @Published var forecast: Forecast?
    @Published var errorMessage: String?
    @Published var secondsOnScreen = 0
    @Published var isOnline = true

    /// Where the forecasts come from (a `URLSession.dataTaskPublisher` in the shipping app).
    let responses = PassthroughSubject<Data, any Error>()
    private var cancellables = Set<AnyCancellable>()

    init(center: NotificationCenter = .default, mainLoop: RunLoop = .main, tick: TimeInterval = 1) {
        Timer.publish(every: tick, on: mainLoop, in: .common)
            .autoconnect()
            .receive(on: mainLoop)
            .scan(0) { count, _ in count + 1 }
            .assign(to: &$secondsOnScreen)

        center.publisher(for: .connectivityChanged)
            .compactMap { $0.userInfo?["online"] as? Bool }
            .receive(on: mainLoop)
            .assign(to: &$isOnline)

        responses
            .decode(type: Forecast.self, decoder: JSONDecoder())
            .receive(on: mainLoop)
            .sink(
                receiveCompletion: { [weak self] completion in
                    if case .failure(let error) = completion { self?.errorMessage = "\(type(of: error))" }
                },
                receiveValue: { [weak self] forecast in self?.forecast = forecast }
            )
            .store(in: &cancellables)
    }
}

// MARK: - The test harness

/// Runs `body` on a new thread that plays the app's main thread, with that thread's run loop,
/// and returns what `body` returns once it is done.
private func onAppMainThread<T: Sendable>(_ body: @escaping @Sendable (RunLoop) -> T) -> T {
    let box = ResultSlot<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body(RunLoop.current)
        done.signal()
    }
    thread.start()
    done.wait()
    return box.value!
}

/// Carries a result from the app's main thread to the test.
private final class ResultSlot<T>: @unchecked Sendable {
    // @unchecked: written once by the thread before its semaphore is signalled, read after the wait.
    var value: T?
}

/// Runs `body` on a new thread, as another part of an app would send from. Not
/// `DispatchQueue.global()`: on Linux its jobs wait while the cooperative pool's threads are busy
/// (a global job waited 4.0 s behind two tasks busy for 4 s, a new thread ran at once), and in
/// the parallel run synchronous tests keep both threads busy for seconds, past the watchdog below.
private func otherThread(_ body: @escaping @Sendable () -> Void) {
    Thread { body() }.start()
}

/// Services the current thread's run loop (as an app's main thread does) until `condition`
/// holds; the deadline is a watchdog for a broken build, not part of what is checked.
private func runLoop(until condition: () -> Bool) -> Bool {
    let watchdog = Date().addingTimeInterval(20)
    while !condition(), Date() < watchdog {
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    return condition()
}

/// Records what the view model's publishers deliver, and whether it came on the app's main run loop.
private final class Observer {
    var log: [String] = []
    var offMainLoop = 0
    let mainLoop: RunLoop
    var cancellables = Set<AnyCancellable>()

    init(_ model: WeatherViewModel, mainLoop: RunLoop) {
        self.mainLoop = mainLoop
        model.objectWillChange
            .sink { [unowned self, unowned model] in
                self.note("will change: online \(model.isOnline), forecast \(model.forecast?.city ?? "-")")
            }
            .store(in: &cancellables)
        model.$isOnline
            .dropFirst()
            .sink { [unowned self] in self.note("online \($0)") }
            .store(in: &cancellables)
        model.$forecast
            .dropFirst()
            .sink { [unowned self] in self.note("forecast \($0?.city ?? "-")") }
            .store(in: &cancellables)
    }

    private func note(_ entry: String) {
        if RunLoop.current !== mainLoop { offMainLoop += 1 }
        log.append(entry)
    }
}

// MARK: - The tests that drive it

@Suite("An app's view model, as written against Combine")
struct AppStyleTests {
    @Test("a notification posted on another thread reaches @Published on the main run loop; objectWillChange fires first")
    func notification() {
        let center = NotificationCenter()
        let (arrived, log, offMainLoop) = onAppMainThread { loop in
            let model = WeatherViewModel(center: center, mainLoop: loop, tick: 3600)
            let observer = Observer(model, mainLoop: loop)
            otherThread {
                center.post(name: .connectivityChanged, object: nil, userInfo: ["online": false])
            }
            return (runLoop { !model.isOnline }, observer.log, observer.offMainLoop)
        }
        #expect(arrived)
        #expect(log == ["will change: online true, forecast -", "online false"], "the old value is still there when objectWillChange fires")
        #expect(offMainLoop == 0)
    }

    @Test("JSON decoded on the way in arrives on the main run loop; a decode failure surfaces as an error")
    func decoding() {
        let payload = Data(#"{"city": "Oslo", "celsius": -3.5}"#.utf8)
        let outcome = onAppMainThread { loop in
            let model = WeatherViewModel(center: NotificationCenter(), mainLoop: loop, tick: 3600)
            let observer = Observer(model, mainLoop: loop)
            let responses = model.responses
            otherThread { responses.send(payload) }
            let decoded = runLoop { model.forecast != nil }
            let forecast = model.forecast
            let logAfterDecode = observer.log
            otherThread { responses.send(Data("not json".utf8)) }
            let failed = runLoop { model.errorMessage != nil }
            responses.send(payload)
            _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
            return DecodeOutcome(
                decoded: decoded, forecast: forecast, logAfterDecode: logAfterDecode, failed: failed,
                errorMessage: model.errorMessage, finalForecast: model.forecast, finalLog: observer.log,
                offMainLoop: observer.offMainLoop)
        }
        #expect(outcome.decoded)
        #expect(outcome.forecast == Forecast(city: "Oslo", celsius: -3.5))
        #expect(outcome.logAfterDecode == ["will change: online true, forecast -", "forecast Oslo"])
        #expect(outcome.failed)
        #expect(outcome.errorMessage == "DecodingError")
        #expect(outcome.finalForecast == Forecast(city: "Oslo", celsius: -3.5), "a failed decode leaves the last forecast")
        #expect(
            outcome.finalLog == ["will change: online true, forecast -", "forecast Oslo", "will change: online true, forecast Oslo"],
            "after the failure (errorMessage's change) the stream publishes nothing more")
        #expect(outcome.offMainLoop == 0)
    }

    @Test("the autoconnected timer counts on the main run loop, through assign(to: &$property)")
    func timer() {
        let (counted, seen, offMainLoop) = onAppMainThread { loop in
            let model = WeatherViewModel(center: NotificationCenter(), mainLoop: loop, tick: 0.01)
            var seen: [Int] = []
            var offMainLoop = 0
            let counting = model.$secondsOnScreen.sink { value in
                if RunLoop.current !== loop { offMainLoop += 1 }
                seen.append(value)
            }
            let counted = runLoop { model.secondsOnScreen >= 3 }
            counting.cancel()
            return (counted, seen, offMainLoop)
        }
        #expect(counted)
        #expect(Array(seen.prefix(4)) == [0, 1, 2, 3])
        #expect(offMainLoop == 0)
    }

    @Test("the view model is released when the app lets go of it (assign(to: &$property) makes no cycle)")
    func released() {
        let (ticked, released) = onAppMainThread { loop in
            weak var weakModel: WeatherViewModel?
            var ticked = false
            do {
                let model = WeatherViewModel(center: NotificationCenter(), mainLoop: loop, tick: 0.01)
                weakModel = model
                ticked = runLoop { model.secondsOnScreen >= 1 }
            }
            return (ticked, weakModel == nil)
        }
        #expect(ticked)
        #expect(released)
    }
}

private struct DecodeOutcome: Sendable {
    let decoded: Bool
    let forecast: Forecast?
    let logAfterDecode: [String]
    let failed: Bool
    let errorMessage: String?
    let finalForecast: Forecast?
    let finalLog: [String]
    let offMainLoop: Int
}
