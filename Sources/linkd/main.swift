import Foundation

// Entry point only: everything else lives in files other than main.swift, so that no C callback
// is ever inferred @MainActor (FIELD-NOTES: Swift 6 isolation crash).
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
