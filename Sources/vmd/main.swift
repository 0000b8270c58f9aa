import Posix

// Kept to one statement: top-level code is MainActor-isolated (FACTS.md), the library is not.
CurrentProcess.exit(VMDMain.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: CurrentProcess.environment))
