// The reference articles' scenarios, ported to Linux with `Reactive`.
//
// Run with `swift run bridges-example`. UIKit, URLSession and HealthKit are replaced by small
// stand-ins below; everything else is the pipeline the articles build, written against this
// library. Under Swift 6's strict concurrency the closures handed to `asyncMap` and to the `Task`
// initialisers are `@Sendable`, so the stand-ins are `Sendable` types; that is the one change
// from the articles' code, and the compiler is right to ask for it.

import Dispatch
import Reactive

// MARK: - Stand-ins for UIKit, URLSession and HealthKit

struct Photo: Sendable, CustomStringConvertible {
    var name: String
    var filters: [String] = []
    var description: String { filters.isEmpty ? name : "\(name) [\(filters.joined(separator: ", "))]" }
}

/// Stands in for `UIImage`.
struct Image: Sendable, CustomStringConvertible {
    var description: String
    /// Stands in for `UIImage.pngData()`: `nil` for an image that cannot be encoded.
    func pngData() -> [UInt8]? { description.isEmpty ? nil : Array(description.utf8) }
}

struct ColorProfile: Sendable {
    var name: String
    /// A Combine-powered API, as in the article.
    func apply(to photo: Photo) -> AnyPublisher<Photo, Never> {
        var photo = photo
        photo.filters.append(name)
        return Just(photo).eraseToAnyPublisher()
    }
}

struct PhotoEffect: Sendable {
    var name: String
    /// An async API.
    func apply(to photo: Photo) async -> Photo {
        await Task.yield()
        var photo = photo
        photo.filters.append(name)
        return photo
    }
}

// MARK: - 1. asyncMap: the photo renderer (non-throwing)

struct PhotoRenderer: Sendable {
    var colorProfile: ColorProfile
    var effect: PhotoEffect

    func render(_ photo: Photo) -> AnyPublisher<Image, Never> {
        colorProfile
            .apply(to: photo)
            .asyncMap { photo in
                let photo = await effect.apply(to: photo)
                return await image(from: photo)
            }
            .eraseToAnyPublisher()
    }

    private func image(from photo: Photo) async -> Image {
        Image(description: "image of \(photo)")
    }
}

// MARK: - 2. asyncMap: the login loader (throwing, in a pipeline that can fail)

struct User: Sendable { var id: String; var name: String }

enum LoginError: Error { case notLoggedIn, unknownUser(String) }

struct Keychain: Sendable {
    var storedUserID: String?
    /// A Combine-powered API: a `Future` in a `Deferred`, so the lookup runs per subscription.
    func loadLoggedInUserID() -> AnyPublisher<String, any Error> {
        let storedUserID = storedUserID
        return Deferred {
            Future { promise in
                if let storedUserID {
                    promise(.success(storedUserID))
                } else {
                    promise(.failure(LoginError.notLoggedIn))
                }
            }
        }
        .eraseToAnyPublisher()
    }
}

actor UserLoader {
    private let directory = ["u42": "Ada"]
    func loadUser(withID id: String) async throws -> User {
        await Task.yield()
        guard let name = directory[id] else { throw LoginError.unknownUser(id) }
        return User(id: id, name: name)
    }
}

final class LoginStateController: Sendable {
    private let keychain: Keychain
    private let userLoader: UserLoader

    init(keychain: Keychain, userLoader: UserLoader) {
        self.keychain = keychain
        self.userLoader = userLoader
    }

    func loadLoggedInUser() -> AnyPublisher<User, any Error> {
        keychain
            .loadLoggedInUserID()
            .asyncMap { [userLoader] userID in
                try await userLoader.loadUser(withID: userID)
            }
            .eraseToAnyPublisher()
    }
}

// MARK: - 3. asyncMap: the upload (throwing, in a pipeline that could not fail)

/// Stands in for `URLResponse`.
struct Response: Sendable { var url: String; var statusCode: Int; var bytes: Int }

enum PhotoUploadingError: Error { case invalidImage(Image) }

/// Stands in for `URLSession.upload(for:from:)`.
actor UploadSession {
    private(set) var uploads = 0
    func upload(to url: String, from data: [UInt8]) async throws -> ([UInt8], Response) {
        uploads += 1
        return ([], Response(url: url, statusCode: 201, bytes: data.count))
    }
}

struct PhotoUploader: Sendable {
    var renderer: PhotoRenderer
    var session: UploadSession

    func upload(_ photo: Photo, to url: String) -> AnyPublisher<Response, any Error> {
        renderer
            .render(photo)
            .asyncMap { image in
                guard let data = image.pngData() else {
                    throw PhotoUploadingError.invalidImage(image)
                }
                let (_, response) = try await session.upload(to: url, from: data)
                return response
            }
            .eraseToAnyPublisher()
    }
}

