import Foundation

/// An accepted event's spool line (`RecordSpool`, docs/EVENTS.md "Storing"): the record as JSON on one line (JSON
/// escapes every line break), every field of `Event` included as `Codable` gives them.
extension EventRecord: SpoolRecord {
    static var spoolExtension: String { "events" }

    func appendSpoolLine(to out: inout [UInt8]) {
        out.append(contentsOf: (try? JSONEncoder().encode(self)) ?? Data())
    }

    init?(spoolLine: Substring) {
        guard let record = try? JSONDecoder().decode(EventRecord.self, from: Data(spoolLine.utf8)) else { return nil }
        self = record
    }
}
