import PlumbShell

PlumbMain.end(with: PlumbMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