// MARK: - 4. async(): a Combine todo API used from async code

struct Todo: Sendable { var id: Int; var title: String; var completed: Bool }

struct TodoAPI: Sendable {
    func fetchTodo(id: Int) -> AnyPublisher<Todo, any Error> {
        Just(Todo(id: id, title: "write the bridges", completed: false))
            .setFailureType(to: (any Error).self)
            .eraseToAnyPublisher()
    }
    /// A publisher that finishes without a value: the article's update is about this case.
    func fetchNothing() -> AnyPublisher<Todo, any Error> {
        Empty().eraseToAnyPublisher()
    }
}

// MARK: - 6. Completion handlers over async functions: the effect applier

struct Configuration: Sendable { var quality: Int }

enum ProcessingError: Error { case badConfiguration }

struct PhotoProcessor: Sendable {
    func process(_ photo: Photo) async throws -> Photo {
        await Task.yield()
        return Photo(name: photo.name, filters: photo.filters + ["processed"])
    }
    func setConfiguration(_ configuration: Configuration) async throws {
        if configuration.quality > 100 { throw ProcessingError.badConfiguration }
    }
    func cancel() async {}
}

/// A completion-handler API kept for old callers, implemented with async functions.
final class PhotoEffectApplier: Sendable {
    private let processor = PhotoProcessor()
    /// Where completions run. The article uses the default, `.main`; on Linux the main queue only
    /// runs while the program runs it (here: top-level `await` keeps the main queue serviced).
    private let queue: DispatchQueue

    init(queue: DispatchQueue = .main) { self.queue = queue }

    func apply(effect: PhotoEffect, to photo: Photo, completion: @escaping @Sendable (Result<Photo, any Error>) -> Void) {
        Task(operation: { try await self.processor.process(photo) }, queue: queue, completion: completion)
    }

    func setConfiguration(_ configuration: Configuration, completion: @escaping @Sendable ((any Error)?) -> Void) {
        Task(operation: { try await self.processor.setConfiguration(configuration) }, queue: queue, completion: completion)
    }

    func cancel(completion: @escaping @Sendable () -> Void) {
        Task(operation: { await self.processor.cancel() }, queue: queue, completion: completion)
    }
}

// MARK: - 7. Future in Deferred, PassthroughSubject + handleEvents: the heart-rate feed

enum HealthError: Error { case notAuthorized }

/// Stands in for `HKAnchoredObjectQuery`: while running, it reports a sample every second of
/// virtual time.
final class HeartRateQuery: Sendable {
    private let scheduler: VirtualTimeScheduler
    private let handler: @Sendable ([Double]?, (any Error)?) -> Void
    private let timer = Lock<AnyCancellable?>(nil)
    private let beat = Lock(0)

    init(scheduler: VirtualTimeScheduler, handler: @escaping @Sendable ([Double]?, (any Error)?) -> Void) {
        self.scheduler = scheduler
        self.handler = handler
    }

    func start() {
        let handle = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
        ) { [self] in
            let n = beat.withLock {
                $0 += 1; return $0
            }
            handler([60 + Double(n)], nil)
        }
        timer.withLock { $0 = AnyCancellable(handle) }
    }

    func stop() { timer.withLock { $0 = nil } }
}

/// Stands in for `HKHealthStore`: authorization fails `failures` times, then succeeds.
final class HealthStore: Sendable {
    let log = Lock<[String]>([])
    private let attempts = Lock(0)
    private let failures: Int

    init(failures: Int) { self.failures = failures }

    func requestAuthorization(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let attempt = attempts.withLock {
            $0 += 1; return $0
        }
        record("authorization attempt \(attempt)")
        if attempt <= failures {
            completion(false, HealthError.notAuthorized)
        } else {
            completion(true, nil)
        }
    }

    func execute(_ query: HeartRateQuery) {
        record("query started")
        query.start()
    }

    func stop(_ query: HeartRateQuery) {
        record("query stopped")
        query.stop()
    }

    func record(_ line: String) { log.withLock { $0.append(line) } }
}

struct Health: Sendable {
    let store: HealthStore
    let scheduler: VirtualTimeScheduler

