import PlumbShell
#if canImport(Glibc)
import Glibc
#endif

exit(PlumbMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
