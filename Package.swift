// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Plumb",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "ReactiveAsync", targets: ["ReactiveAsync"]),
        .library(name: "ReactiveAsyncTesting", targets: ["ReactiveAsyncTesting"]),
        .library(name: "PipeLanguage", targets: ["PipeLanguage"]),
        .executable(name: "plumb", targets: ["plumb"]),
        .executable(name: "plumb-bench", targets: ["plumb-bench"]),
    ],
    targets: [
        // The Combine-compatible reactive core.
        // Subscriptions keep their state in class properties guarded by a `Lock` (Core/Lock.swift).
        // Swift's dynamic exclusivity checks on those (a TLS lookup per access) cost more than the
        // rest of a value's trip through an operator chain, so each such property is declared
        // `@exclusivity(unchecked)` in the source: the lock keeps its accesses exclusive, in every
        // build. Every other property keeps the checks. No `unsafeFlags`: SwiftPM refuses them in a
        // package that is depended on by version (see Scripts/check-consumer).
        .target(name: "Reactive"),
        // swift-async-algorithms' operators over AsyncSequence (the package cannot be fetched), on
        // the toolchain alone, and its marble-testing product.
        .target(name: "ReactiveAsync"),
        .target(name: "ReactiveAsyncTesting", dependencies: ["ReactiveAsync"]),
        // The `.pipe` language: syntax, diagnostics, catalog, graph builder; stages after `values` run on ReactiveAsync.
        .target(name: "PipeLanguage", dependencies: ["Reactive", "ReactiveAsync"]),
        // GNU readline (Debian `libreadline-dev`), linked without pkg-config.
        .systemLibrary(name: "CReadline"),
        // Sessions, REPL, script runner, printers, jobs.
        .target(
            name: "PlumbShell", dependencies: ["PipeLanguage", "Reactive", "CReadline", "PlumbDiagrams", "PlumbLanguageServer", "PlumbServer", "PlumbJSON"]),
        .executableTarget(name: "plumb", dependencies: ["PlumbShell"]),
        // `plumb lsp`: the Language Server Protocol over stdio, on the shell's compile path.
        .target(name: "PlumbLanguageServer", dependencies: ["PipeLanguage", "PlumbJSON"]),
        // One JSON value, reader and writer for the room's API and the language server's messages.
        .target(name: "PlumbJSON"),
        // GNU libmicrohttpd (Debian `libmicrohttpd-dev`), the HTTP server under `plumb serve`.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // `plumb serve`: the workshop room (HTTP on libmicrohttpd, learners' runs in child processes, the pages).
        .target(name: "PlumbServer", dependencies: ["CMicroHTTPD", "CQRencode", "PipeLanguage", "PlumbDiagrams", "PlumbJSON"]),
        // libqrencode (Debian `libqrencode-dev`): the learners' URL as a QR code in the terminal.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Marble diagrams: a recorded run → layout → text lines or SVG; pure, no terminal.
        .target(name: "PlumbDiagrams"),
        .executableTarget(name: "plumb-bench", dependencies: ["Reactive", "ReactiveAsync", "PipeLanguage", "PlumbDiagrams"]),
        // libFuzzer driver (see Scripts/fuzz).
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "plumb-fuzz", dependencies: ["PipeLanguage", "CFuzzDriver"]),
        // Writes the Swift programs Scripts/check-swift compiles and compares with `plumb run`.
        .executableTarget(name: "plumb-swift-check", dependencies: ["PipeLanguage"]),
        // Examples: the reference articles ported to Linux.
        .executableTarget(name: "bridges-example", dependencies: ["Reactive"], path: "Examples/Bridges"),

        .target(name: "ReactiveTestSupport", dependencies: ["Reactive"], path: "Tests/ReactiveTestSupport"),
        // Finds the built `plumb` for the tests that run it.
        .target(name: "PlumbTestSupport", path: "Tests/PlumbTestSupport"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive", "ReactiveTestSupport"]),
        // Reactive too: one timeline with Reactive's virtual time (OneTimelineTests).
        .testTarget(name: "ReactiveAsyncTests", dependencies: ["ReactiveAsync", "ReactiveAsyncTesting", "Reactive"]),
        .testTarget(name: "ReactiveStressTests", dependencies: ["Reactive", "ReactiveTestSupport"]),
        .testTarget(name: "PipeLanguageTests", dependencies: ["PipeLanguage", "Reactive", "ReactiveTestSupport"]),
        .testTarget(name: "PlumbShellTests", dependencies: ["PlumbShell", "PipeLanguage", "ReactiveTestSupport", "PlumbTestSupport"]),
        .testTarget(name: "PlumbDiagramsTests", dependencies: ["PlumbDiagrams"]),
        .testTarget(name: "PlumbLanguageServerTests", dependencies: ["PlumbLanguageServer", "PipeLanguage", "PlumbJSON"]),
        .testTarget(name: "PlumbServerTests", dependencies: ["PlumbServer", "PlumbJSON", "PlumbTestSupport"]),
        .testTarget(name: "PlumbJSONTests", dependencies: ["PlumbJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
