import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// A script being run, for `:load`'s cycle check: its name as written and which file it is.
struct LoadedFile: Equatable {
    /// The path as the person wrote it, for the chain an error shows.
    var name: String
    /// Where it is, for resolving the paths it `:load`s.
    var path: String
    /// The file's device and inode (nil for a file that cannot be looked at), so that two
    /// spellings of one path (`a.pipe`, `./a.pipe`, a link) are one file.
    var identity: FileIdentity?

    init(name: String, path: String) {
        self.name = name
        self.path = path
        identity = FileIdentity(path: path)
    }
}

/// A file's device and inode.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// The `:load` component: the stack of scripts being run (a `plumb run` file, then each `:load`
/// inside it), which resolves relative paths and refuses cycles and deep nesting. Running a loaded
/// script's text is the shell's: the `CommandContext` does it.
///
/// ```swift
/// let loader = ScriptLoader()
/// loader.load("b.pipe", at: location, in: context)   // runs b.pipe's statements in the session
/// ```
final class ScriptLoader {
    /// The scripts being run, outermost first.
    private(set) var loading: [LoadedFile] = []

    /// Runs `body` with `file` as the outermost script (`plumb run`, `plumb test`, `plumb learn`),
    /// so a `:load` inside it that loads it again is a cycle.
    func outermost<T>(_ file: LoadedFile, _ body: () -> T) -> T {
        loading = [file]
        defer { loading = [] }
        return body()
    }

    /// A `:load` path: `~` expanded; a relative path inside a script is relative to that script's
    /// folder (as `#include "x"` is), at the prompt to the working directory.
    static func resolve(_ argument: String, loadedFrom parent: LoadedFile?) -> String {
        let expanded = (argument as NSString).expandingTildeInPath
        guard !expanded.hasPrefix("/"), let parent, parent.path != "/dev/stdin" else { return expanded }
        let folder = (parent.path as NSString).deletingLastPathComponent
        return folder.isEmpty ? expanded : (folder as NSString).appendingPathComponent(expanded)
    }

    /// How many scripts may be loaded inside one another (the outermost `plumb run` file counts).
    static let maximumLoadDepth = 32

    /// `:load FILE`: runs a script in this session, on a stack of the scripts being run.
    ///
    /// A script that loads itself, directly or through others, is refused with the chain of files
    /// (`:load cycle: a.pipe → b.pipe → a.pipe`), and so is nesting deeper than
    /// `maximumLoadDepth`. A loaded script's `:quit` ends the load, not the session.
    func load(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        let path = Self.resolve(argument, loadedFrom: loading.last)
        let file = LoadedFile(name: argument, path: path)
        if let identity = file.identity, let first = loading.firstIndex(where: { $0.identity == identity }) {
            let chain = (loading[first...].map(\.name) + [argument]).joined(separator: " → ")
            return context.commandError(.loadCycle(chain), at: location)
        }
        guard loading.count < Self.maximumLoadDepth else {
            let chain = loading.map(\.name).joined(separator: " → ")
            return context.commandError(.loadTooDeep(Self.maximumLoadDepth, "\(chain) → \(argument)"), at: location)
        }
        let text: String
        switch ScriptFile.read(path) {
        case .success(let read): text = read
        case .failure(let failure):
            return context.commandError(.unreadableFile(ReadFailure(path: argument, reason: failure.reason).message), at: location)
        }
        loading.append(file)
        defer { loading.removeLast() }
        switch context.run(text: text, file: argument) {
        case .interrupted: return .interrupted
        case .outputFailed: return .outputFailed
        case .ok, .quit, .compileErrors, .expectationFailed: return .ok
        }
    }
}
