import Foundation

/// An event accepted by `POST /v1/events` and waiting to be written (docs/EVENTS.md, "Storing"): its workspace and
/// when it was received, with the event as read (attributed when it is written).
struct EventRecord: Sendable, Equatable, Codable {
    var workspace: UUID
    var receivedAt: Date
    var event: Event
}
