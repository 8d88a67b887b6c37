import Foundation

/// Where an installation keeps a folder of its own (`migrations`, `console`): beside the executable or up to
/// three folders above it (a SwiftPM build in the source tree), in the working directory, or under
/// `/usr/share/linkd`; the first candidate that `isUsable` accepts.
enum InstalledDirectory {
    static func find(_ name: String, executablePath: String, isUsable: (URL) -> Bool) -> URL? {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name))
        candidates.append(URL(fileURLWithPath: "/usr/share/linkd").appendingPathComponent(name))
        return candidates.first(where: isUsable)
    }
}
