import Foundation
import PackagePlugin

/// Embeds the generated routers' runtimes at build time: each `.swift`, `.kt` and `.ts` file of the target's
/// `Codegen/Runtime` folder (excluded from its compiled sources) becomes `enum <file name> { static let text }`,
/// so the generator copies them into routers while linkd stays one self-contained binary (docs/CODEGEN.md).
@main struct EmbedRuntimes: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let folder = target.directoryURL.appending(path: "Codegen/Runtime")
        let inputs = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["swift", "kt", "ts"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "RouterRuntimes.swift")
        return [.buildCommand(displayName: "Embedding the router runtimes of \(target.name)",
                              executable: try context.tool(named: "EmbedText").url,
                              arguments: [output.path] + inputs.map(\.path),
                              inputFiles: inputs, outputFiles: [output])]
    }
}
