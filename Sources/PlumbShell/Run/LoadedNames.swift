import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// What the `:load` lines of a script bring, for checking the text around them: the names each
/// loaded file binds (and the files it loads in turn), known to the statements after its
/// `:load`, as when the script runs. Used by `plumb check` and before a script runs (the whole
/// text is checked first, so a name a loaded file binds is not an unknown one). The files are
/// found as `ScriptLoader` finds them (relative to the loading script's folder); a cycle, a
/// nesting past `ScriptLoader.maximumLoadDepth` or a file that cannot be read brings nothing
/// here: running the `:load` reports it.
///
/// ```swift
/// let loads = LoadedNames.loads(in: ScriptLines(text), loading: [LoadedFile(name: "main.pipe", path: "main.pipe")], session: session)
/// session.compile(script.language, file: "main.pipe", loads: loads)
/// ```
enum LoadedNames {
    /// The bindings of each `:load` line of `script`, whose text is the last of `loading` (or
    /// typed at the prompt when `loading` is empty).
    static func loads(in script: ScriptLines, loading: [LoadedFile], session: Session) -> [LoadedBindings] {
        script.hostLines.compactMap { host -> LoadedBindings? in
            guard host.name == "load", !host.argument.isEmpty else { return nil }
            let path = ScriptLoader.resolve(host.argument, loadedFrom: loading.last)
            let file = LoadedFile(name: host.argument, path: path)
            let cycle = file.identity.map { identity in loading.contains { $0.identity == identity } } ?? false
            // A regular file only: checking never waits on a FIFO (running the `:load` may).
            guard !cycle, loading.count < ScriptLoader.maximumLoadDepth, isRegularFile(path),
                case .success(let text) = ScriptFile.read(path)
            else { return nil }
            let inner = ScriptLines(text)
            let nested = loads(in: inner, loading: loading + [file], session: session)
            return session.bindings(declaredBy: inner.language, file: host.argument, loads: nested, atLine: host.line)
        }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