    func authorize() -> AnyPublisher<Bool, any Error> {
        Deferred {
            Future { handler in
                store.requestAuthorization { success, error in
                    if let error {
                        handler(.failure(error))
                    } else {
                        handler(.success(success))
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }

    func heartRate() -> AnyPublisher<[Double], any Error> {
        let subject = PassthroughSubject<[Double], any Error>()
        let query = HeartRateQuery(scheduler: scheduler) { samples, error in
            if let error {
                subject.send(completion: .failure(error))
            } else {
                subject.send(samples ?? [])
            }
        }
        return
            subject
            .handleEvents(
                receiveSubscription: { _ in store.execute(query) },
                receiveCancel: { store.stop(query) }
            )
            .eraseToAnyPublisher()
    }
}

// MARK: - Running every scenario

func section(_ title: String) { print("\n== \(title)") }

section("1. asyncMap (non-throwing): photo renderer")
let renderer = PhotoRenderer(colorProfile: ColorProfile(name: "sRGB"), effect: PhotoEffect(name: "sepia"))
for await image in renderer.render(Photo(name: "beach.jpg")).values {
    print("rendered:", image)
}

section("2. asyncMap (throwing, Failure == Error): login loader")
let loggedIn = LoginStateController(keychain: Keychain(storedUserID: "u42"), userLoader: UserLoader())
print("user:", try await loggedIn.loadLoggedInUser().async().name)
let stranger = LoginStateController(keychain: Keychain(storedUserID: "u7"), userLoader: UserLoader())
do {
    _ = try await stranger.loadLoggedInUser().async()
} catch {
    print("login failed as expected:", error)
}

section("3. asyncMap (throwing, Failure was Never): upload")
let session = UploadSession()
let uploader = PhotoUploader(renderer: renderer, session: session)
let response = try await uploader.upload(Photo(name: "beach.jpg"), to: "https://example.com/photos").async()
print("uploaded: status \(response.statusCode), \(response.bytes) bytes to \(response.url)")

section("4. async(): todo API")
let api = TodoAPI()
let todo = try await api.fetchTodo(id: 1).async()
print("todo \(todo.id): \(todo.title), completed: \(todo.completed)")
do {
    _ = try await api.fetchNothing().async()
} catch AsyncError.finishedWithoutValue {
    print("a publisher that finishes without a value throws AsyncError.finishedWithoutValue")
}

section("5. for try await over a publisher")
for try await tick in Just("test").setFailureType(to: (any Error).self).eraseToAnyPublisher().values {
    print("tick:", tick)
}
for await number in (1...3).publisher.values {
    print("number:", number)
}

section("6. Task + completion handler: effect applier")
let applier = PhotoEffectApplier()  // completions on the main queue
let processed: Result<Photo, any Error> = await withCheckedContinuation { done in
    applier.apply(effect: PhotoEffect(name: "vivid"), to: Photo(name: "cat.png")) { result in
        done.resume(returning: result)
    }
}
print("apply:", (try? processed.get()).map(String.init(describing:)) ?? "failed")
let configurationError: (any Error)? = await withCheckedContinuation { done in
    applier.setConfiguration(Configuration(quality: 200)) { error in done.resume(returning: error) }
}
print("setConfiguration:", configurationError.map { "failed with \($0)" } ?? "ok")
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    applier.cancel { done.resume() }
}
print("cancel: completed")

section("7. Future vs Deferred { Future }")
let eagerRuns = Lock(0)
let eager = Future<Int, Never> { promise in
    eagerRuns.withLock { $0 += 1 }
    promise(.success(1))
}
print("Future ran \(eagerRuns.withLock { $0 }) time(s) before anyone subscribed")
_ = eager.sink { _ in }
_ = eager.sink { _ in }
print("…and still \(eagerRuns.withLock { $0 }) after two subscribers")
let lazyRuns = Lock(0)
let lazy = Deferred {
    Future<Int, Never> { promise in
        lazyRuns.withLock { $0 += 1 }
        promise(.success(1))
    }
}
print("Deferred ran \(lazyRuns.withLock { $0 }) time(s) before anyone subscribed")
_ = lazy.sink { _ in }
_ = lazy.sink { _ in }
print("…and \(lazyRuns.withLock { $0 }) after two subscribers")
let asyncFuture = Future<Int, any Error> { try await loggedIn.loadLoggedInUser().async().name.count }
print("Future { try await … } gave", try await asyncFuture.async())

section("8. authorize, retry(3), flatMap into a heart-rate stream, replaceError")
let scheduler = VirtualTimeScheduler()
let health = Health(store: HealthStore(failures: 2), scheduler: scheduler)
let samples = Lock<[[Double]]>([])
let feed = health.authorize()
    .retry(3)
    .flatMap { authorized in
        authorized ? health.heartRate() : Empty().eraseToAnyPublisher()
    }
    .replaceError(with: [])
    .sink { sample in samples.withLock { $0.append(sample) } }
scheduler.advance(by: .seconds(3))
feed.cancel()
scheduler.advance(by: .seconds(3))  // the query is stopped: nothing more arrives
for line in health.store.log.withLock({ $0 }) { print(line) }
print("samples:", samples.withLock { $0 })
