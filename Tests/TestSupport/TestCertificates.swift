import Foundation

/// A throwaway CA and a server certificate it signed for `names` (the first is also its common name), made with
/// the openssl command line in a temporary folder: the tests' HTTPS stand-ins, trusted through a CA file.
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caCertificate: String { directory.appendingPathComponent("ca.pem").path }
    public var serverCertificate: String { directory.appendingPathComponent("server.pem").path }
    public var serverKey: String { directory.appendingPathComponent("server.key").path }

    public init(names: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.path
        try "subjectAltName=\(names.map { "DNS:" + $0 }.joined(separator: ","))\nbasicConstraints=CA:FALSE\n"
            .write(toFile: path + "/server.ext", atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + curve + [
                "-keyout", path + "/ca.key", "-out", path + "/ca.pem", "-days", "2",
                "-subj", "/CN=linkd test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try Self.openssl(["req"] + curve + ["-keyout", path + "/server.key", "-out", path + "/server.csr", "-subj", "/CN=\(names[0])"])
        try Self.openssl([
            "x509", "-req", "-in", path + "/server.csr", "-CA", path + "/ca.pem", "-CAkey", path + "/ca.key",
            "-CAcreateserial", "-out", path + "/server.pem", "-days", "2", "-extfile", path + "/server.ext",
        ])
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = try Subprocess("/usr/bin/openssl", arguments, mergeErrors: true)
        guard try process.wait(timeout: 60) == 0 else {
            throw TestFailure("openssl \(arguments.joined(separator: " ")): \(process.standardOutput)")
        }
    }
}
