import Foundation

// Entry point only: everything else lives in files other than main.swift, so that no C callback
// is ever inferred @MainActor (docs/field-notes.md §2).
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
