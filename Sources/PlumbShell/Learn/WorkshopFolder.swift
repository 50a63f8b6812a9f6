import Foundation

/// Which folder of exercises `plumb learn` and `plumb serve` use when none is named.
///
/// In order: the current folder when it holds exercises (`NN-name.pipe`), `Examples/workshop`
/// under it (the repository's), then the exercises `Scripts/install` put beside the installed
/// binary (`PREFIX/share/plumb/workshop` for `PREFIX/bin/plumb`). When none exists, the problem
/// says what to type.
struct WorkshopFolder {
    /// The repository's exercises, relative to the current folder.
    static let repository = "Examples/workshop"
    /// Where `Scripts/install` puts the exercises, relative to the folder of the binary.
    static let installed = "../share/plumb/workshop"

    /// Where `Scripts/install` puts the solutions, in the installed workshop's folder: hidden, so
    /// a learner is not shown them by `ls`, and found by `plumb learn` for the hidden inputs.
    static let installedSolutions = ".solutions"

    /// The folder the command works in.
    let currentDirectory: String
    /// The running binary's path (`CommandLine.arguments[0]` resolved), or nil.
    let executable: String?

    /// The folders of this process.
    static var here: WorkshopFolder {
        WorkshopFolder(currentDirectory: FileManager.default.currentDirectoryPath, executable: Bundle.main.executablePath)
    }

    /// The installed workshop beside the binary (`PREFIX/share/plumb/workshop` for
    /// `PREFIX/bin/plumb`), whether or not it exists.
    var installedFolder: String? {
        guard let executable else { return nil }
        let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        return bin.appendingPathComponent(Self.installed).standardizedFileURL.path
    }

    /// The folder named on the command line, as given, or the first default that holds exercises.
    func resolve(_ requested: String?) -> Result<String, WorkshopProblem> {
        if let requested { return .success(requested) }
        var candidates = [currentDirectory, (currentDirectory as NSString).appendingPathComponent(Self.repository)]
        if let installedFolder { candidates.append(installedFolder) }
        if let found = candidates.first(where: Self.holdsExercises) {
            return .success(found == currentDirectory ? "." : relative(found))
        }
        return .failure(
            WorkshopProblem(
                message: """
                    no exercises here: \(Self.repository) is not under this folder and none are installed
                    help: run `plumb learn DIR` with a folder of exercises (NN-name.pipe), run it in such a \
                    folder, or install the workshop's with Scripts/install (into PREFIX/share/plumb/workshop)
                    """))
    }

    /// `path` relative to the current folder when it is below it, as a person would type it.
    private func relative(_ path: String) -> String {
        let prefix = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Whether `directory` holds at least one exercise file.
    static func holdsExercises(_ directory: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        return names.contains { $0.hasSuffix(".pipe") && $0.first?.isNumber == true }
    }
}
