// vmctl: a thin entry point; VMCtl holds the logic (top-level code here is @MainActor).
import Posix

CurrentProcess.exit(VMCtl.run(Array(CommandLine.arguments.dropFirst())))
