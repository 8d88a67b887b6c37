import Foundation
import PackagePlugin

/// Embeds files at build time, so linkd stays one self-contained binary that runs wherever it is copied:
/// - a target's `Codegen/Runtime` folder (excluded from its compiled sources): each `.swift`, `.kt` and `.ts` file
///   becomes `enum <file name> { static let text }`, the runtimes the router generator copies (docs/CODEGEN.md);
/// - the package folders `folders` names for the target: each becomes `EmbeddedFolder.<folder name>`, every file's
///   path, modification time and bytes (the console and the migrations of LinkService: docs/CONSOLE.md).
@main struct EmbedFiles: BuildToolPlugin {
    /// The package's folders embedded into each target, by target name.
    static let folders = ["LinkService": ["console", "migrations"]]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let tool = try context.tool(named: "EmbedText").url
        var commands: [Command] = []
        let runtimes = target.directoryURL.appending(path: "Codegen/Runtime")
        if FileManager.default.fileExists(atPath: runtimes.path) {
            let inputs = try FileManager.default.contentsOfDirectory(at: runtimes, includingPropertiesForKeys: nil)
                .filter { ["swift", "kt", "ts"].contains($0.pathExtension) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let output = context.pluginWorkDirectoryURL.appending(path: "RouterRuntimes.swift")
            commands.append(
                .buildCommand(
                    displayName: "Embedding the router runtimes of \(target.name)", executable: tool,
                    arguments: [output.path] + inputs.map(\.path), inputFiles: inputs, outputFiles: [output]))
        }
        for name in Self.folders[target.name] ?? [] {
            let folder = context.package.directoryURL.appending(path: name)
            // Inputs are the folders, not the files: a file added or removed changes its folder, which reruns the
            // tool (it lists the folder itself), whereas SwiftPM plans again only when a target's folders change, so
            // a file listed here and removed since would stop the build as a missing input.
            let folders = try Self.folders(in: folder)
            let output = context.pluginWorkDirectoryURL.appending(path: "Embedded_\(name).swift")
            commands.append(
                .buildCommand(
                    displayName: "Embedding \(name)/ into \(target.name)", executable: tool,
                    arguments: ["--folder", name, folder.path, output.path],
                    inputFiles: folders, outputFiles: [output]))
        }
        return commands
    }

    /// `folder` and the folders under it, hidden ones left out.
    static func folders(in folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isDirectoryKey],
                options: [.skipsHiddenFiles])
        else { return [folder] }
        var folders = [folder]
        for case let url as URL in walker where try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
            folders.append(url)
        }
        return folders
    }
}
