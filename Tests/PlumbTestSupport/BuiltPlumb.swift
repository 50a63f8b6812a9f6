import Foundation

/// Finds the built `plumb` executable for the tests that run it: `$PLUMB_BINARY` when set, else
/// the `plumb` beside the test bundle (SwiftPM builds every product into the same folder, a few
/// levels above the bundle's executable), else the package's `.build/debug/plumb`.
///
/// ```swift
/// let plumb = try #require(BuiltPlumb.url, BuiltPlumb.missing)
/// ```
public enum BuiltPlumb {
    /// The executable, or nil when none is built.
    public static let url: URL? = {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["PLUMB_BINARY"] { candidates.append(URL(fileURLWithPath: path)) }
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0], relativeTo: URL(fileURLWithPath: fm.currentDirectoryPath))
        var directory = argument0.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("plumb"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/plumb"))
        return candidates.first { fm.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }
    }()

    /// The executable's path, or nil when none is built.
    public static var path: String? { url?.path }

    /// What a test says when there is none.
    public static let missing = "the plumb binary was not found: run `swift build --product plumb` first or set PLUMB_BINARY"

    /// The package root (for `Examples/`): this file is `Tests/PlumbTestSupport/BuiltPlumb.swift`.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
